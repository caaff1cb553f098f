public import FoundationEssentials
public import SWCredCore

/// Apple's `shared-credentials.json` (and `shared-credentials-historical.json`) quirks (PW-7.4):
/// groups of domains whose sites share one credential backend.
///
/// Use only to add candidates to a picker, each labelled with the domain it was saved for, and
/// only when the user enables it (PW-7.5); never to return or fill a credential without an
/// explicit choice. The historical file may only suppress password-reuse warnings (PW-7.6).
///
/// ```swift
/// let groups = try SharedCredentialsQuirks(contentsOfFile: "shared-credentials.json")
/// groups.sourceDomains(offeredOn: "www.hosting.com")  // ["a2hosting.com"]
/// ```
public struct SharedCredentialsQuirks: Sendable {
    /// One group of the file.
    public enum Group: Sendable, Hashable {
        /// A credential saved for any listed domain may be offered on any other.
        case shared([String])
        /// A credential saved for a `from` domain may be offered on a `to` domain, not the reverse.
        /// **Decision:** `fromDomainsAreObsoleted` is optional, default `false`.
        case oneWay(from: [String], to: [String], fromDomainsAreObsoleted: Bool)
    }

    /// The groups in file order, domains normalised (lower-cased, no trailing dot).
    public let groups: [Group]
    /// Non-fatal findings while loading (unknown keys inside a group).
    public let warnings: [String]

    /// Loads a shared-credentials file.
    /// - Throws: `fileNotFound` (66), `limitExceeded` for a file above `maximumSize`,
    ///   `malformedQuirks` (65) naming the file and the offending group or key.
    public init(contentsOfFile path: String, maximumSize: Int = PasswordRulesQuirks.defaultMaximumSize)
        throws(SWCredError)
    {
        let data = try QuirksFile.read(path, maximumSize: maximumSize)
        try self.init(data: data, name: path)
    }

    /// Decodes a shared-credentials document.
    /// - Throws: `malformedQuirks` naming `name` and the offending group or key.
    public init(data: Data, name: String) throws(SWCredError) {
        let array = try QuirksFile.document(data, name: name, expected: Self.expected).array(at: [])
        var groups: [Group] = []
        var warnings: [String] = []
        for (index, element) in array.enumerated() {
            let group = try RawGroup(element, index: index, name: name)
            for unknown in group.unknownKeys.sorted() {
                warnings.append("\(name): group [\(index)]: unknown key \"\(unknown)\" ignored")
            }
            // Lists are non-empty and without duplicates (PW-7.4).
            for (key, list) in [("shared", group.shared), ("from", group.from), ("to", group.to)] {
                guard let list else { continue }
                let normalized = list.map { HostName.lookupKey($0) }
                if normalized.isEmpty || Set(normalized).count != normalized.count || normalized.contains("") {
                    throw SWCredError(
                        .malformedQuirks,
                        "the quirks file \(name) is malformed at [\(index)].\"\(key)\": the list must be non-empty, without duplicates or empty names"
                    )
                }
            }
            switch (group.shared, group.from, group.to) {
            case (let shared?, nil, nil):
                groups.append(.shared(shared.map { HostName.lookupKey($0) }))
            case (nil, let from?, let to?):
                groups.append(
                    .oneWay(
                        from: from.map { HostName.lookupKey($0) }, to: to.map { HostName.lookupKey($0) },
                        fromDomainsAreObsoleted: group.fromDomainsAreObsoleted ?? false))
            default:
                throw SWCredError(
                    .malformedQuirks,
                    "the quirks file \(name) is malformed at [\(index)]: a group has either \"shared\" or both \"from\" and \"to\""
                )
            }
        }
        self.groups = groups
        self.warnings = warnings
    }

    /// Whether `domain` covers `host`: equal, or `host` ends with `.` + `domain` (label boundary).
    static func covers(_ domain: String, _ host: String) -> Bool {
        host == domain || host.hasSuffix("." + domain)
    }

    /// The domains whose saved credentials may be offered on `host` (PW-7.4), in file order,
    /// without duplicates and without the domains that cover `host` themselves.
    public func sourceDomains(offeredOn host: String) -> [String] {
        let normalized = HostName.lookupKey(host)
        var out: [String] = []
        func add(_ domains: [String]) {
            for domain in domains where !Self.covers(domain, normalized) && !out.contains(domain) { out.append(domain) }
        }
        for group in groups {
            switch group {
            case .shared(let domains):
                if domains.contains(where: { Self.covers($0, normalized) }) { add(domains) }
            case .oneWay(let from, let to, _):
                if to.contains(where: { Self.covers($0, normalized) }) { add(from) }
            }
        }
        return out
    }

    /// Whether two hosts are related by any group, in either direction (for suppressing
    /// password-reuse warnings with the historical file, PW-7.6).
    public func areRelated(_ a: String, _ b: String) -> Bool {
        sourceDomains(offeredOn: a).contains { Self.covers($0, HostName.lookupKey(b)) }
            || sourceDomains(offeredOn: b).contains { Self.covers($0, HostName.lookupKey(a)) }
    }

    static let expected = "an array of {\"shared\": […]} or {\"from\": […], \"to\": […]} groups"

    /// One group as written: every list optional, unknown keys kept to be reported.
    struct RawGroup {
        let shared: [String]?
        let from: [String]?
        let to: [String]?
        let fromDomainsAreObsoleted: Bool?
        let unknownKeys: [String]

        init(_ element: JSONValue, index: Int, name: String) throws(SWCredError) {
            let path: [QuirksFile.PathStep] = [.index(index)]
            let object = try QuirksFile.Value(element, name: name, expected: SharedCredentialsQuirks.expected)
                .object(at: path)
            func value(_ key: String) -> QuirksFile.Value {
                QuirksFile.Value(object[key], name: name, expected: SharedCredentialsQuirks.expected)
            }
            shared = try value("shared").optionalStrings(at: path + [.key("shared")])
            from = try value("from").optionalStrings(at: path + [.key("from")])
            to = try value("to").optionalStrings(at: path + [.key("to")])
            fromDomainsAreObsoleted = try value("fromDomainsAreObsoleted").optionalBool(
                at: path + [.key("fromDomainsAreObsoleted")])
            let known: Set<String> = ["shared", "from", "to", "fromDomainsAreObsoleted"]
            unknownKeys = object.keys.filter { !known.contains($0) }
        }
    }
}
