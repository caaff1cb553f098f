public import SWCredAssociation
import SWCredCore

/// An embedded code signature (`CSMAGIC_EMBEDDED_SIGNATURE`, 0xfade0cc0): a SuperBlob indexing
/// the CodeDirectories, the entitlements blobs and the CMS signature, all big-endian.
///
/// The signature's CMS blob (slot 0x10000) is not read: swcred does not check who signed, only
/// what was sealed. ``entitlementsSealed`` says whether the entitlements blobs are the ones the
/// CodeDirectories hashed, and ``codeSealed`` whether the image's pages are.
public struct CodeSignature: Sendable, Hashable {
    /// The primary CodeDirectory (slot 0).
    public var codeDirectory: CodeDirectory
    /// The alternate CodeDirectories (slots 0x1000 and up), such as a SHA-256 one beside a SHA-1 primary.
    public var alternateCodeDirectories: [CodeDirectory]
    /// The XML entitlements blob's payload (slot 5, magic 0xfade7171), without its 8-byte header.
    public var xmlEntitlements: [UInt8]?
    /// The DER entitlements blob's payload (slot 7, magic 0xfade7172), without its 8-byte header.
    public var derEntitlements: [UInt8]?
    /// The signed entitlements: from the DER blob when there is one (what iOS 15 and later
    /// enforce), else from the XML blob; nil when the signature carries neither.
    public var entitlements: Entitlements?
    /// Whether both blobs are present and hold different entitlements (nil unless both are present).
    public var blobsDisagree: Bool?
    /// Whether every entitlements blob present is hashed in special slots −5 / −7 of every
    /// CodeDirectory with a known hash type, and no slot hashes a blob that is absent.
    public var entitlementsSealed: Bool
    /// Why ``entitlementsSealed`` is false, one sentence per problem.
    public var sealProblems: [String]
    /// Whether the image's pages up to `codeLimit` match the primary CodeDirectory's code-slot
    /// hashes (false as well when the hash type is unknown).
    public var codeSealed: Bool
    /// Whether a CMS signature blob (slot 0x10000) is present and not empty. Not verified.
    public var hasCMSSignature: Bool
    /// The signed `com.apple.developer.team-identifier`, when it is a string.
    public var teamIdentifierEntitlement: String? = nil
    /// Signed values a signing tool should have expanded, as `key = value`: an unexpanded build
    /// setting (`$(…)`) in any string, or a `*` in `application-identifier` or the team identifier.
    public var unexpandedValues: [String] = []

    /// The `application-identifier` entitlement of the signed entitlements.
    public var applicationIdentifier: String? { entitlements?.applicationIdentifier }

    /// Magic numbers and slot types of `<Kernel/kern/cs_blobs.h>`.
    enum Constants {
        static let embeddedSignature: UInt32 = 0xfade_0cc0
        static let codeDirectory: UInt32 = 0xfade_0c02
        static let xmlEntitlements: UInt32 = 0xfade_7171
        static let derEntitlements: UInt32 = 0xfade_7172
        static let blobWrapper: UInt32 = 0xfade_0b01
        static let slotCodeDirectory: UInt32 = 0
        static let slotEntitlements: UInt32 = 5
        static let slotDEREntitlements: UInt32 = 7
        static let slotAlternateCodeDirectories: ClosedRange<UInt32> = 0x1000...0x1004
        static let slotSignature: UInt32 = 0x10000
    }

    /// Reads the SuperBlob in `window` (the bytes `LC_CODE_SIGNATURE` points to); `image` is the
    /// slice, for the code-page hashes.
    static func read(_ window: ByteWindow, image: ByteWindow, limits: ArtifactLimits) throws(SWCredError)
        -> CodeSignature
    {
        // Step 1: the SuperBlob header: magic, length (≤ the LC_CODE_SIGNATURE data), count.
        let magic = try window.uint32(at: 0, bigEndian: true, "the SuperBlob's magic")
        guard magic == Constants.embeddedSignature else {
            throw SWCredError(
                .malformedArtifact, "\(window.name): magic 0x\(hex(magic)), not an embedded signature (0xfade0cc0)")
        }
        let length = try window.uint32(at: 4, bigEndian: true, "the SuperBlob's length")
        let superBlob = try window.window(at: 0, length: length, name: window.name)
        let count = try superBlob.uint32(at: 8, bigEndian: true, "the SuperBlob's blob count")
        guard count <= limits.maximumBlobs else {
            throw SWCredError(
                .malformedArtifact, "\(window.name): \(count) blobs (at most \(limits.maximumBlobs) accepted)")
        }
        _ = try superBlob.check(12, Int(count) * 8, "the SuperBlob's index")

        // Step 2: each index entry (type, offset) names a blob (magic, length) inside the SuperBlob.
        var primary: CodeDirectory?
        var primaryBlob: ByteWindow?
        var alternates: [(CodeDirectory, ByteWindow)] = []
        var blobs: [UInt32: ByteWindow] = [:]
        var hasCMSSignature = false
        for index in 0..<Int(count) {
            let type = try superBlob.uint32(at: 12 + index * 8, bigEndian: true, "blob \(index)'s type")
            let offset = try superBlob.uint32(at: 16 + index * 8, bigEndian: true, "blob \(index)'s offset")
            let blobLength = try superBlob.uint32(at: Int(offset) + 4, bigEndian: true, "blob \(index)'s length")
            guard blobLength >= 8 else {
                throw SWCredError(.malformedArtifact, "\(window.name): blob \(index) has length \(blobLength)")
            }
            let blob = try superBlob.window(at: offset, length: blobLength, name: "\(window.name), slot 0x\(hex(type))")
            let blobMagic = try blob.uint32(at: 0, bigEndian: true, "the blob's magic")
            guard blobs.updateValue(blob, forKey: type) == nil else {
                throw SWCredError(.malformedArtifact, "\(window.name): two blobs for slot 0x\(hex(type))")
            }
            func expect(_ wanted: UInt32) throws(SWCredError) {
                guard blobMagic == wanted else {
                    throw SWCredError(
                        .malformedArtifact, "\(blob.name): magic 0x\(hex(blobMagic)), expected 0x\(hex(wanted))")
                }
            }
            switch type {
            case Constants.slotCodeDirectory:
                try expect(Constants.codeDirectory)
                primary = try CodeDirectory.read(blob, slot: type, limits: limits)
                primaryBlob = blob
            case Constants.slotAlternateCodeDirectories:
                try expect(Constants.codeDirectory)
                alternates.append((try CodeDirectory.read(blob, slot: type, limits: limits), blob))
            case Constants.slotEntitlements:
                try expect(Constants.xmlEntitlements)
            case Constants.slotDEREntitlements:
                try expect(Constants.derEntitlements)
            case Constants.slotSignature:
                try expect(Constants.blobWrapper)
                hasCMSSignature = blobLength > 8
            default:
                break
            }
        }
        guard let primary, let primaryBlob else {
            throw SWCredError(.malformedArtifact, "\(window.name): no CodeDirectory in slot 0")
        }

        // Step 3: the entitlements blobs' payloads, each through its own reader.
        var signature = CodeSignature(
            codeDirectory: primary, alternateCodeDirectories: alternates.map(\.0), xmlEntitlements: nil,
            derEntitlements: nil, entitlements: nil, blobsDisagree: nil, entitlementsSealed: true, sealProblems: [],
            codeSealed: false, hasCMSSignature: hasCMSSignature)
        var xmlDictionary: PropertyListDictionary?
        var derDictionary: PropertyListDictionary?
        if let blob = blobs[Constants.slotEntitlements] {
            let payload = try entitlementsPayload(blob, limits: limits)
            signature.xmlEntitlements = payload
            xmlDictionary = try SignedEntitlements.readXML(payload, limits: limits, name: blob.name)
        }
        if let blob = blobs[Constants.slotDEREntitlements] {
            let payload = try entitlementsPayload(blob, limits: limits)
            signature.derEntitlements = payload
            derDictionary = try SignedEntitlements.readDER(payload, limits: limits, name: blob.name)
        }
        if let chosen = derDictionary ?? xmlDictionary {
            signature.entitlements = Entitlements.from(propertyList: chosen)
            signature.teamIdentifierEntitlement = chosen["com.apple.developer.team-identifier"]?.stringValue
            signature.unexpandedValues = unexpanded(chosen)
        }
        if let xmlDictionary, let derDictionary {
            signature.blobsDisagree = !SignedEntitlements.same(xmlDictionary, derDictionary)
        }

        // Step 4: the seals: special slots −5 / −7 of every CodeDirectory, and the code pages.
        let directories = [(primary, primaryBlob)] + alternates
        signature.sealProblems = Sealing.entitlementProblems(
            directories: directories.map(\.0),
            xml: blobs[Constants.slotEntitlements]?.contents, der: blobs[Constants.slotDEREntitlements]?.contents)
        signature.entitlementsSealed = signature.sealProblems.isEmpty
        signature.codeSealed = try Sealing.codePagesMatch(primary, blob: primaryBlob, image: image)
        return signature
    }

    /// The top-level strings and string arrays of `dictionary` that hold `$(` or, for the
    /// identifiers, a `*`.
    static func unexpanded(_ dictionary: PropertyListDictionary) -> [String] {
        var found: [String] = []
        for entry in dictionary.entries {
            let strings: [String]
            if let text = entry.value.stringValue {
                strings = [text]
            } else {
                strings = entry.value.arrayValue?.compactMap(\.stringValue) ?? []
            }
            let identifier = ["application-identifier", "com.apple.developer.team-identifier"].contains(entry.key)
            for text in strings where text.contains("$(") || (identifier && text.contains("*")) {
                found.append("\(entry.key) = \(text)")
            }
        }
        return found
    }

    /// An entitlements blob's payload: its bytes after the 8-byte header, within the size limit.
    private static func entitlementsPayload(_ blob: ByteWindow, limits: ArtifactLimits) throws(SWCredError) -> [UInt8] {
        guard blob.count - 8 <= limits.maximumEntitlementsBytes else {
            throw SWCredError(
                .malformedArtifact,
                "\(blob.name): \(blob.count - 8) bytes of entitlements (at most \(limits.maximumEntitlementsBytes))")
        }
        return try blob.slice(at: 8, length: blob.count - 8, "the entitlements payload")
    }
}
