public import SWCredAssociation
import SWCredCore

/// The checks of a signed app against itself, its embedded profile and, when given, its source
/// entitlements (issue 31; TN3125 for profiles, TN3126 for code signatures): what makes a device
/// refuse the app or ignore its associated domains although the files allow them.
///
/// ```swift
/// let artifact = try SignedArtifact.load(path: "TacoShop.ipa")
/// let findings = artifact.map { SignedAppCheck.evaluate($0, source: nil, now: seconds) } ?? []
/// ```
public enum SignedAppCheck {
    /// Every finding on `artifact`, errors first, then warnings, then notes, each group in id order.
    ///
    /// - Parameters:
    ///   - artifact: an executable, an `.app` or an `.ipa` (a profile alone gives no finding).
    ///   - source: the source `.entitlements` file's entitlements, to report their drift.
    ///   - now: the time to check the profile's dates at, in seconds since 2001-01-01T00:00:00Z
    ///     (injected: tests never depend on the day they run).
    /// - Returns: the findings of the app and of every nested bundle (whose messages start with
    ///   its path); empty for a profile alone.
    public static func evaluate(_ artifact: SignedArtifact, source: Entitlements?, now: Double) -> [SignedAppFinding] {
        var findings = evaluateOne(artifact, source: source, now: now, nested: false)
        // Nested bundles, each checked as an app of its own (an extension need not sign any
        // domain); their findings start with their path.
        var queue = artifact.bundle?.nested ?? []
        while !queue.isEmpty {
            let nested = queue.removeFirst()
            for finding in evaluateOne(.app(nested), source: nil, now: now, nested: true) {
                findings.append(.init(finding.kind, finding.severity, "\(nested.nestedPath): \(finding.message)"))
            }
            queue += nested.nested
        }
        return findings.sorted { lhs, rhs in
            lhs.severity != rhs.severity ? lhs.severity > rhs.severity : order(lhs.kind) < order(rhs.kind)
        }
    }

    private static func evaluateOne(
        _ artifact: SignedArtifact, source: Entitlements?, now: Double, nested: Bool
    ) -> [SignedAppFinding] {
        if case .profile = artifact { return [] }
        var findings: [SignedAppFinding] = []
        let signature = artifact.slices.lazy.compactMap(\.signature).first
        let signed = signature?.entitlements
        let profile = artifact.profile

        // The signature itself: signed, sealed, one set of entitlements, expanded values.
        if let signature {
            if !signature.entitlementsSealed {
                findings.append(
                    .init(
                        .notSealed, .error,
                        "the entitlements are not sealed by the CodeDirectory: "
                            + signature.sealProblems.joined(separator: "; ")))
            }
            if signature.blobsDisagree == true {
                findings.append(
                    .init(
                        .blobsDisagree, .error,
                        "the XML and DER entitlements blobs hold different entitlements; iOS 15 and later enforce "
                            + "the DER blob, which swcred reads"))
            }
            for value in signature.unexpandedValues {
                findings.append(.init(.unexpandedValue, .error, "a signed value was not expanded: \(value)"))
            }
        } else {
            findings.append(.init(.notSealed, .error, "the executable is not signed: no entitlements reach the device"))
        }

        // The associated domains that are signed.
        if signature != nil, let signed {
            if let problem = signed.associatedDomainsProblem {
                findings.append(.init(.noSignedDomains, .error, problem))
            } else if signed.entries.isEmpty, !nested {
                findings.append(
                    .init(
                        .noSignedDomains, .error,
                        "the signed app has no associated domains (com.apple.developer.associated-domains is not "
                            + "signed): no association can be used, whatever the source entitlements say"))
            }
            let developerEntries = signed.entries.filter { $0.domain?.modes.contains(.developer) == true }
            if !signed.developmentSigned, !developerEntries.isEmpty {
                findings.append(
                    .init(
                        .developerModeInDistribution, .warning,
                        "the app is distribution-signed (no get-task-allow), so its ?mode=developer entries are "
                            + "ignored on every device: \(developerEntries.map(\.raw).joined(separator: ", "))"))
            }
        } else if signature != nil, !nested {
            findings.append(
                .init(.noSignedDomains, .error, "the signature carries no entitlements: no association can be used"))
        }

        // Source against signed.
        if let source, let signed { findings += drift(source: source, signed: signed) }

        // Identity and team.
        findings += identity(artifact, signature: signature, profile: profile)

        // The profile: allowlist, team kind and dates.
        if let profile {
            findings += SignedAppCheck.profile(profile, signed: signed, now: now)
        } else if case .machO = artifact {
            // A bare executable has no place for a profile; nothing to say.
        } else {
            findings.append(
                .init(
                    .noProfile, .note,
                    "no embedded provisioning profile: the allowlist, the team and the dates were not checked "
                        + "(a device installs a development, ad hoc or enterprise app only with one)"))
        }
        return findings
    }

    private static func order(_ kind: SignedAppFinding.Kind) -> Int {
        SignedAppFinding.Kind.allCases.firstIndex(of: kind) ?? 0
    }

    /// APP-1: the entries and the app ID of the source file against the signed ones.
    static func drift(source: Entitlements, signed: Entitlements) -> [SignedAppFinding] {
        let sourceEntries = source.entries.map(\.raw)
        let signedEntries = signed.entries.map(\.raw)
        let missing = sourceEntries.filter { !signedEntries.contains($0) }
        let extra = signedEntries.filter { !sourceEntries.contains($0) }
        var parts: [String] = []
        if !missing.isEmpty { parts.append("not signed: \(missing.joined(separator: ", "))") }
        if !extra.isEmpty { parts.append("signed but not in the source: \(extra.joined(separator: ", "))") }
        if let sourceID = source.applicationIdentifier, sourceID != signed.applicationIdentifier {
            let signedID = signed.applicationIdentifier ?? "none"
            parts.append("application-identifier \(sourceID) in the source, \(signedID) signed")
        }
        guard !parts.isEmpty else { return [] }
        return [
            .init(
                .sourceDrift, .warning,
                "the source entitlements and the signed ones differ (the device uses the signed ones): "
                    + parts.joined(separator: "; "))
        ]
    }
}
