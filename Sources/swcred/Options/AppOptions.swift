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

/// The emulated app of `spec/cli.md`: `--app-id`, `--entitlements`, `--app`, `--developer-mode`,
/// `--managed`. Shared by every command that acts as an app (`verify`, `match`, `add`, `request`,
/// `batch`, `associations`, `passkey`).
///
/// `--app PATH` (issue 31) gives the signed app itself: the app ID is the signed
/// `application-identifier` and the domains are the signed associated domains, read through
/// ``SignedApps`` (a command line with `--app` runs in `swcred-fetch`, which links the readers).
struct AppOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The app's <TeamID>.<bundle id>; defaults to the entitlements' application-identifier.",
            valueName: "id"))
    var appID: String?

    @Option(
        help: ArgumentHelp("An .entitlements/.plist file (XML or binary plist) or a JSON object.", valueName: "file"))
    var entitlements: String?

    @Option(
        name: .customLong("app"),
        help: ArgumentHelp(
            "A signed app (an .ipa, an .app folder or a Mach-O executable): its signed app ID and domains.",
            valueName: "path"))
    var appPath: String?

    @OptionGroup var device: DeviceOptions

    /// Whether any app identity was given (the browser path of `add` has none).
    var isGiven: Bool { appID != nil || entitlements != nil || appPath != nil }

    /// Whether entitlements were given, from a source file or a signed app.
    var hasEntitlements: Bool { entitlements != nil || appPath != nil }

    func validate() throws {
        if appPath != nil, appID != nil {
            throw ValidationError("--app takes the app ID from the signature; leave out --app-id")
        }
    }

    /// Loads the entitlements: the signed ones of `--app`, or the `--entitlements` file.
    ///
    /// - Throws: `fileNotFound` (66), `malformedEntitlements` or `malformedArtifact` (65);
    ///   `usage` (64) for `--app` with `--entitlements` (only `verify` compares the two).
    func loadEntitlements() throws(SWCredError) -> Entitlements? {
        if appPath != nil {
            if entitlements != nil {
                throw SWCredError(
                    .usage, "give --app or --entitlements (verify alone takes both, to report their drift)")
            }
            return try signedApp(comparingWith: nil)?.entitlements
        }
        guard let entitlements else { return nil }
        return try Entitlements.load(path: entitlements)
    }

    /// Reads `--app`, if it was given, and checks it; `source` (the `--entitlements` file's) is
    /// compared with the signed entitlements.
    ///
    /// - Throws: `malformedArtifact` (65) when the path is no app (a profile alone included),
    ///   `fileNotFound` (66); `internalError` in a program without the artifact readers.
    func signedApp(comparingWith source: Entitlements?) throws(SWCredError) -> SignedAppReading? {
        guard let appPath else { return nil }
        let reading = try SignedApps.read(path: appPath, source: source)
        guard reading.isApp else {
            throw SWCredError(
                SWCredError.Code(.malformedArtifact),
                "--app \(appPath) is a provisioning profile; give the app (.ipa, .app or its executable)")
        }
        return reading
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
