import ArgumentParser
import Foundation
import SWCredCore
import SWCredKit
import SWCredPasskeys
import SWCredStore

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
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw SWCredError(.fileNotFound, "cannot read the options file \(path)")
    }
    defer { try? handle.close() }
    do {
        return Array(try handle.read(upToCount: limit) ?? Data())
    } catch {
        throw SWCredError(.fileNotFound, "cannot read the options file \(path)")
    }
}

extension PasskeyCallerOptions {
    /// Runs `body` in one store transaction for the caller: for an app, its association records are
    /// refreshed from the source first (as `request` does) and the app is built from its entitlements.
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
        let (backend, swcApp) = try await SWCCommandSupport.makeBackend(
            storeOptions: storeOptions, app: app, source: source, console: console)
        return try await Self.asApp(store: backend.store, app: swcApp, device: app.device, body)
    }

    /// Runs `body` in one transaction of `store` as the app (the device settings of the store,
    /// with `--developer-mode` / `--managed` forced on when given).
    static func asApp<R: Sendable>(
        store: KeychainStore, app swcApp: SWCApp, device options: DeviceOptions,
        _ body: @escaping @Sendable (PasskeyCaller, inout StoreContents, Date) throws(SWCredError) -> R
    ) async throws(SWCredError) -> R {
        let forceDeveloper = options.developerMode
        let forceManaged = options.managed
        do {
            return try store.transaction { (contents: inout StoreContents, now: Date) throws -> R in
                var device = contents.settings
                if forceDeveloper { device.developerMode = true }
                if forceManaged { device.managedDevice = true }
                return try body(.app(swcApp, device: device), &contents, now)
            }
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.internalError, "unexpected error in a store transaction: \(error)")
        }
    }
}

/// `--user allow|cancel`.
enum PasskeyUserOption: String, ExpressibleByArgument, Sendable {
    case allow, cancel
}
