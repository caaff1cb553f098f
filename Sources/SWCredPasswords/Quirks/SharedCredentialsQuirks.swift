public import Foundation
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
        let raw: [RawGroup]
        do {
            raw = try JSONDecoder().decode([RawGroup].self, from: data)
        } catch {
            throw QuirksFile.malformed(
                name, error, expected: "an array of {\"shared\": […]} or {\"from\": […], \"to\": […]} groups")
        }
        var groups: [Group] = []
        var warnings: [String] = []
        for (index, group) in raw.enumerated() {
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

    struct RawGroup: Decodable {
        let shared: [String]?
        let from: [String]?
        let to: [String]?
        let fromDomainsAreObsoleted: Bool?
        let unknownKeys: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PasswordRulesQuirks.RawEntry.Key.self)
            func key(_ name: String) -> PasswordRulesQuirks.RawEntry.Key { .init(stringValue: name) }
            shared = try container.decodeIfPresent([String].self, forKey: key("shared"))
            from = try container.decodeIfPresent([String].self, forKey: key("from"))
            to = try container.decodeIfPresent([String].self, forKey: key("to"))
            fromDomainsAreObsoleted = try container.decodeIfPresent(Bool.self, forKey: key("fromDomainsAreObsoleted"))
            let known: Set<String> = ["shared", "from", "to", "fromDomainsAreObsoleted"]
            unknownKeys = container.allKeys.map(\.stringValue).filter { !known.contains($0) }
        }
    }
}
