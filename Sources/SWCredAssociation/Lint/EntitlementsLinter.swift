import SWCredCore

/// Validates the associated-domains part of an entitlements file (`swcred lint --entitlements`),
/// with the same finding shape as ``AssociationLinter`` and ids `SWC1xx`.
///
/// Paths name the entitlement key and index: `com.apple.developer.associated-domains[3]`.
public struct EntitlementsLinter: Sendable {
    /// The stable rule identifiers of entitlement findings.
    public enum Rule: String, Sendable, CaseIterable {
        case invalidEntry = "SWC101"
        case unknownService = "SWC102"
        case modeEntry = "SWC103"
        case tooManyEntries = "SWC104"
        case applinksPort = "SWC105"
        case duplicate = "SWC106"
        case notArrayOfStrings = "SWC107"
        case missingAppID = "SWC108"
        case badAppID = "SWC109"
        case noEntries = "SWC110"
    }

    static let key = "com.apple.developer.associated-domains"

    /// Creates a linter.
    public init() {}

    /// Lints parsed entitlements.
    public func lint(_ entitlements: Entitlements) -> [LintFinding] {
        var findings: [LintFinding] = []
        func add(_ rule: Rule, _ severity: DiagnosticSeverity, _ path: String, _ message: String, _ help: String) {
            findings.append(
                LintFinding(id: rule.rawValue, severity: severity, path: path, message: message, help: help))
        }
        switch entitlements.applicationIdentifier {
        case nil:
            add(
                .missingAppID, .warning, "application-identifier", "no application-identifier",
                "pass --app-id, or add the <prefix>.<bundle id> the app is signed with")
        case let appID? where !AppIdentity.isWellFormed(appID):
            add(
                .badAppID, .error, "application-identifier", "'\(appID)' is not shaped like an app ID",
                "use <10-character prefix>.<bundle id>, e.g. ABCDE12345.com.example.app")
        default:
            break
        }
        if let problem = entitlements.associatedDomainsProblem {
            add(.notArrayOfStrings, .error, Self.key, problem, "make the value an array of strings")
            return findings
        }
        if entitlements.entries.isEmpty {
            add(
                .noEntries, .note, Self.key, "no associated domains",
                "add entries such as \"webcredentials:example.com\"")
        }
        if entitlements.entries.count > 30 {
            add(
                .tooManyEntries, .warning, Self.key, "\(entitlements.entries.count) entries",
                "limit this list to no more than about 20 to 30 domains (AD-2.7)")
        }
        var seen: [AssociatedDomain: Int] = [:]
        for (index, entry) in entitlements.entries.enumerated() {
            let path = JSONPath.element(Self.key, index)
            if !entry.valid {
                let unknown = entry.domain.map { !$0.service.isKnown } ?? false
                let message = entry.diagnostics.first { $0.severity != .note }?.message ?? "invalid entry"
                if unknown {
                    let near = AssociationLinter.nearMiss(
                        entry.domain?.service.rawValue ?? "",
                        AssociationService.known.map(\.rawValue))
                    add(
                        .unknownService, .warning, path, "'\(entry.raw)': \(message)",
                        near.map { "did you mean '\($0)'?" }
                            ?? "use webcredentials, applinks, appclips or activitycontinuation")
                } else {
                    add(
                        .invalidEntry, .error, path, "'\(entry.raw)': \(message)",
                        "write service:host[:port][?mode=developer|managed], host in lowercase ASCII/Punycode")
                }
                continue
            }
            guard let domain = entry.domain else { continue }
            if let first = seen[domain] {
                add(.duplicate, .warning, path, "'\(entry.raw)' repeats entry \(first)", "remove the duplicate")
            } else {
                seen[domain] = index
            }
            if !domain.modes.isEmpty {
                add(
                    .modeEntry, .warning, path,
                    "'\(entry.raw)' uses ?mode=\(domain.modes.names.joined(separator: "+"))",
                    "remove mode entries before submitting to the App Store")
            }
            if domain.service == .applinks, domain.port != nil {
                add(
                    .applinksPort, .warning, path, "'\(entry.raw)': an applinks entry with a port never opens a URL",
                    "drop the port; universal links use the default port")
            }
        }
        return findings
    }
}
