import Crypto
import SWCredCore

/// The CodeDirectory's own hashes checked against what they seal.
enum Sealing {
    /// The digest of `bytes` with a CodeDirectory's hash type; nil for an unknown type.
    static func digest(_ bytes: ArraySlice<UInt8>, type: CodeDirectory.HashType) -> [UInt8]? {
        switch type {
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        case .sha256Truncated: Array(SHA256.hash(data: bytes).prefix(20))
        case .sha384: Array(SHA384.hash(data: bytes))
        case .unknown: nil
        }
    }

    /// Problems with special slots −5 (XML entitlements) and −7 (DER entitlements): a blob that
    /// a CodeDirectory does not hash, hashes another blob, or a slot hash with no blob.
    ///
    /// `xml` and `der` are the whole blobs, header included, as the CodeDirectory hashes them.
    static func entitlementProblems(directories: [CodeDirectory], xml: [UInt8]?, der: [UInt8]?) -> [String] {
        var problems: [String] = []
        let slots = [
            (CodeDirectory.SpecialSlot.entitlements, xml, "XML entitlements"),
            (CodeDirectory.SpecialSlot.derEntitlements, der, "DER entitlements"),
        ]
        for directory in directories {
            let name = directory.slot == 0 ? "the CodeDirectory" : "CodeDirectory 0x\(hex(directory.slot))"
            for (slot, blob, what) in slots {
                let sealed = directory.specialSlotHashes[slot]
                let empty = sealed.map { $0.allSatisfy { $0 == 0 } } ?? true
                guard let blob else {
                    if !empty { problems.append("\(name) seals \(what) (slot -\(slot)) that the signature lacks") }
                    continue
                }
                guard let sealed, !empty else {
                    problems.append("\(name) does not seal the \(what) blob (slot -\(slot) is empty)")
                    continue
                }
                guard let actual = digest(blob[...], type: directory.hashType) else {
                    problems.append("\(name) uses hash type \(directory.hashType), which swcred cannot check")
                    continue
                }
                if actual != sealed {
                    problems.append("the \(what) blob does not match \(name)'s slot -\(slot) hash")
                }
            }
        }
        return problems
    }

    /// Whether the image's pages up to `codeLimit` hash to the CodeDirectory's code slots.
    ///
    /// - Throws: `malformedArtifact` when the code slots do not describe `codeLimit` bytes of the image.
    static func codePagesMatch(_ directory: CodeDirectory, blob: ByteWindow, image: ByteWindow) throws(SWCredError)
        -> Bool
    {
        let limit = directory.codeLimit
        _ = try image.check(0, limit, "the code the CodeDirectory covers (codeLimit)")
        let pageSize = directory.pageSizeLog2 == 0 ? max(limit, 1) : 1 << directory.pageSizeLog2
        let pages = limit == 0 ? 0 : (limit - 1) / pageSize + 1
        guard pages == directory.codeSlotCount else {
            throw SWCredError(
                .malformedArtifact,
                "\(blob.name): \(directory.codeSlotCount) code slots for \(limit) bytes in \(pageSize)-byte pages")
        }
        guard directory.hashType.digestSize != nil else { return false }
        for page in 0..<pages {
            let start = page * pageSize
            let end = min(start + pageSize, limit)
            let sealed = try blob.slice(
                at: directory.hashOffset + page * directory.hashSize, length: directory.hashSize, "code slot \(page)")
            let bytes = image.bytes[(image.start + start)..<(image.start + end)]
            guard digest(bytes, type: directory.hashType) == sealed else { return false }
        }
        return true
    }
}
