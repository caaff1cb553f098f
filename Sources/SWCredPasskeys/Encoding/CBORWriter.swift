/// The few CBOR items (RFC 8949) an authenticator writes: unsigned and negative integers, byte
/// and text strings, and maps. Maps are written in the order given: callers pass keys already in
/// CTAP2 canonical order (shorter encodings first, then bytewise), as the attestation object and
/// the COSE key need.
struct CBORWriter {
    private(set) var bytes: [UInt8] = []

    private mutating func head(_ major: UInt8, _ value: UInt64) {
        let type = major << 5
        switch value {
        case 0..<24: bytes.append(type | UInt8(value))
        case 24...0xFF: bytes += [type | 24, UInt8(value)]
        case 0x100...0xFFFF: bytes += [type | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        case 0x10000...0xFFFF_FFFF:
            bytes.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(value >> UInt64(shift) & 0xFF)) }
        default:
            bytes.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(value >> UInt64(shift) & 0xFF)) }
        }
    }

    /// An integer (major type 0 or 1).
    mutating func int(_ value: Int64) {
        if value >= 0 { head(0, UInt64(value)) } else { head(1, UInt64(-(value + 1))) }
    }

    /// A byte string (major type 2).
    mutating func byteString(_ value: some Collection<UInt8>) {
        head(2, UInt64(value.count))
        bytes += value
    }

    /// A text string (major type 3).
    mutating func text(_ value: String) {
        head(3, UInt64(value.utf8.count))
        bytes += value.utf8
    }

    /// A map header (major type 5) for `count` pairs; the caller writes the pairs.
    mutating func mapHeader(_ count: Int) {
        head(5, UInt64(count))
    }
}
