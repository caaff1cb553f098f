import SWCredAssociation
import SWCredCore

extension SignedAppCheck {
    /// APP-5, APP-6, APP-7: the bundle identifier, the CodeDirectory's identifier and team, the
    /// signed app ID and team identifier, and the profile's team, against each other.
    static func identity(
        _ artifact: SignedArtifact, signature: CodeSignature?, profile: ProvisioningProfile?
    ) -> [SignedAppFinding] {
        var findings: [SignedAppFinding] = []
        let appID = signature?.applicationIdentifier
        let split = appID.flatMap { id -> (prefix: String, bundle: String)? in
            guard let dot = id.firstIndex(of: ".") else { return nil }
            return (String(id[..<dot]), String(id[id.index(after: dot)...]))
        }
        // The three names of the app.
        var names: [(String, String)] = []
        if let bundleID = artifact.bundleIdentifier { names.append(("CFBundleIdentifier", bundleID)) }
        if let identifier = signature?.codeDirectory.identifier {
            names.append(("the CodeDirectory's identifier", identifier))
        }
        if let split { names.append(("the application-identifier's bundle part", split.bundle)) }
        if Set(names.map(\.1)).count > 1 {
            findings.append(
                .init(
                    .identityMismatch, .error,
                    "the app's names differ: " + names.map { "\($0.0) is \($0.1)" }.joined(separator: ", ")
                        + " (iOS refuses an app whose application-identifier does not end in its bundle identifier)"))
        }
        // The three teams.
        var teams: [(String, String)] = []
        if let team = signature?.codeDirectory.teamIdentifier { teams.append(("the CodeDirectory's team", team)) }
        if let team = signature?.teamIdentifierEntitlement { teams.append(("the signed team-identifier", team)) }
        if let team = profile?.teamIdentifier { teams.append(("the profile's TeamIdentifier", team)) }
        if Set(teams.map(\.1)).count > 1 {
            findings.append(
                .init(
                    .teamMismatch, .error,
                    "the teams differ: " + teams.map { "\($0.0) is \($0.1)" }.joined(separator: ", ")
                        + " (the app must be signed by the team of its profile)"))
        }
        // A legacy App ID prefix (said only when the teams agree: APP-6 covers the rest).
        if let split, Set(teams.map(\.1)).count == 1, let team = teams.first?.1, split.prefix != team {
            findings.append(
                .init(
                    .appIDPrefixNotTeam, .note,
                    "the App ID prefix \(split.prefix) is not the Team ID \(team): the association files must list "
                        + "\(split.prefix).\(split.bundle), the signed application-identifier; \(team).\(split.bundle) "
                        + "would not match"))
        }
        return findings
    }

    /// APP-3, APP-4, APP-9, APP-10: what the profile allows and when.
    static func profile(_ profile: ProvisioningProfile, signed: Entitlements?, now: Double) -> [SignedAppFinding] {
        var findings: [SignedAppFinding] = []
        let domains = signed?.entries.map(\.raw) ?? []
        if !domains.isEmpty {
            switch profile.allowedAssociatedDomains {
            case nil:
                findings.append(
                    .init(
                        .domainsNotAllowed, .error,
                        "the profile does not allow Associated Domains (the capability is off for its App ID), but "
                            + "\(domains.count) associated domain\(domains.count == 1 ? " is" : "s are") signed: iOS "
                            + "refuses to install the app (its entitlements are not valid for its profile)"))
            case let allowed? where allowed != ["*"]:
                let outside = domains.filter { !allowed.contains($0) }
                if !outside.isEmpty {
                    findings.append(
                        .init(
                            .domainsNotAllowed, .error,
                            "the profile allows only \(allowed.joined(separator: ", ")); signed outside that list: "
                                + outside.joined(separator: ", ")))
                }
            default:
                break
            }
        }
        if let appID = signed?.applicationIdentifier, let allowed = profile.entitlements.applicationIdentifier,
            !Self.allows(allowed, appID)
        {
            findings.append(
                .init(
                    .appIDNotAllowed, .error,
                    "the profile is for \(allowed), which does not cover the signed application-identifier \(appID)"))
        }
        if let expires = profile.expirationDate, now >= expires {
            findings.append(
                .init(
                    .profileDates, .error,
                    "the profile expired on \(ArtifactReport.iso8601(expires)): a device no longer launches the app"))
        }
        if let created = profile.creationDate, now < created {
            findings.append(
                .init(
                    .profileDates, .error,
                    "the profile is not valid before \(ArtifactReport.iso8601(created)) "
                        + "(check the clock that signed it)"))
        }
        if profile.isPersonalTeam {
            findings.append(
                .init(
                    .personalTeam, domains.isEmpty ? .warning : .error,
                    "the profile belongs to a personal team, which cannot use Associated Domains: join the Apple "
                        + "Developer Program and sign with that team"))
        }
        return findings
    }

    /// Whether a profile's `application-identifier` allows `appID`, as the device reads it: `*`
    /// alone allows any, a trailing `*` allows any continuation (`TEAM.*`, `TEAM.com.example.*`),
    /// otherwise the two are equal.
    package static func allows(_ pattern: String, _ appID: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix("*") { return appID.hasPrefix(pattern.dropLast()) }
        return pattern == appID
    }
}
