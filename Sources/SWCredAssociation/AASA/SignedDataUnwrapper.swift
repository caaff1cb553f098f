/// Extracts the content of a PKCS#7 / CMS `SignedData` body (AD-3.8) with a small, bounded DER
/// reader. The signature is not verified (Decision in AD-3.8).
///
/// Only definite lengths are read; a body that is not `ContentInfo { signedData, [0] SignedData
/// { version, digestAlgorithms, encapContentInfo { data, [0] OCTET STRING } … } }` yields `nil`.
enum SignedDataUnwrapper {
    private struct TLV {
        var tag: UInt8
        var start: Int
        var end: Int
    }

    /// 1.2.840.113549.1.7.2 and 1.2.840.113549.1.7.1, DER-encoded.
    private static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    private static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    private static func read(_ bytes: [UInt8], at position: Int, limit: Int) -> TLV? {
        guard position + 2 <= limit else { return nil }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else { return nil }  // no high tag numbers here
        var index = position + 1
        let first = bytes[index]
        index += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), index + count <= limit else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard length >= 0, index + length <= limit else { return nil }
        return TLV(tag: tag, start: index, end: index + length)
    }

    private static func children(_ bytes: [UInt8], of tlv: TLV) -> [TLV]? {
        var result: [TLV] = []
        var position = tlv.start
        while position < tlv.end {
            guard let child = read(bytes, at: position, limit: tlv.end), result.count < 64 else { return nil }
            result.append(child)
            position = child.end
        }
        return result
    }

    /// The encapsulated content bytes, or `nil` when `bytes` is not a SignedData with content.
    static func content(of bytes: [UInt8]) -> [UInt8]? {
        guard let contentInfo = read(bytes, at: 0, limit: bytes.count), contentInfo.tag == 0x30,
            let parts = children(bytes, of: contentInfo), parts.count >= 2,
            parts[0].tag == 0x06, Array(bytes[parts[0].start..<parts[0].end]) == signedDataOID,
            parts[1].tag == 0xA0, let explicit = children(bytes, of: parts[1]), explicit.count == 1,
            explicit[0].tag == 0x30, let signedData = children(bytes, of: explicit[0]), signedData.count >= 3,
            signedData[2].tag == 0x30, let encap = children(bytes, of: signedData[2]), encap.count == 2,
            encap[0].tag == 0x06, Array(bytes[encap[0].start..<encap[0].end]) == dataOID,
            encap[1].tag == 0xA0, let wrapped = children(bytes, of: encap[1]), wrapped.count == 1
        else { return nil }
        let octets = wrapped[0]
        if octets.tag == 0x04 { return Array(bytes[octets.start..<octets.end]) }
        // A constructed OCTET STRING: concatenate its primitive chunks.
        guard octets.tag == 0x24, let chunks = children(bytes, of: octets) else { return nil }
        var content: [UInt8] = []
        for chunk in chunks {
            guard chunk.tag == 0x04 else { return nil }
            content.append(contentsOf: bytes[chunk.start..<chunk.end])
        }
        return content
    }
}
