import ArgumentParser
import FoundationEssentials
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// `swcred fetch HOST [--cdn | --direct] [--ca-file PEM] [--resolve …] [-o FILE]`: downloads one
/// apple-app-site-association file under Apple's retrieval rules and reports every rule checked.
///
/// The default route is `--direct` (the site itself: `.well-known`, then the legacy root on a 404
/// with a warning); `--mode-entry` asks `.well-known` only, as for `?mode=` entries. An explicit
/// fetch may use `--ca-file` roots (AD-4.3); the report then says `userInstalledRoot: true`.
///
/// Output: JSON mode prints the report (`url`, `status`, `bytes`, `contentType`, `redirected`,
/// `accepted`, `diagnostics`, …) on stdout; text mode prints the body on stdout (unless `-o`) and
/// the report on stderr. Exit 0 when accepted, 69 when a retrieval rule refused the file or the
/// network failed (the message names the rule), 65 when the body is not a valid AASA file.
struct FetchCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "fetch", abstract: "Download one apple-app-site-association file under Apple's retrieval rules.",
        discussion: """
            Every rule checked is reported: https only, TLS trust, no redirects (the Location is named), \
            status, the 131072-byte cap (enforced while streaming), timeouts, Content-Type, signed bodies, \
            and the JSON parse. Exit 69 names the rule that refused the file.
            """)

    @Argument(
        help: ArgumentHelp("The site: HOST or HOST:PORT (an https:// URL of the site is accepted).", valueName: "host"))
    var host: String

    @Flag(help: "Fetch through Apple's CDN route https://app-site-association.cdn-apple.com/a/v1/<host>.")
    var cdn = false

    @Flag(help: "Fetch from the site: .well-known, then the legacy root on a 404 (the default).")
    var direct = false

    @Flag(help: "Fetch .well-known only, as for ?mode= entries (no legacy root).")
    var modeEntry = false

    @Flag(help: "Follow https redirects as a device does (at most 5; never on the CDN route); each hop is a warning.")
    var followRedirects = false

    @Flag(help: "Fetch https://HOST/.well-known/webauthn (related origins) under its rules, ROR-F1…F3.")
    var webauthn = false

    @Flag(help: "Fetch the site's /.well-known/assetlinks.json instead, under its own rules (no redirects, 1 MiB).")
    var assetlinks = false

    @Option(help: ArgumentHelp("Extra trusted roots, PEM (user-installed roots, AD-4.3).", valueName: "pem"))
    var caFile: String?

    @Option(help: ArgumentHelp("Connect HOST:PORT to ADDR (repeatable), like curl.", valueName: "host:port:addr"))
    var resolve: [String] = []

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Write the body to this file.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Seconds allowed for the whole exchange (default 60).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Seconds allowed to connect (default 10).", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(help: ArgumentHelp("Seconds of silence allowed while reading (default 30).", valueName: "seconds"))
    var readTimeout: Double?

    #if DEBUG
    /// Tests only (debug builds): a local stand-in for Apple's CDN; release builds have no such flag.
    @Option(help: .hidden)
    var cdnBaseUrl: String?
    #else
    var cdnBaseUrl: String? { nil }
    #endif

    @OptionGroup var formatOptions: FormatOptions

    func validate() throws {
        if [cdn, direct, modeEntry].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --cdn, --direct and --mode-entry")
        }
        if webauthn, cdn || modeEntry || followRedirects {
            throw ValidationError("--webauthn has its own rules: no --cdn, --mode-entry or --follow-redirects")
        }
        if webauthn, assetlinks {
            throw ValidationError("--webauthn and --assetlinks each fetch one file; give one")
        }
        if assetlinks, cdn || modeEntry || followRedirects {
            throw ValidationError(
                "--assetlinks fetches from the site, never redirected: no --cdn, --mode-entry or --follow-redirects")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        var configuration = try RetrievalConfiguration(
            caFile: caFile,
            resolve: resolve,
            totalTimeout: timeout,
            connectTimeout: connectTimeout,
            readTimeout: readTimeout,
            cdnBaseURL: cdnBaseUrl
        )
        configuration.followsRedirects = followRedirects
        if webauthn { return try await executeWebAuthn(console, configuration: configuration) }
        if assetlinks { return try await executeAssetLinks(console, configuration: configuration) }
        let route: RetrievalRoute = cdn ? .cdn : (modeEntry ? .wellKnownOnly : .wellKnownThenLegacyRoot)

        let (result, file) = try await LiveRetrieval.fetch(
            try FetchTarget(argument: host), route: route, configuration: configuration)
        if let body = result.body { try writeBody(body) }
        console.emit(result.report) {
            if output == nil, let body = result.body, result.report.accepted || file == nil {
                console.outBytes(body)
            }
            Self.printReport(result.report, to: console)
        }
        if let failure = result.report.failure { throw failure.error }
        return .success
    }

    /// The report, one fact per line, on stderr.
    static func printReport(_ report: AASAFetchReport, to console: Console) {
        console.err("url: \(report.url)")
        console.err("status: \(report.status.map(String.init) ?? "none")")
        console.err("bytes: \(report.bytes)")
        console.err("content-type: \(report.contentType ?? "none")")
        if report.redirected { console.err("redirect: \(report.location ?? "no Location")") }
        if report.userInstalledRoot { console.err("trust: user-installed root (--ca-file)") }
        for diagnostic in report.diagnostics {
            console.err("\(diagnostic.severity.rawValue) [\(diagnostic.rule?.rawValue ?? "-")]: \(diagnostic.message)")
        }
        console.err("accepted: \(report.accepted ? "yes" : "no")")
    }
}

extension FetchCommand {
    /// Writes a fetched body to `-o FILE` (atomically), when `-o` was given: one home for the AASA,
    /// `--assetlinks` and `--webauthn` fetches.
    ///
    /// - Throws: `ioFailure` (74) naming the file.
    func writeBody(_ body: [UInt8]) throws(SWCredError) {
        guard let output else { return }
        do {
            try Data(body).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw SWCredError(.ioFailure, "cannot write \(output): \(LiveRetrieval.text(of: error))")
        }
    }
}
