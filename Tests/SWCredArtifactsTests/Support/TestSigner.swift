import Crypto
import SwiftASN1

/// A test-only signer: replaces a linked thin Mach-O's code signature with a SuperBlob holding a
/// CodeDirectory (version 0x20400, SHA-256, a team ID), the XML and DER entitlements blobs and
/// an empty CMS wrapper, as `codesign` lays them out, and grows `__LINKEDIT` to match.
///
/// It has its own small Mach-O walker, independent of the reader under test.
enum TestSigner {
    indirect enum Value: Sendable {
        case string(String)
        case bool(Bool)
        case integer(Int)
        case array([Value])
        case dictionary([(String, Value)])
    }

    struct Unsupported: Error {}

    static func sign(
        _ image: [UInt8], identifier: String, team: String?, entitlements: [(String, Value)],
        xml: Bool = true, der: Bool = true, xmlEntitlements: [(String, Value)]? = nil
    ) throws -> [UInt8] {
        var bytes = image
        // The load commands: LC_SEGMENT_64 __LINKEDIT and LC_CODE_SIGNATURE.
        let count = Int(le32(bytes, 16))
        var offset = 32
        var linkedit: Int?
        var signatureCommand: Int?
        for _ in 0..<count {
            let command = le32(bytes, offset)
            let size = Int(le32(bytes, offset + 4))
            if command == 0x19, bytes[(offset + 8)..<(offset + 18)].elementsEqual(Array("__LINKEDIT".utf8)) {
                linkedit = offset
            }
            if command == 0x1d { signatureCommand = offset }
            offset += size
        }
        guard let linkedit, let signatureCommand else { throw Unsupported() }
        let codeLimit = Int(le32(bytes, signatureCommand + 8))
        bytes.removeSubrange(codeLimit...)

        // The blobs the CodeDirectory seals in its special slots.
        var blobs: [(UInt32, [UInt8])] = []
        let xmlBlob = blob(0xfade_7171, Array(xmlPlist(xmlEntitlements ?? entitlements).utf8))
        let derBlob = blob(0xfade_7172, try derPlist(entitlements))
        if xml { blobs.append((5, xmlBlob)) }
        if der { blobs.append((7, derBlob)) }
        blobs.append((0x10000, blob(0xfade_0b01, [])))

        // The CodeDirectory's size is known before the pages are hashed, so the load commands
        // can be updated first: the header page is hashed as it will be.
        let pages = (codeLimit + 4095) / 4096
        let identifierBytes = Array(identifier.utf8) + [0]
        let teamBytes: [UInt8] = team.map { Array($0.utf8) + [0] } ?? []
        let hashOffset = 88 + identifierBytes.count + teamBytes.count + 7 * 32
        let directoryLength = hashOffset + pages * 32
        let superBlobLength = 12 + 8 * (blobs.count + 1) + directoryLength + blobs.reduce(0) { $0 + $1.1.count }
        putLE32(&bytes, signatureCommand + 12, UInt32(superBlobLength))
        let linkeditFileOffset = Int(le64(bytes, linkedit + 40))
        let linkeditSize = codeLimit + superBlobLength - linkeditFileOffset
        putLE64(&bytes, linkedit + 48, UInt64(linkeditSize))
        putLE64(&bytes, linkedit + 32, UInt64((linkeditSize + 0x3fff) & ~0x3fff))

        var directory: [UInt8] = []
        for value in [0xfade_0c02, UInt32(directoryLength), 0x20400, 0, UInt32(hashOffset)] as [UInt32] {
            directory += be32(value)
        }
        directory += be32(88)  // identOffset
        directory += be32(7) + be32(UInt32(pages)) + be32(UInt32(codeLimit))
        directory += [32, 2, 0, 12] + be32(0) + be32(0)  // hashSize, hashType, platform, pageSize; spare2, scatter
        directory += be32(team == nil ? 0 : UInt32(88 + identifierBytes.count)) + be32(0)  // teamOffset, spare3
        directory += [UInt8](repeating: 0, count: 8 * 4)  // codeLimit64, execSeg base / limit / flags
        directory += identifierBytes + teamBytes
        for slot in (1...7).reversed() {
            let sealed = blobs.first { $0.0 == UInt32(slot) }
            directory += sealed.map { Array(SHA256.hash(data: $0.1)) } ?? [UInt8](repeating: 0, count: 32)
        }
        for page in 0..<pages {
            directory += Array(SHA256.hash(data: bytes[(page * 4096)..<min((page + 1) * 4096, codeLimit)]))
        }
        precondition(directory.count == directoryLength)

        var index: [UInt8] = []
        var contents: [UInt8] = directory
        var next = 12 + 8 * (blobs.count + 1)
        index += be32(0) + be32(UInt32(next))
        next += directory.count
        for (slot, blob) in blobs {
            index += be32(slot) + be32(UInt32(next))
            contents += blob
            next += blob.count
        }
        let superBlob =
            be32(0xfade_0cc0) + be32(UInt32(superBlobLength)) + be32(UInt32(blobs.count + 1)) + index
            + contents
        precondition(superBlob.count == superBlobLength)
        return bytes + superBlob
    }

    static func blob(_ magic: UInt32, _ payload: [UInt8]) -> [UInt8] {
        be32(magic) + be32(UInt32(payload.count + 8)) + payload
    }

    static func xmlPlist(_ entitlements: [(String, Value)]) -> String {
        func write(_ value: Value, _ indent: String) -> String {
            switch value {
            case .string(let text): return "\(indent)<string>\(text)</string>\n"
            case .bool(let flag): return "\(indent)<\(flag)/>\n"
            case .integer(let number): return "\(indent)<integer>\(number)</integer>\n"
            case .array(let elements):
                return "\(indent)<array>\n" + elements.map { write($0, indent + "\t") }.joined() + "\(indent)</array>\n"
            case .dictionary(let entries):
                return "\(indent)<dict>\n"
                    + entries.map { "\(indent)\t<key>\($0.0)</key>\n" + write($0.1, indent + "\t") }.joined()
                    + "\(indent)</dict>\n"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """ + write(.dictionary(entitlements), "") + "</plist>\n"
    }

    /// Apple's DER property list: `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] { SEQUENCE { key, value } … } }`,
    /// keys sorted as the encoder sorts them.
    static func derPlist(_ entitlements: [(String, Value)]) throws -> [UInt8] {
        func write(_ value: Value, _ coder: inout DER.Serializer) throws {
            switch value {
            case .string(let text): try coder.serialize(ASN1UTF8String(text))
            case .bool(let flag): try coder.serialize(flag)
            case .integer(let number): try coder.serialize(number)
            case .array(let elements):
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    for element in elements { try write(element, &coder) }
                }
            case .dictionary(let entries):
                try coder.appendConstructedNode(
                    identifier: ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)
                ) {
                    coder in
                    for (key, element) in entries.sorted(by: { $0.0 < $1.0 }) {
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            try coder.serialize(ASN1UTF8String(key))
                            try write(element, &coder)
                        }
                    }
                }
            }
        }
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 16, tagClass: .application)) {
            coder in
            try coder.serialize(1)
            try write(.dictionary(entitlements), &coder)
        }
        return serializer.serializedBytes
    }

    static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }
    static func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func putLE32(_ bytes: inout [UInt8], _ at: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
    static func putLE64(_ bytes: inout [UInt8], _ at: Int, _ value: UInt64) {
        for index in 0..<8 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
