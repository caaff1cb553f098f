import ArgumentParser
import SWCredAssociation
import SWCredCore

/// The emulated device's associated-domains settings (`--developer-mode`, `--managed`), shared by
/// every command that applies mode gating (AD-2.6).
struct DeviceOptions: ParsableArguments {
    @Flag(
        help:
            "The device has Associated Domains Development on (?mode=developer entries apply to development-signed apps)."
    )
    var developerMode = false

    @Flag(help: "The device is MDM-managed and allows direct downloads for this app (?mode=managed entries apply).")
    var managed = false

    /// The library value.
    var settings: DeviceSettings { DeviceSettings(developerMode: developerMode, managedDevice: managed) }
}

/// The emulated app of `spec/cli.md`: `--app-id`, `--entitlements`, `--developer-mode`, `--managed`.
/// Shared by `verify`, `match`, `add` and `request`.
struct AppOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The app's <TeamID>.<bundle id>; defaults to the entitlements' application-identifier.",
            valueName: "id"))
    var appID: String?

    @Option(
        help: ArgumentHelp("An .entitlements/.plist file (XML or binary plist) or a JSON object.", valueName: "file"))
    var entitlements: String?

    @OptionGroup var device: DeviceOptions

    /// Whether any app identity was given (the browser path of `add` has none).
    var isGiven: Bool { appID != nil || entitlements != nil }

    /// Loads the entitlements file, if one was given.
    ///
    /// - Throws: `fileNotFound` (66) or `malformedEntitlements` (65).
    func loadEntitlements() throws(SWCredError) -> Entitlements? {
        guard let entitlements else { return nil }
        return try Entitlements.load(path: entitlements)
    }

    /// The app identity from `--entitlements` (required here) and `--app-id`.
    ///
    /// - Throws: `usage` (64) without `--entitlements` or without any app ID; file errors (65/66).
    func identity() throws(SWCredError) -> AppIdentity {
        guard let loaded = try loadEntitlements() else {
            throw SWCredError(.usage, "--entitlements FILE is required")
        }
        return try AppIdentity(appID: appID, entitlements: loaded)
    }
}

/// The association source options of `spec/cli.md`: `--aasa-dir`, `--direct`, `--cdn`, `--ca-file`,
/// `--resolve`. Exactly one source applies; `--aasa-dir` wins when given.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Offline sites: DIR/<host>/.well-known/apple-app-site-association.", valueName: "dir"))
    var aasaDir: String?

    @Flag(help: "Fetch each domain's file live from https://<host>/.well-known/apple-app-site-association.")
    var direct = false

    @Flag(help: "Fetch through Apple's CDN route https://app-site-association.cdn-apple.com/a/v1/<host>.")
    var cdn = false

    @Option(help: ArgumentHelp("Extra trusted roots (PEM), with developer-mode semantics.", valueName: "pem"))
    var caFile: String?

    @Option(help: ArgumentHelp("Connect HOST:PORT to ADDR (repeatable), like curl.", valueName: "host:port:addr"))
    var resolve: [String] = []

    /// The kind of source selected, or `nil` when none was given.
    var selectedKind: AssociationSourceKind? {
        if aasaDir != nil { return .dir }
        if direct { return .direct }
        if cdn { return .cdn }
        return nil
    }

    func validate() throws {
        if aasaDir == nil, direct, cdn {
            throw ValidationError("--direct and --cdn are exclusive; give one source")
        }
    }
}
