public import FoundationEssentials
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
        let object = try QuirksFile.document(data, name: name, expected: Self.expected).object(at: [])
        var entries: [String: Entry] = [:]
        var warnings: [String] = []
        for key in object.keys.sorted() {
            let entry = try QuirksFile.Value(object[key], name: name, expected: Self.expected).object(at: [.key(key)])
            let rules = try QuirksFile.Value(entry["password-rules"], name: name, expected: Self.expected)
                .string(at: [.key(key), .key("password-rules")])
            let exact = try QuirksFile.Value(entry["exact-domain-match-only"], name: name, expected: Self.expected)
                .optionalBool(at: [.key(key), .key("exact-domain-match-only")])
            for unknown in entry.keys.sorted() where unknown != "password-rules" && unknown != "exact-domain-match-only" {
                warnings.append("\(name): \"\(key)\": unknown key \"\(unknown)\" ignored")
            }
            let domain = HostName.lookupKey(key)
            entries[domain] = Entry(domain: domain, rules: rules, exactDomainMatchOnly: exact ?? false)
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

    static let expected = "an object mapping domains to {\"password-rules\": …}"
}
