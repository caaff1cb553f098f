import ArgumentParser
import SWCredArtifacts
import SWCredAssociation
import SWCredCore

/// `swcred entitlements FILE`: parses an entitlements file and reports every associated-domains
/// entry in file order (`spec/cli.md`). `FILE` may also be a signed artifact (a Mach-O executable,
/// an `.app`, an `.ipa` or a provisioning profile, read by SWCredArtifacts): the entries are then
/// the signed ones, and the JSON adds the `artifact` object. Exit 0 when the file parsed, 65 when
/// it is malformed.
struct EntitlementsCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "entitlements", abstract: "Parse an entitlements file and report its associated-domains entries.")

    @Argument(
        help: ArgumentHelp(
            "An .entitlements/.plist file (XML or binary plist) or a JSON object; or a signed Mach-O executable, "
                + "an .app folder, an .ipa (stored entries) or a provisioning profile.",
            valueName: "file"))
    var file: String

    @OptionGroup var device: DeviceOptions
    @OptionGroup var formatOptions: FormatOptions

    struct Entry: Encodable {
        let raw: String
        let valid: Bool
        @ExplicitNull var service: String?
        @ExplicitNull var host: String?
        @ExplicitNull var port: Int?
        let wildcard: Bool
        let modes: [String]
        let active: Bool
        @ExplicitNull var aasaHost: String?
        let diagnostics: [Diagnostic]
    }

    struct Output: Encodable {
        @ExplicitNull var appID: String?
        let developmentSigned: Bool
        let entries: [Entry]
        let diagnostics: [Diagnostic]
        /// Only for a signed artifact: absent for a source file, so that output is unchanged.
        let artifact: ArtifactReport?
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let artifact = try SignedArtifact.load(path: file)
        let entitlements = try artifact.map(Self.entitlements(of:)) ?? Entitlements.load(path: file)
        let resolved = EntitlementResolver.resolve(entitlements, device: device.settings)
        let entries = resolved.map { item in
            let domain = item.domain
            return Entry(
                raw: item.entry.raw, valid: item.entry.valid, service: domain?.service.rawValue, host: domain?.host,
                port: domain?.port, wildcard: domain?.wildcard ?? false, modes: domain?.modes.names ?? [],
                active: item.active, aasaHost: domain?.aasaHost, diagnostics: item.diagnostics)
        }
        let output = Output(
            appID: entitlements.applicationIdentifier, developmentSigned: entitlements.developmentSigned,
            entries: entries, diagnostics: entitlements.fileDiagnostics, artifact: artifact.map(ArtifactReport.init))
        console.emit(output) {
            if let report = output.artifact { Self.describe(report, console) }
            console.out(
                "app ID: \(output.appID ?? "(none)")\(entitlements.developmentSigned ? " (development-signed)" : "")")
            for diagnostic in output.diagnostics { console.warn(diagnostic.labelledMessage) }
            if entries.isEmpty { console.out("no associated-domains entries") }
            for entry in entries {
                let state = !entry.valid ? "invalid" : (entry.active ? "active" : "inactive")
                var line = "\(entry.raw)\t\(state)"
                if entry.valid, let aasaHost = entry.aasaHost { line += "\tfile from \(aasaHost)" }
                console.out(line)
                for diagnostic in entry.diagnostics { console.out("    \(diagnostic)") }
            }
        }
        return .success
    }

    /// The entitlements whose entries are reported: the signed ones of an executable (none when it
    /// is unsigned); a profile's are an allowlist, so its entries are empty and `artifact.profile`
    /// tells what it allows.
    static func entitlements(of artifact: SignedArtifact) -> Entitlements {
        if case .profile(let profile) = artifact {
            return Entitlements(
                applicationIdentifier: profile.entitlements.applicationIdentifier, associatedDomains: [],
                developmentSigned: profile.entitlements.developmentSigned)
        }
        return artifact.signedEntitlements ?? Entitlements(applicationIdentifier: nil, associatedDomains: [])
    }

    /// Text mode: one line per slice and one for a profile. Never a device identifier or a name.
    static func describe(_ report: ArtifactReport, _ console: Console) {
        console.out("\(report.kind)\(report.bundleID.map { " \($0)" } ?? "")")
        for slice in report.slices {
            guard let identifier = slice.identifier else {
                console.out("  \(slice.arch): not signed")
                continue
            }
            let team = slice.teamID.map { "team \($0)" } ?? "ad hoc"
            let seal = slice.sealed ? "entitlements sealed" : "entitlements NOT sealed by the CodeDirectory"
            console.out("  \(slice.arch): \(identifier), \(team), \(seal)")
        }
        if let profile = report.profile {
            let domains = profile.associatedDomains.map { $0 == ["*"] ? "*" : $0.joined(separator: " ") } ?? "none"
            console.out(
                "  profile \(profile.kind), team \(profile.teamID ?? "?"), expires \(profile.expires ?? "?"), "
                    + "\(profile.devices) devices, associated domains allowed: \(domains)")
        }
    }
}
