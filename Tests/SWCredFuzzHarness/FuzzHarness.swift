import Foundation
import SWCredAssociation
import SWCredCore
import SWCredPasskeys
import SWCredPasswords
import SWCredStore

/// What each fuzz target does with one input, shared by the libFuzzer executables in
/// `FuzzTesting/` and by the regression tests that replay every input in
/// `FuzzTesting/FailCases/` (so a crash found once stays fixed).
///
/// A function returns the broken promises it saw (empty when the input was handled well); a
/// crash or a hang is a finding by itself. Errors thrown by the parsers are the expected answer
/// to bad input, not findings.
public enum FuzzHarness {
    /// The targets, by the names `Tools/fuzz` and the `FailCases/` folders use.
    public static let targets: [String: @Sendable ([UInt8]) -> [String]] = [
        "aasa": aasa,
        "matcher": matcher,
        "entitlements": entitlements,
        "password-rules": passwordRules,
        "store-reader": storeReader,
        "passkey-options": passkeyOptions,
        "credential-import": credentialImport,
        "json": json,
        "plist": plist,
        "macho": machO,
        "webauthn": webauthn,
        "public-suffix-list": publicSuffixList,
        "assetlinks": assetLinks,
        "android-manifest": androidManifest,
        "ipa": ipa,
        "profile": profile,
    ]

    /// AASA bytes: parse, lint, compile the applinks rules and match a few URLs.
    public static func aasa(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let findings = AssociationLinter().lint(bytes)
        guard let file = try? AssociationFile.parse(bytes) else {
            if !findings.contains(where: { $0.severity == .error }) {
                problems.append("the file does not parse, yet lint reports no error")
            }
            return problems
        }
        let matcher = ReferenceApplinksMatcher(file: file)
        for text in ["https://example.com/", "https://example.com/a/b?x=1&y=2#f", "https://example.com/%E2%82%AC/Ünï?q=%zz"] {
            guard let url = try? LinkURL(text) else { continue }
            _ = matcher.match(url, appID: nil)
        }
        for service in ["applinks", "webcredentials", "appclips", "activitycontinuation"] {
            _ = file.apps(for: AssociationService(rawValue: service))
        }
        return problems
    }

    /// A generated AASA and a generated URL from one input, so that the matcher (not the JSON
    /// reader) gets the fuzzer's attention. Layout: segments split at 0xFF — URL path/query/
    /// fragment, then `/`, `?` and `#` patterns; the first byte's bits choose `exclude`,
    /// `caseSensitive`, `percentEncoded`, a query dictionary and `defaults`.
    public static func matcher(_ bytes: [UInt8]) -> [String] {
        guard let flags = bytes.first else { return [] }
        let segments = bytes.dropFirst().split(separator: 0xFF, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        func segment(_ index: Int) -> String { index < segments.count ? segments[index] : "" }

        var component: [String: Any] = ["/": segment(1)]
        if flags & 0x08 != 0 {
            component["?"] = ["k": segment(2), "z": segment(3)]
        } else {
            component["?"] = segment(2)
        }
        component["#"] = segment(3)
        if flags & 0x01 != 0 { component["exclude"] = true }
        if flags & 0x02 != 0 { component["caseSensitive"] = false }
        if flags & 0x04 != 0 { component["percentEncoded"] = false }
        var detail: [String: Any] = ["appIDs": ["ABCDE12345.com.example.app"], "components": [component]]
        if flags & 0x10 != 0 { detail["defaults"] = ["caseSensitive": false, "percentEncoded": flags & 0x20 != 0] }
        if flags & 0x40 != 0 { detail["substitutionVariables"] = ["v": [segment(4), segment(1)]] }
        let document: [String: Any] = ["applinks": ["details": [detail]]]
        guard let json = try? JSONSerialization.data(withJSONObject: document) else { return [] }
        guard let file = try? AssociationFile.parse([UInt8](json)) else {
            return ["a generated, well-formed AASA did not parse"]
        }
        let matcher = ReferenceApplinksMatcher(file: file)
        guard let url = try? LinkURL("https://example.com" + (segment(0).hasPrefix("/") ? "" : "/") + segment(0)) else {
            return []
        }
        let result = matcher.match(url, appID: "ABCDE12345.com.example.app")
        if result.outcome != .noMatch && result.rule == nil {
            return ["outcome \(result.outcome) without the deciding rule"]
        }
        return []
    }

    /// Entitlement file bytes (XML plist, binary plist, JSON), and the same bytes as one entry.
    public static func entitlements(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        if let entitlements = try? Entitlements.parse(bytes) {
            for entry in entitlements.entries where EntitlementEntry.parse(entry.raw) != entry {
                problems.append("entry \(entry.raw.debugDescription) parses differently on its own")
            }
        }
        let entry = EntitlementEntry.parse(String(decoding: bytes.prefix(4096), as: UTF8.self))
        if entry.valid, entry.domain == nil { problems.append("a valid entry without a domain: \(entry.raw.debugDescription)") }
        return problems
    }

    /// A Password Rules string: parse, then generate from what was parsed with a seeded source.
    /// The generator must give a password that satisfies the parsed rules, or say `infeasible`.
    public static func passwordRules(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let rules = try? PasswordRules.parse(text) else { return [] }
        var source = SeededRandomSource(seed: UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        do {
            let generated = try PasswordGenerator.generate(style: .strong, rules: rules, using: &source)
            if !(generated.enforcedRules ?? rules).isSatisfied(by: generated.password) {
                return ["generated \(generated.password.debugDescription) violates \(rules): \(rules.violations(of: generated.password))"]
            }
            if !(generated.entropyBits >= 0) { return ["entropy \(generated.entropyBits) for \(rules)"] }
        } catch {
            if error.code != .infeasible && error.code != .limitExceeded && error.code != .invalidParameter {
                return ["unexpected error \(error.code.name) for \(rules): \(error.message)"]
            }
        }
        return []
    }

    /// A scratch folder with a fixed key file, made once per process.
    private static let storeScratch: (directory: String, keyFile: String)? = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swcred-fuzz-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let keyFile = directory + "/fixed.key"
        if !FileManager.default.fileExists(atPath: keyFile) {
            do { try KeyFile.create(at: keyFile) } catch { return nil }
        }
        return (directory, keyFile)
    }()

    /// Arbitrary bytes as a keychain file opened with a fixed key (first byte even), or as a
    /// decrypted payload (first byte odd: the payload decoder that the AEAD normally shields).
    /// A payload that decodes must re-encode to exactly the same bytes (the encoding is canonical).
    public static func storeReader(_ bytes: [UInt8]) -> [String] {
        guard let selector = bytes.first else { return [] }
        let body = Array(bytes.dropFirst())
        if selector & 1 == 1 {
            guard let contents = try? StoreContents(payload: body) else { return [] }
            return contents.encodedPayload() == body ? [] : ["a decoded payload re-encodes differently"]
        }
        guard let scratch = storeScratch else { return ["could not make the scratch key file"] }
        let path = scratch.directory + "/keychain.swcred"
        guard FileManager.default.createFile(atPath: path, contents: Data(body), attributes: [.posixPermissions: 0o600]) else {
            return []
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try? StoreHeaderInfo(parsing: body)
        let options = StoreOptions(stateDirectory: scratch.directory + "/state", warningHandler: { _ in })
        do {
            _ = try KeychainStore.open(at: path, keySource: .keyFile(path: scratch.keyFile), options: options)
            return ["random bytes opened as a store under a key that never wrote it"]
        } catch {
            let expected: Set<String> = ["notAStore", "unsupportedFormat", "corruptHeader", "parametersOutOfBounds",
                                         "wrongKey", "corruptPayload", "limitExceeded", "rollbackDetected"]
            return expected.contains(error.code.name) ? [] : ["unexpected \(error.code.name): \(error.message)"]
        }
    }

    /// A password export (any format, detected), then every promise of the importer: a parsed file
    /// counts each row once, its sites are canonical hosts, its passwords are within the store's
    /// limits, it applies to empty contents, and its JSON lines export reads back to the same items.
    /// Parse errors must be `malformedInput` or `limitExceeded` and must not quote a password.
    public static func credentialImport(_ bytes: [UInt8]) -> [String] {
        let file: CredentialFile
        do {
            file = try CredentialFile.parse(copying: bytes)
        } catch {
            guard error.code == .malformedInput || error.code == .limitExceeded else {
                return ["unexpected \(error.code.name): \(error.message)"]
            }
            return []
        }
        var problems: [String] = []
        if file.rows != file.credentials.count + file.skipped.count {
            problems.append("rows \(file.rows) != credentials + skipped")
        }
        for credential in file.credentials {
            let host = credential.site.host
            if host.isEmpty || host.utf8.count > 253 || host != host.lowercased() || host.hasSuffix(".") {
                problems.append("a non-canonical host")
            }
            let count = file.withPassword(of: credential) { $0.count }
            if count == 0 || count > 4096 { problems.append("a password of \(count) bytes") }
        }
        let date = Date(timeIntervalSince1970: 0)
        var contents = StoreContents(creationDate: date)
        var large = StoreLimits()
        large.maxItems = 1_000_000
        contents.limits = large
        do {
            let summary = try file.apply(to: &contents, onConflict: .update, at: date)
            if summary.added + summary.updated + summary.skipped + summary.unchanged != summary.rows {
                problems.append("the summary does not add up to the rows")
            }
            let exported = try CredentialExport.encode(contents.items, as: .jsonl)
            // The export is JSON lines, so read it as such: an empty one (no passwords) has no
            // line to detect the format by (FailCases/credential-import/crash-e4602550…).
            let again = try CredentialFile.parse(copying: exported, format: .jsonl)
            var copy = StoreContents(creationDate: date)
            copy.limits = large
            _ = try again.apply(to: &copy, onConflict: .fail, at: date)
            if copy.items != contents.items { problems.append("the JSON lines export reads back differently") }
        } catch {
            problems.append("a parsed file failed later: \(error.code.name): \(error.message)")
        }
        return problems
    }
}
