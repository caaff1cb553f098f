public import Foundation
public import SWCredCore

/// Apple's `password-rules.json` quirks (PW-7.1, PW-7.2): per-domain Password Rules for sites that
/// declare none or declare them badly.
///
/// Loaded only from a path the user gives; never downloaded. A domain's rule covers the domain and
/// its subdomains on label boundaries, unless `exact-domain-match-only` is true.
///
/// ```swift
/// let quirks = try PasswordRulesQuirks(contentsOfFile: "password-rules.json")
/// if let match = quirks.match(host: "login.example.com") { print(match.domain, match.rules) }
/// ```
public struct PasswordRulesQuirks: Sendable {
    /// One entry of the file.
    public struct Entry: Sendable, Hashable {
        /// The key: a domain, lower-cased, without a trailing dot.
        public let domain: String
        /// The `password-rules` string, unparsed.
        public let rules: String
        /// `exact-domain-match-only` (default `false`).
        public let exactDomainMatchOnly: Bool
    }

    /// The entries by normalised domain.
    public let entries: [String: Entry]
    /// Non-fatal findings while loading (unknown keys inside an entry).
    public let warnings: [String]

    /// The default size limit for a quirks file (Apple's file is about 40 KB).
    public static let defaultMaximumSize = 4 * 1024 * 1024

    /// Loads a quirks file.
    /// - Parameters:
    ///   - path: the file.
    ///   - maximumSize: read at most this many bytes; a larger file is refused before it is buffered.
    /// - Throws: `fileNotFound` (66) when the file cannot be opened, `limitExceeded` when it is too
    ///   large, `malformedQuirks` (65) naming the file and the offending key.
    public init(contentsOfFile path: String, maximumSize: Int = defaultMaximumSize) throws(SWCredError) {
        let data = try QuirksFile.read(path, maximumSize: maximumSize)
        try self.init(data: data, name: path)
    }

    /// Decodes a quirks document.
    /// - Parameters:
    ///   - data: the JSON document.
    ///   - name: the file name used in error messages.
    /// - Throws: `malformedQuirks` naming `name` and the offending key.
    public init(data: Data, name: String) throws(SWCredError) {
        let document: [String: RawEntry]
        do {
            document = try JSONDecoder().decode([String: RawEntry].self, from: data)
        } catch {
            throw QuirksFile.malformed(name, error, expected: "an object mapping domains to {\"password-rules\": …}")
        }
        var entries: [String: Entry] = [:]
        var warnings: [String] = []
        for key in document.keys.sorted() {
            guard let raw = document[key] else { continue }
            let domain = HostName.lookupKey(key)
            for unknown in raw.unknownKeys.sorted() {
                warnings.append("\(name): \"\(key)\": unknown key \"\(unknown)\" ignored")
            }
            entries[domain] = Entry(domain: domain, rules: raw.rules, exactDomainMatchOnly: raw.exactDomainMatchOnly)
        }
        self.entries = entries
        self.warnings = warnings
    }

    /// The entry that applies to `host`, if any (PW-7.2).
    ///
    /// The host is lower-cased and one trailing dot removed; a key covers the host when they are
    /// equal or, unless the entry is exact-match-only, when the host ends with `.` + key.
    /// **Decision:** when several keys cover the host, the longest (most specific) wins.
    public func match(host: String) -> Entry? {
        let normalized = HostName.lookupKey(host)
        guard !normalized.isEmpty else { return nil }
        // Walk from the full host up through its parent domains: the first hit is the longest key.
        var candidate = Substring(normalized)
        while true {
            if let entry = entries[String(candidate)],
                !entry.exactDomainMatchOnly || candidate.count == normalized.count
            {
                return entry
            }
            guard let dot = candidate.firstIndex(of: ".") else { return nil }
            candidate = candidate[candidate.index(after: dot)...]
        }
    }

    /// The parsed rules for `host` (lenient, as Apple parses them; diagnostics become warnings).
    /// - Throws: `limitExceeded` for an oversized rules string.
    public func rules(forHost host: String) throws(SWCredError) -> (entry: Entry, rules: PasswordRules)? {
        guard let entry = match(host: host) else { return nil }
        return (entry, try PasswordRules.parse(entry.rules))
    }

    /// One decoded entry; unknown keys are kept to be reported.
    struct RawEntry: Decodable {
        let rules: String
        let exactDomainMatchOnly: Bool
        let unknownKeys: [String]

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            rules = try container.decode(String.self, forKey: Key(stringValue: "password-rules"))
            exactDomainMatchOnly =
                try container.decodeIfPresent(Bool.self, forKey: Key(stringValue: "exact-domain-match-only")) ?? false
            unknownKeys = container.allKeys.map(\.stringValue).filter {
                $0 != "password-rules" && $0 != "exact-domain-match-only"
            }
        }
    }
}

/// File reading and error shaping shared by the quirks loaders.
enum QuirksFile {
    /// Reads at most `maximumSize` bytes, refusing a larger file before buffering it.
    static func read(_ path: String, maximumSize: Int) throws(SWCredError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SWCredError(.fileNotFound, "cannot open the quirks file \(path)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw SWCredError(.ioFailure, "reading the quirks file \(path) failed: \(error.localizedDescription)")
        }
        guard data.count <= maximumSize else {
            throw SWCredError(.limitExceeded, "the quirks file \(path) is larger than \(maximumSize) bytes")
        }
        return data
    }

    /// A `malformedQuirks` error naming the file and the key path of a decoding error.
    static func malformed(_ name: String, _ error: any Error, expected: String) -> SWCredError {
        var path = ""
        var detail = "it is not valid JSON"
        if let decoding = error as? DecodingError {
            switch decoding {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "\"\($0.stringValue)\"" }.joined(
                    separator: ".")
                detail = context.debugDescription
            case .keyNotFound(let key, let context):
                let parent = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "\"\($0.stringValue)\"" }
                path = (parent + ["\"\(key.stringValue)\""]).joined(separator: ".")
                detail = "the key is missing"
            @unknown default:
                break
            }
        }
        let location = path.isEmpty ? "" : " at \(path)"
        return SWCredError(
            .malformedQuirks, "the quirks file \(name) is malformed\(location): \(detail) (expected \(expected))")
    }
}
