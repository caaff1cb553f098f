public import SWCredCore

/// One parsed `service:host[:port][?mode=…]` entry of `com.apple.developer.associated-domains`.
///
/// Parsing follows AD-2.2 step by step and validity AD-2.3. Hosts are lowercase ASCII; a
/// wildcard entry `*.example.com` has ``host`` `example.com` and ``wildcard`` true.
public struct AssociatedDomain: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The service (lowercased).
    public var service: AssociationService
    /// The host, lowercase ASCII, without the `*.` of a wildcard.
    public var host: String
    /// The explicit port, if any.
    public var port: Int?
    /// Whether the entry was `*.host`.
    public var wildcard: Bool
    /// The recognised `?mode=` tokens.
    public var modes: AssociationModes
    /// ``host`` as the entitlement parse read it, so that a retrieval uses it without parsing the
    /// host again; `nil` for a domain made from parts or decoded, and for an IP literal. Not part
    /// of the domain's identity, nor of its JSON.
    public var hostName: HostName?

    enum CodingKeys: String, CodingKey {
        case service, host, port, wildcard, modes
    }

    /// Creates a domain from parts (no validation).
    public init(
        service: AssociationService, host: String, port: Int? = nil, wildcard: Bool = false,
        modes: AssociationModes = []
    ) {
        self.service = service
        self.host = host
        self.port = port
        self.wildcard = wildcard
        self.modes = modes
    }

    /// Domains are equal when service, host, port, wildcard and modes are (``hostName`` aside).
    public static func == (lhs: AssociatedDomain, rhs: AssociatedDomain) -> Bool {
        lhs.service == rhs.service && lhs.host == rhs.host && lhs.port == rhs.port && lhs.wildcard == rhs.wildcard
            && lhs.modes == rhs.modes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(wildcard)
        hasher.combine(modes)
    }

    /// The host (and `:port` for a non-default port) whose file verifies this entry: the
    /// wildcard's root for `*.` entries (AD-4.1, AD-8.4). Also the `--aasa-dir` folder name.
    package var aasaHost: String { Port.authority(host: host, port: port) }

    /// The normalised entry text: `service:[*.]host[:port][?mode=a+b]`.
    public var description: String {
        var text = "\(service.rawValue):\(wildcard ? "*." : "")\(host)"
        if let port { text += ":\(port)" }
        if !modes.isEmpty { text += "?mode=" + modes.names.joined(separator: "+") }
        return text
    }

    /// Whether this entry covers `host` (AD-8.1, AD-8.2): an exact entry its own host, a wildcard
    /// entry every host ending in `.host`, never the root itself. `host` must be lowercase ASCII.
    package func covers(host other: String) -> Bool {
        if wildcard { return other.count > host.count && other.hasSuffix("." + host) }
        return other == host
    }
}

/// One entry of the entitlement as written, with its parse result and diagnostics.
public struct EntitlementEntry: Sendable, Hashable {
    /// The string as written in the entitlements file.
    public var raw: String
    /// The parsed domain; `nil` when the entry could not be split into service and host at all.
    public var domain: AssociatedDomain?
    /// Well-formed and of a known service (`spec/cli.md` `entitlements`).
    public var valid: Bool
    /// Errors, warnings and notes about the entry.
    public var diagnostics: [Diagnostic]

    /// Parses one entry (AD-2.2, AD-2.3, AD-2.4).
    ///
    /// Never throws: problems become ``valid`` = false and error diagnostics.
    ///
    /// ```swift
    /// let entry = EntitlementEntry.parse("applinks:*.Example.com")
    /// // entry.domain?.host == "example.com", entry.domain?.wildcard == true
    /// ```
    public static func parse(_ raw: String) -> EntitlementEntry {
        var diagnostics: [Diagnostic] = []
        func invalid(_ message: String, _ domain: AssociatedDomain? = nil) -> EntitlementEntry {
            diagnostics.append(.error(message, id: "SWC101"))
            return EntitlementEntry(raw: raw, domain: domain, valid: false, diagnostics: diagnostics)
        }
        guard raw.utf8.count <= 1024 else { return invalid("entry is longer than 1024 bytes") }
        // A source .entitlements file may name Xcode build settings, which are expanded only when
        // the app is built: the entry cannot be checked as written (it is not a bad host).
        if let setting = BuildSettings.firstReference(in: raw) {
            diagnostics.append(
                .warning(
                    "the entry uses the build setting \(setting), which Xcode expands when it builds the app; "
                        + "it cannot be checked unexpanded", id: "SWC117"))
            return EntitlementEntry(raw: raw, domain: nil, valid: false, diagnostics: diagnostics)
        }
        // Step 1: split at the first ':'.
        guard let colon = raw.firstIndex(of: ":") else {
            return invalid("no ':' between service and domain (expected service:domain)")
        }
        // Step 2: the service, case-insensitive.
        let service = AssociationService(rawValue: String(raw[raw.startIndex..<colon]))
        var remainder = Substring(raw[raw.index(after: colon)...])
        // Step 3: the remainder as the authority and query of https://<remainder>.
        var query: Substring?
        if remainder.contains("#") {
            return invalid("a domain entry cannot have a fragment ('#…')")
        }
        if let mark = remainder.firstIndex(of: "?") {
            query = remainder[remainder.index(after: mark)...]
            remainder = remainder[..<mark]
        }
        if remainder.contains("/") {
            return invalid("a domain entry cannot have a path or trailing slash")
        }
        if remainder.contains("@") {
            return invalid("a domain entry cannot have user information ('…@')")
        }
        // An IPv6 literal: [addr] or [addr]:port.
        let split: (host: Substring, port: Substring?)
        do {
            split = try HostPort.split(remainder)
        } catch {
            switch error {
            case .unterminatedLiteral: return invalid("unterminated IPv6 literal")
            case .textAfterLiteral: return invalid("the port must be a number from 1 to 65535")
            }
        }
        let hostPart = split.host
        var port: Int?
        if let digits = split.port {
            guard let value = Port(parsing: digits) else { return invalid("the port must be a number from 1 to 65535") }
            port = value.intValue
        }
        // Step 5: modes from the query.
        var modes: AssociationModes = []
        if let query {
            for item in query.split(separator: "&", omittingEmptySubsequences: true) {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair[0] == "mode" else {
                    diagnostics.append(.warning("query item '\(pair[0])' is ignored; only 'mode' is recognised"))
                    continue
                }
                let value = pair.count > 1 ? pair[1] : ""
                for token in value.split(separator: "+", omittingEmptySubsequences: false) {
                    switch token.lowercased() {
                    case "developer": modes.insert(.developer)
                    case "managed": modes.insert(.managed)
                    default: diagnostics.append(.warning("unknown mode '\(token)' is ignored"))
                    }
                }
            }
        }
        // Step 4: the wildcard prefix.
        var host = String(hostPart)
        var wildcard = false
        if host.hasPrefix("*.") {
            wildcard = true
            host.removeFirst(2)
        }
        // Validity (AD-2.3).
        let ascii = host.unicodeScalars.allSatisfy(\.isASCII)
        if ascii { host = HostName.lowercasedASCII(host) }
        var domain = AssociatedDomain(service: service, host: host, port: port, wildcard: wildcard, modes: modes)
        if !ascii {
            var message = "the host '\(host)' is not ASCII; internationalised names must be written in Punycode"
            if let suggestion = Punycode.asciiHost(host) { message += " ('\(suggestion)')" }
            return invalid(message, domain)
        }
        let checked = checkHost(host, wildcard: wildcard, modes: modes)
        if let problem = checked.problem { return invalid(problem, domain) }
        domain.hostName = checked.name
        if service == .appclips, wildcard { return invalid("appclips entries cannot be wildcards", domain) }
        guard service.isKnown else {
            diagnostics.append(.warning("unknown service '\(service.rawValue)'; the entry is ignored", id: "SWC102"))
            return EntitlementEntry(raw: raw, domain: domain, valid: false, diagnostics: diagnostics)
        }
        // AD-2.4: an applinks entry with a port never opens a URL.
        if service == .applinks, port != nil {
            diagnostics.append(.warning("an applinks entry with a port never opens a URL (TN3155)", id: "SWC105"))
        }
        if !modes.isEmpty {
            diagnostics.append(.note("remove '?mode=' entries before submitting to the App Store", id: "SWC103"))
        }
        if service == .authsrv {
            diagnostics.append(.note("authsrv entries are recorded; swcred models no behaviour for them"))
        }
        return EntitlementEntry(raw: raw, domain: domain, valid: true, diagnostics: diagnostics)
    }

    /// Why `host` is not a valid entry host (AD-2.3), or `nil`: an IP literal in brackets, or an
    /// entitlement ``HostName`` that meets the rules on wildcards, IP addresses and `localhost`.
    static func hostProblem(_ host: String, wildcard: Bool, modes: AssociationModes) -> String? {
        checkHost(host, wildcard: wildcard, modes: modes).problem
    }

    /// ``hostProblem(_:wildcard:modes:)``, with the parsed name of a valid host that is not an IP literal.
    static func checkHost(
        _ host: String, wildcard: Bool, modes: AssociationModes
    ) -> (name: HostName?, problem: String?) {
        if host.hasPrefix("[") {
            return (nil, modes.contains(.developer) ? nil : "an IP address is valid only in a '?mode=developer' entry")
        }
        let name: HostName
        do throws(HostName.ParseError) {
            name = try HostName(host, syntax: .entitlement)
        } catch {
            return (nil, problem(error, in: host))
        }
        return (name, ruleProblem(name, wildcard: wildcard, modes: modes))
    }

    /// The AD-2.3 rules on IP addresses, `localhost` and the number of labels, for a host name.
    private static func ruleProblem(_ name: HostName, wildcard: Bool, modes: AssociationModes) -> String? {
        let labels = name.text.split(separator: ".", omittingEmptySubsequences: false)
        let isIPv4 =
            labels.count == 4
            && labels.allSatisfy { label in
                label.allSatisfy(\.isNumber) && (Int(label).map { $0 <= 255 } ?? false)
            }
        if isIPv4 {
            if wildcard { return "an IP address cannot be a wildcard" }
            return modes.contains(.developer) ? nil : "an IP address is valid only in a '?mode=developer' entry"
        }
        if name.text == "localhost" {
            if wildcard { return "'*.localhost' is not a valid wildcard" }
            return modes.contains(.developer) ? nil : "'localhost' is valid only in a '?mode=developer' entry"
        }
        if labels.count < 2 {
            return wildcard
                ? "'*.\(name.text)' would cover a whole top-level domain; the rest after '*.' must itself be valid"
                : "the host needs at least one dot"
        }
        return nil
    }

    /// The message for a host that is not an entitlement ``HostName``.
    private static func problem(_ error: HostName.ParseError, in host: String) -> String {
        switch error {
        case .notASCII: "the host is not ASCII"
        case .empty: "the host is empty"
        case .tooLong: "the host is longer than \(HostName.maximumLength) bytes"
        case .trailingDot: "the host has a trailing dot"
        case .leadingDot: "the host begins with a dot"
        case .character:
            host.contains("*")
                ? "a wildcard is only the leading '*.'" : "the host may contain only letters, digits, '-' and '.'"
        case .emptyLabel: "the host has an empty label"
        case .labelTooLong: "a host label is longer than \(HostName.maximumLabelLength) characters"
        }
    }
}
