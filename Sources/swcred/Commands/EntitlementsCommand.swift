import ArgumentParser
import SWCredAssociation
import SWCredCore

/// `swcred entitlements FILE`: parses an entitlements file and reports every associated-domains
/// entry in file order (`spec/cli.md`). Exit 0 when the file parsed, 65 when it is malformed.
struct EntitlementsCommand: SWCredSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlements",
        abstract: "Parse an entitlements file and report its associated-domains entries.",
        discussion: HelpExamples.discussion("entitlements")
    )

    @Argument(
        help: ArgumentHelp("An .entitlements/.plist file (XML or binary plist) or a JSON object.", valueName: "file"))
    var file: String

    @OptionGroup var device: DeviceOptions
    @OptionGroup var formatOptions: FormatOptions

    struct Entry: Encodable {
        let raw: String
        let valid: Bool
        let service: String?
        let host: String?
        let port: Int?
        let wildcard: Bool
        let modes: [String]
        let active: Bool
        let aasaHost: String?
        let diagnostics: [Diagnostic]

        private enum CodingKeys: String, CodingKey {
            case raw, valid, service, host, port, wildcard, modes, active, aasaHost, diagnostics
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(raw, forKey: .raw)
            try c.encode(valid, forKey: .valid)
            try c.encode(service, forKey: .service)
            try c.encode(host, forKey: .host)
            try c.encode(port, forKey: .port)
            try c.encode(wildcard, forKey: .wildcard)
            try c.encode(modes, forKey: .modes)
            try c.encode(active, forKey: .active)
            try c.encode(aasaHost, forKey: .aasaHost)
            try c.encode(diagnostics, forKey: .diagnostics)
        }
    }

    struct Output: Encodable {
        let appID: String?
        let developmentSigned: Bool
        let entries: [Entry]
        let diagnostics: [Diagnostic]

        private enum CodingKeys: String, CodingKey { case appID, developmentSigned, entries, diagnostics }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(appID, forKey: .appID)
            try c.encode(developmentSigned, forKey: .developmentSigned)
            try c.encode(entries, forKey: .entries)
            try c.encode(diagnostics, forKey: .diagnostics)
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let entitlements = try Entitlements.load(path: file)
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
            entries: entries, diagnostics: entitlements.fileDiagnostics)
        switch console.format {
        case .json:
            console.emitJSON(output)
        case .text:
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
