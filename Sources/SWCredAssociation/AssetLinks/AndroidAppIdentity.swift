package import SWCredCore

/// An Android app as Digital Asset Links names it: a package name and one or more SHA-256
/// signing-certificate fingerprints, any of which identifies it (asset-links.md §1.1; several
/// with key rotation or Play App Signing beside an upload key).
///
/// Fingerprints are kept as the device computes them: 32 upper-case hex octets joined by `:`
/// (95 characters). ``parse(_:)`` reads `PKG=FP[,FP…]` (`--android-app`) and also accepts the
/// lower-case, colon-less form `apksigner` prints, normalising it.
///
/// ```swift
/// let app = try AndroidAppIdentity.parse("com.example.app=14:6D:…:44:E5")
/// app.apkKeyHashOrigins  // ["android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU"]
/// ```
package struct AndroidAppIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The application id (`com.example.app`).
    package let packageName: String
    /// The SHA-256 fingerprints, upper-case colon hex, in the order given, without repeats.
    package let fingerprints: [String]

    /// At most this many fingerprints per app (16).
    package static let maximumFingerprints = 16
    /// The longest package name accepted (255 bytes, Android's file-name bound).
    package static let maximumPackageNameLength = 255

    /// Creates an identity from values already checked; `nil` when the package name or a
    /// fingerprint is not well-formed, or there is no fingerprint.
    package init?(packageName: String, fingerprints: [String]) {
        guard Self.isValidPackageName(packageName), !fingerprints.isEmpty,
            fingerprints.count <= Self.maximumFingerprints, fingerprints.allSatisfy(Self.isValidFingerprint)
        else { return nil }
        self.packageName = packageName
        var unique: [String] = []
        for fingerprint in fingerprints where !unique.contains(fingerprint) { unique.append(fingerprint) }
        self.fingerprints = unique
    }

    /// Parses `PKG=FP[,FP…]`.
    ///
    /// - Throws: `SWCredError.Code.invalidAndroidApp` naming what is wrong: no `=`, a package
    ///   name that is not Java package syntax, no fingerprint, a fingerprint that is not 32 hex
    ///   octets (a 20-octet SHA-1 fingerprint is named as such), too many fingerprints.
    package static func parse(_ text: String) throws(SWCredError) -> AndroidAppIdentity {
        guard text.utf8.count <= 4_096 else {
            throw SWCredError(.invalidAndroidApp, "the Android app is longer than 4096 bytes")
        }
        guard let equals = text.firstIndex(of: "=") else {
            throw SWCredError(
                .invalidAndroidApp, "the Android app '\(text)' is not PKG=FP[,FP…] (package name, '=', fingerprints)")
        }
        let packageName = String(text[..<equals])
        guard isValidPackageName(packageName) else {
            throw SWCredError(
                .invalidAndroidApp,
                "'\(packageName)' is not an Android package name (Java package syntax: com.example.app)")
        }
        let list = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
        guard list.count <= maximumFingerprints else {
            throw SWCredError(.invalidAndroidApp, "more than \(maximumFingerprints) fingerprints for \(packageName)")
        }
        var fingerprints: [String] = []
        for item in list {
            let written = String(item)
            guard let fingerprint = normalizedFingerprint(written) else {
                let octets = hexOctets(written)?.count
                let why =
                    written.isEmpty
                    ? "an empty fingerprint"
                    : octets == 20
                        ? "'\(written)' is a SHA-1 fingerprint; Digital Asset Links needs the SHA-256 one "
                            + "(keytool -list -v, or the Play Console's App signing page)"
                        : "'\(written)' is not a SHA-256 fingerprint (32 hex octets, AA:BB:…)"
                throw SWCredError(.invalidAndroidApp, "\(packageName): \(why)")
            }
            fingerprints.append(fingerprint)
        }
        guard let identity = AndroidAppIdentity(packageName: packageName, fingerprints: fingerprints) else {
            throw SWCredError(.invalidAndroidApp, "\(packageName): no fingerprint")
        }
        return identity
    }

    /// Whether `name` is Java package syntax: dot-separated identifiers, each a letter or `_`
    /// then letters, digits or `_`.
    package static func isValidPackageName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumPackageNameLength else { return false }
        return name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
            return part.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
        }
    }

    /// Whether `text` is exactly `^([0-9A-F]{2}:){31}[0-9A-F]{2}$` (DAL-S6).
    package static func isValidFingerprint(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 95 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index % 3 == 2 {
                guard byte == UInt8(ascii: ":") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) else { return false }
            }
        }
        return true
    }

    /// The octets of a hex fingerprint written with or without `:` separators, in either case;
    /// `nil` when it is not hex octets.
    package static func hexOctets(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        let digits: [UInt8]
        if bytes.contains(UInt8(ascii: ":")) {
            let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.allSatisfy({ $0.count == 2 }) else { return nil }
            digits = parts.flatMap { $0 }
        } else {
            guard bytes.count % 2 == 0 else { return nil }
            digits = bytes
        }
        guard !digits.isEmpty, digits.count <= 128 else { return nil }
        var octets: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            octets.append(high << 4 | low)
            index += 2
        }
        return octets
    }

    /// A 32-octet fingerprint in the device's form (upper-case colon hex), from any case, with or
    /// without colons; `nil` for anything else.
    package static func normalizedFingerprint(_ text: String) -> String? {
        guard let octets = hexOctets(text), octets.count == 32 else { return nil }
        return colonHex(octets)
    }

    /// `AA:BB:…`, upper case.
    package static func colonHex(_ octets: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for (index, octet) in octets.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ":")) }
            bytes.append(digits[Int(octet >> 4)])
            bytes.append(digits[Int(octet & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `android:apk-key-hash:<base64url, no padding, of the 32 fingerprint octets>`, the
    /// `clientDataJSON.origin` of a passkey ceremony run by an app signed with that key
    /// (asset-links.md §1.5, DAL-Q4); `nil` when `fingerprint` is not a SHA-256 fingerprint.
    package static func apkKeyHashOrigin(fingerprint: String) -> String? {
        guard let octets = hexOctets(fingerprint), octets.count == 32 else { return nil }
        return "android:apk-key-hash:" + base64URL(octets)
    }

    /// The origins an RP server must accept for this app, one per fingerprint (DAL-Q4).
    package var apkKeyHashOrigins: [String] { fingerprints.compactMap { Self.apkKeyHashOrigin(fingerprint: $0) } }

    /// `PKG=FP,FP`.
    package var description: String { "\(packageName)=\(fingerprints.joined(separator: ","))" }

    /// Base64url (RFC 4648 §5) without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var chunk = UInt32(bytes[index]) << 16
            if count > 1 { chunk |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { chunk |= UInt32(bytes[index + 2]) }
            for position in 0...count { out.append(alphabet[Int((chunk >> UInt32(18 - 6 * position)) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
