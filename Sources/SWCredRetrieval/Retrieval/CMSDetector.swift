/// Recognises a PKCS#7 / CMS SignedData body (AD-3.8) without parsing it: a DER `SEQUENCE`
/// whose first element is the `signedData` object identifier 1.2.840.113549.1.7.2.
///
/// Only the first bytes are read, with every length checked, so any input is safe.
enum CMSDetector {
    /// DER of OBJECT IDENTIFIER 1.2.840.113549.1.7.2.
    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// Whether `body` starts like a CMS SignedData ContentInfo.
    static func isSignedData(_ body: [UInt8]) -> Bool {
        guard body.count >= 2 + signedDataOID.count, body[0] == 0x30 else { return false }
        // The SEQUENCE length: short form (< 0x80) or long form with 1–4 length bytes.
        var index = 1
        let first = body[index]
        index += 1
        if first & 0x80 != 0 {
            let lengthBytes = Int(first & 0x7F)
            guard (1...4).contains(lengthBytes) else { return false }
            index += lengthBytes
        }
        guard index + signedDataOID.count <= body.count else { return false }
        return Array(body[index..<(index + signedDataOID.count)]) == signedDataOID
    }
}
