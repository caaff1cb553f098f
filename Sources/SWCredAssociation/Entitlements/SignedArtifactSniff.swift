import SWCredCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a path names a signed artifact rather than a source `.entitlements` file, from its
/// name, whether it is a folder, and its first bytes only (issue 31).
///
/// Light on purpose: the `swcred` executable, which does not link the artifact readers, decides
/// with it whether `swcred entitlements PATH` needs `swcred-fetch`, and `SignedArtifact.load`
/// decides with the same function which reader to use, so the two cannot disagree.
package enum SignedArtifactSniff {
    /// The kind of artifact a path names.
    package enum Kind: String, Sendable, Hashable {
        /// A Mach-O file, thin or universal.
        case machO
        /// An `.app` folder.
        case app
        /// An `.ipa` (zip) archive.
        case ipa
        /// A provisioning profile (CMS).
        case profile
    }

    /// The kind of artifact at `path`, or nil for anything else (an entitlements file, a file
    /// that does not exist or cannot be read: the entitlements reader reports those).
    ///
    /// By name first (`.app`, `.ipa`, `.mobileprovision`, `.provisionprofile`); then a folder is
    /// an app; then the first four bytes: a Mach-O or universal magic, a zip header (`PK\3\4`,
    /// or `PK\5\6` for an empty archive), or a DER/BER `SEQUENCE` with a long or indefinite length
    /// (`30 80`…`30 84`: a CMS profile; no entitlements file starts with `0`).
    package static func kind(path: String) -> Kind? {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        let lowercased = name.lowercased()
        if lowercased.hasSuffix(".app") { return .app }
        if lowercased.hasSuffix(".ipa") { return .ipa }
        if lowercased.hasSuffix(".mobileprovision") || lowercased.hasSuffix(".provisionprofile") { return .profile }
        if isDirectory(path) { return .app }
        guard let prefix = try? FileBytes.read(path: path, upTo: 4) else { return nil }
        return kind(prefix: prefix)
    }

    /// The kind the first bytes of a file say, or nil.
    package static func kind(prefix bytes: [UInt8]) -> Kind? {
        guard bytes.count >= 4 else { return nil }
        let big = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let little = big.byteSwapped
        // MH_MAGIC_64, MH_MAGIC (little-endian images), FAT_MAGIC, FAT_MAGIC_64 (big-endian headers).
        if little == 0xfeed_facf || little == 0xfeed_face || big == 0xcafe_babe || big == 0xcafe_babf {
            return .machO
        }
        if bytes[0] == 0x50, bytes[1] == 0x4b, (bytes[2], bytes[3]) == (3, 4) || (bytes[2], bytes[3]) == (5, 6) {
            return .ipa
        }
        if bytes[0] == 0x30, (0x80...0x84).contains(bytes[1]) { return .profile }
        return nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFDIR
    }
}
