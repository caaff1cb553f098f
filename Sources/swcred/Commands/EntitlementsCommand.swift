import ArgumentParser
import SWCredAssociation
import SWCredCore

/// `swcred entitlements FILE`: parses an entitlements file and reports every associated-domains
/// entry in file order (`spec/cli.md`). `FILE` may also be a signed artifact (a Mach-O executable,
/// an `.app`, an `.ipa` or a provisioning profile, read through ``SignedApps``, so in
/// `swcred-fetch`): the entries are then the signed ones, and the JSON adds the `artifact` object.
/// Exit 0 when the file parsed, 65 when it is malformed.
struct EntitlementsCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "entitlements", abstract: "Parse an entitlements file and report its associated-domains entries.")

    @Argument(
        help: ArgumentHelp(
            "An .entitlements/.plist file (XML or binary plist) or a JSON object; or a signed Mach-O executable, "
                + "an .app folder, an .ipa or a provisioning profile.",
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
        let artifact: ArtifactMember

        private enum CodingKeys: String, CodingKey { case appID, developmentSigned, entries, diagnostics }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_appID, forKey: .appID)
            try container.encode(developmentSigned, forKey: .developmentSigned)
            try container.encode(entries, forKey: .entries)
            try container.encode(diagnostics, forKey: .diagnostics)
            try artifact.encode(to: encoder)
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        // The same decision as the hand-off's (`readsSignedArtifacts`).
        let artifact = readsSignedArtifacts ? try SignedApps.read(path: file) : nil
        let entitlements = try artifact?.entitlements ?? Entitlements.load(path: file)
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
            entries: entries, diagnostics: entitlements.fileDiagnostics,
            artifact: ArtifactMember(artifact: artifact?.artifact))
        console.emit(output) {
            for line in artifact?.summary ?? [] { console.out(line) }
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
}
