import SWCredCore

/// Validates the associated-domains part of an entitlements file (`swcred lint --entitlements`),
/// with the same finding shape as ``AssociationLinter`` and ids `SWC1xx`.
///
/// Paths name the entitlement key and index: `com.apple.developer.associated-domains[3]`.
package struct EntitlementsLinter: Sendable {
    /// The stable rule identifiers of entitlement findings.
    package enum Rule: String, Sendable, CaseIterable {
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
        case unexpandedBuildSetting = "SWC117"
    }

    static let key = "com.apple.developer.associated-domains"

    /// Creates a linter.
    package init() {}

    /// Lints parsed entitlements.
    ///
    /// A source `.entitlements` file has no `application-identifier` (Xcode adds it when it signs
    /// the app), so its absence is only a note. Build settings (`$(NAME)`) are expanded with
    /// `buildSettings` first, as Xcode does; a reference left unexpanded is reported as such
    /// (`SWC117`), not as a malformed entry.
    ///
    /// - Parameters:
    ///   - entitlements: the parsed file.
    ///   - buildSettings: values for `$(NAME)` / `${NAME}` references (`--build-setting`).
    /// - Returns: the findings, the application identifier's first, then the entries' in order.
    package func lint(_ entitlements: Entitlements, buildSettings: BuildSettings = .init()) -> [LintFinding] {
        let entitlements = entitlements.expanding(buildSettings)
        var findings: [LintFinding] = []
        func add(_ rule: Rule, _ severity: DiagnosticSeverity, _ path: String, _ message: String, _ help: String) {
            findings.append(
                LintFinding(id: rule.rawValue, severity: severity, path: path, message: message, help: help))
        }
        switch entitlements.applicationIdentifier {
        case nil:
            add(
                .missingAppID, .note, "application-identifier",
                "no application-identifier; a source .entitlements file has none, Xcode adds it when it signs the app",
                "nothing to fix in a source file; pass --app-id to verify or match as that app")
        case let appID? where BuildSettings.firstReference(in: appID) != nil:
            add(
                .unexpandedBuildSetting, .warning, "application-identifier",
                "'\(appID)' uses the build setting \(BuildSettings.firstReference(in: appID) ?? "")"
                    + ", which Xcode expands when it signs the app",
                "pass --build-setting NAME=VALUE for each setting (for example AppIdentifierPrefix=ABCDE12345.)")
        case let appID?:
            if let problem = AppIdentity.shapeProblem(appID) {
                add(
                    .badAppID, .error, "application-identifier", "'\(appID)' is not an app ID: \(problem)",
                    "use the <10-character prefix>.<bundle id> the app is signed with")
            }
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
            if let unexpanded = entry.diagnostics.first(where: { $0.id == Rule.unexpandedBuildSetting.rawValue }) {
                add(
                    .unexpandedBuildSetting, .warning, path, "'\(entry.raw)': \(unexpanded.message)",
                    "pass --build-setting NAME=VALUE to lint the entry as Xcode will write it")
                continue
            }
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
