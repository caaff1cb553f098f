import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The caller options shared by `register` and `assert`: an app (app options) or a browser (`--origin`).
struct PasskeyCallerOptions: ParsableArguments {
    @OptionGroup var app: AppOptions
    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("Act as a browser page at this origin (https://host[:port], or http://localhost).", valueName: "origin"))
    var origin: String?

    func validate() throws {
        if origin != nil, app.isGiven {
            throw ValidationError("give either app options (--entitlements/--app-id) or --origin, not both")
        }
        if origin == nil, !app.isGiven {
            throw ValidationError("give the caller: --entitlements FILE (and --app-id) for an app, or --origin for a browser")
        }
        if origin != nil, source.selectedKind != nil {
            throw ValidationError("association sources apply to an app; --origin takes none")
        }
    }
}

/// Reads the options document: a file, or `-` for stdin; at most the JSON reader's limit (+1 to detect more).
func readPasskeyOptions(_ path: String, storeOptions: GlobalStoreOptions) throws(SWCredError) -> [UInt8] {
    let limit = WebAuthnJSON.limits.maxBytes + 1
    if path == "-" {
        if storeOptions.passphraseStdin {
            throw SWCredError(.usage, "the options and the passphrase cannot both come from stdin")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(CommandContext.current.standardInput, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
    do {
        return try FileBytes.read(path: path, upTo: limit)
    } catch {
        throw SWCredError(.fileNotFound, "cannot read the options file \(path)")
    }
}

extension PasskeyCallerOptions {
    /// Runs `body` in one store transaction for the caller: a browser at `--origin`, or the app,
    /// whose association records are refreshed from the source first (as `request` does).
    func transact<R: Sendable>(
        storeOptions: GlobalStoreOptions, console: Console,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        if let origin {
            let parsed = try RelyingPartyID.Origin(parsing: origin)
            return try storeOptions.session(console).modify(createIfMissing: true) {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> R in
                try body(.browser(parsed), &contents, now)
            }
        }
        return try await SWCAppSession.open(
            storeOptions: storeOptions, app: app, source: source, console: console, simulator: false
        ).transact(body)
    }
}

/// `--user allow|cancel`.
enum PasskeyUserOption: String, ExpressibleByArgument, Sendable {
    case allow, cancel
}
