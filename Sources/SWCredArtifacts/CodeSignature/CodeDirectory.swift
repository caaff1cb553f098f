import SWCredCore

/// A CodeDirectory (`CSMAGIC_CODEDIRECTORY`, 0xfade0c02): what a code signature seals, big-endian.
///
/// Fields read: the signing identifier, the team identifier (version 0x20200 and later), the
/// hash type, the special-slot hashes (slot −1 Info.plist … −5 entitlements … −7 DER
/// entitlements) and the code-page hashes' layout.
public struct CodeDirectory: Sendable, Hashable {
    /// The digest a CodeDirectory uses (`CS_HASHTYPE_…`).
    public enum HashType: Sendable, Hashable, CustomStringConvertible {
        /// `CS_HASHTYPE_SHA1` (1), 20 bytes.
        case sha1
        /// `CS_HASHTYPE_SHA256` (2), 32 bytes.
        case sha256
        /// `CS_HASHTYPE_SHA256_TRUNCATED` (3), the first 20 bytes of SHA-256.
        case sha256Truncated
        /// `CS_HASHTYPE_SHA384` (4), 48 bytes.
        case sha384
        /// Another value: its hashes are read but cannot be checked.
        case unknown(UInt8)

        init(rawValue: UInt8) {
            switch rawValue {
            case 1: self = .sha1
            case 2: self = .sha256
            case 3: self = .sha256Truncated
            case 4: self = .sha384
            default: self = .unknown(rawValue)
            }
        }

        /// The digest's size in bytes, when the type is known.
        var digestSize: Int? {
            switch self {
            case .sha1, .sha256Truncated: 20
            case .sha256: 32
            case .sha384: 48
            case .unknown: nil
            }
        }

        public var description: String {
            switch self {
            case .sha1: "sha1"
            case .sha256: "sha256"
            case .sha256Truncated: "sha256-truncated"
            case .sha384: "sha384"
            case .unknown(let value): "unknown-\(value)"
            }
        }
    }

    /// The special slots swcred reads (`cdInfoSlot` … `cdEntitlementDERSlot`).
    public enum SpecialSlot {
        /// −1: `Info.plist`.
        public static let infoPlist = 1
        /// −5: the XML entitlements blob.
        public static let entitlements = 5
        /// −7: the DER entitlements blob.
        public static let derEntitlements = 7
    }

    /// `version`, for example 0x20400.
    public var version: UInt32
    /// `flags` (`CS_ADHOC` is 0x2).
    public var flags: UInt32
    /// The signing identifier, normally the bundle identifier.
    public var identifier: String
    /// The team identifier, when the version has one and it is set (nil for ad-hoc signatures).
    public var teamIdentifier: String?
    /// The digest used for every hash of this CodeDirectory.
    public var hashType: HashType
    /// The special-slot hashes: index 1 is slot −1 (`Info.plist`), 5 is −5 (entitlements), 7 is −7 (DER).
    public var specialSlotHashes: [Int: [UInt8]]
    /// The number of code-page hashes.
    public var codeSlotCount: Int
    /// How many bytes of the image the code-page hashes cover.
    public var codeLimit: Int
    /// The code page size as a power of two (12 for 4 KiB); 0 means one page.
    public var pageSizeLog2: Int
    /// Which slot of the SuperBlob held it: 0 for the primary, 0x1000 and up for alternates.
    public var slot: UInt32

    /// Whether `CS_ADHOC` is set: an ad-hoc signature, with no certificate and no team.
    public var isAdHoc: Bool { flags & 0x2 != 0 }

    /// Where the code-page hashes start in the blob (`hashOffset`), for ``CodeSignature`` checks.
    let hashOffset: Int
    /// The hash size the CodeDirectory declares.
    let hashSize: Int

    /// Reads a CodeDirectory blob (its header included): each field's offset as in `<Kernel/kern/cs_blobs.h>`.
    static func read(_ blob: ByteWindow, slot: UInt32, limits: ArtifactLimits) throws(SWCredError) -> CodeDirectory {
        // Step 1: the fixed header up to `spare2` (44 bytes), present in every version.
        let version = try blob.uint32(at: 8, bigEndian: true, "the CodeDirectory's version")
        guard version >= 0x20001 else {
            throw SWCredError(.malformedArtifact, "\(blob.name): CodeDirectory version 0x\(hex(version)) is too old")
        }
        let flags = try blob.uint32(at: 12, bigEndian: true, "the CodeDirectory's flags")
        let hashOffset = Int(try blob.uint32(at: 16, bigEndian: true, "the CodeDirectory's hashOffset"))
        let identOffset = Int(try blob.uint32(at: 20, bigEndian: true, "the CodeDirectory's identOffset"))
        let specialCount = Int(try blob.uint32(at: 24, bigEndian: true, "the CodeDirectory's nSpecialSlots"))
        let codeCount = Int(try blob.uint32(at: 28, bigEndian: true, "the CodeDirectory's nCodeSlots"))
        var codeLimit = Int(try blob.uint32(at: 32, bigEndian: true, "the CodeDirectory's codeLimit"))
        let hashSize = Int(try blob.uint8(at: 36, "the CodeDirectory's hashSize"))
        let hashType = HashType(rawValue: try blob.uint8(at: 37, "the CodeDirectory's hashType"))
        let pageSizeLog2 = Int(try blob.uint8(at: 39, "the CodeDirectory's pageSize"))
        _ = try blob.check(0, 44, "the CodeDirectory's header")

        // Step 2: the version-dependent fields: teamOffset (0x20200), codeLimit64 (0x20300).
        var teamIdentifier: String?
        if version >= 0x20200 {
            let teamOffset = Int(try blob.uint32(at: 48, bigEndian: true, "the CodeDirectory's teamOffset"))
            if teamOffset != 0 {
                teamIdentifier = try blob.cString(at: teamOffset, limit: 256, "the team identifier")
            }
        }
        if version >= 0x20300 {
            let codeLimit64 = try blob.uint64(at: 56, bigEndian: true, "the CodeDirectory's codeLimit64")
            if codeLimit64 != 0 {
                guard let wide = Int(exactly: codeLimit64) else {
                    throw SWCredError(.malformedArtifact, "\(blob.name): codeLimit64 is out of range")
                }
                codeLimit = wide
            }
        }
        let identifier = try blob.cString(at: identOffset, limit: 1_024, "the signing identifier")

        // Step 3: the hashes. Special slot n sits n × hashSize before hashOffset; code slots after it.
        if let expected = hashType.digestSize, expected != hashSize {
            throw SWCredError(
                .malformedArtifact, "\(blob.name): hash type \(hashType) with \(hashSize)-byte hashes")
        }
        guard hashSize > 0, hashSize <= 64 else {
            throw SWCredError(.malformedArtifact, "\(blob.name): a hash size of \(hashSize) bytes")
        }
        guard specialCount <= limits.maximumSpecialSlots else {
            throw SWCredError(
                .malformedArtifact,
                "\(blob.name): \(specialCount) special slots (at most \(limits.maximumSpecialSlots) accepted)")
        }
        let (specialBytes, overflow1) = specialCount.multipliedReportingOverflow(by: hashSize)
        let (codeBytes, overflow2) = codeCount.multipliedReportingOverflow(by: hashSize)
        guard !overflow1, !overflow2, hashOffset >= specialBytes else {
            throw SWCredError(.malformedArtifact, "\(blob.name): the special slots start before the CodeDirectory")
        }
        _ = try blob.check(hashOffset - specialBytes, specialBytes, "the special-slot hashes")
        _ = try blob.check(hashOffset, codeBytes, "the code-slot hashes")
        var special: [Int: [UInt8]] = [:]
        if specialCount > 0 {
            for index in 1...specialCount {
                special[index] = try blob.slice(
                    at: hashOffset - index * hashSize, length: hashSize, "special slot -\(index)")
            }
        }
        guard pageSizeLog2 == 0 || (9...24).contains(pageSizeLog2) else {
            throw SWCredError(.malformedArtifact, "\(blob.name): a page size of 2^\(pageSizeLog2) bytes")
        }
        return CodeDirectory(
            version: version, flags: flags, identifier: identifier, teamIdentifier: teamIdentifier,
            hashType: hashType, specialSlotHashes: special, codeSlotCount: codeCount, codeLimit: codeLimit,
            pageSizeLog2: pageSizeLog2, slot: slot, hashOffset: hashOffset, hashSize: hashSize)
    }
}
