import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredSodium
import SWCredStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The global store options of cli.md: which keychain file, and which key opens it. (Named apart
/// from the library's `SWCredStore.StoreOptions`, which ``session(_:)`` builds from these.)
///
/// | option | env |
/// | --- | --- |
/// | `--store PATH` | `SWCRED_STORE` |
/// | `--key-file PATH` | `SWCRED_KEY_FILE` |
/// | `--passphrase-stdin` / `--passphrase-file PATH` / `--passphrase-fd N` | `SWCRED_PASSPHRASE_FILE` |
///
/// An option wins over its environment variable. Giving any passphrase source selects passphrase
/// mode; otherwise the store is opened with its key file. Giving both `--key-file` and a
/// passphrase option is a usage error (64); `SWCRED_PASSPHRASE_FILE` is ignored when `--key-file`
/// is given.
struct GlobalStoreOptions: ParsableArguments {
    /// `--format`, which every store command takes. Not a nested ``FormatOptions`` group: each group
    /// costs a command about a million instructions at start (issue 22; CONTRIBUTING.md).
    @Option(help: FormatOptions.help)
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("The keychain file (env SWCRED_STORE).", valueName: "path"))
    var store: String?

    @Option(help: ArgumentHelp("The 32-byte key file of a key-file store (env SWCRED_KEY_FILE).", valueName: "path"))
    var keyFile: String?

    @Flag(help: "Read the store's passphrase from standard input.")
    var passphraseStdin = false

    @Option(help: ArgumentHelp("Read the store's passphrase from a file (mode 0600; env SWCRED_PASSPHRASE_FILE).",
                               valueName: "path"))
    var passphraseFile: String?

    @Option(help: ArgumentHelp("Read the store's passphrase from an inherited file descriptor.", valueName: "n"))
    var passphraseFd: Int32?

    @Option(help: ArgumentHelp("Seconds to wait for the store's write lock; 0 tries once.", valueName: "seconds"))
    var lockTimeout: Double?

    @Flag(help: "Open a store older than the last one seen (rollback), with a warning.")
    var allowRollback = false

    func validate() throws {
        let sources = [passphraseStdin, passphraseFile != nil, passphraseFd != nil].filter { $0 }.count
        if sources > 1 {
            throw ValidationError("give at most one of --passphrase-stdin, --passphrase-file and --passphrase-fd")
        }
        if sources == 1 && keyFile != nil {
            throw ValidationError("--key-file and a passphrase source exclude each other")
        }
        if let lockTimeout, !(lockTimeout >= 0 && lockTimeout <= 3600) {
            throw ValidationError("--lock-timeout must be between 0 and 3600 seconds")
        }
        if let passphraseFd, passphraseFd < 0 {
            throw ValidationError("--passphrase-fd must be a non-negative descriptor number")
        }
    }

    /// The store and key these options select, with their environment variables
    /// (``StoreSelection``: an option wins over its variable).
    var selection: StoreSelection {
        let option: SecretSource? =
            passphraseStdin
            ? .standardInput
            : passphraseFile.map { SecretSource.file($0) } ?? passphraseFd.map { SecretSource.descriptor($0) }
        return StoreSelection(
            store: store, keyFile: keyFile, passphrase: option, environment: CommandContext.current.environment)
    }

    /// The passphrase source given by an option or by `SWCRED_PASSPHRASE_FILE`, if any.
    var passphraseSource: SecretSource? { selection.passphraseSource }

    /// Refuses reading the passphrase and the item password from the same stream (store.md §8:
    /// "never read from the same stream implicitly").
    func checkDistinctStreams(passwordSource: SecretSource?) throws(SWCredError) {
        if passwordSource == .standardInput && passphraseSource == .standardInput {
            throw SWCredError(.usage, "--password-stdin and --passphrase-stdin cannot both read standard input; "
                + "give the passphrase with --passphrase-file or --passphrase-fd")
        }
    }
}

/// A subcommand that works on the store: its `--format` comes with the global store options.
protocol StoreSubcommand: SWCredSubcommand {
    var storeOptions: GlobalStoreOptions { get }
}

extension StoreSubcommand {
    var outputFormat: OutputFormat { storeOptions.format }
}

// MARK: - Opening the store

extension GlobalStoreOptions {
    /// The command's store session (``StoreSession``): the store and key these options select,
    /// the passphrase read at most once (from its option, or asked on the terminal when the
    /// default key file meets a passphrase store), the lock timeout (default 5 s) and the rollback
    /// override, warnings on stderr as `swcred: warning: …`, and creation on first write said on
    /// stderr (cli.md). A command makes one session and does all its store work through it.
    ///
    /// **Decision:** the session's blocking work (Argon2id, lock waits, `fsync`) runs inline, on
    /// the command's own task. A `swcred` process runs one command, so nothing else on Swift's
    /// cooperative pool waits for it (in-process tests give each command a thread of its own), and
    /// every system call of one command stays on one thread, which the T5 fault-injection test
    /// relies on: strace's `inject=…:when=N` counts calls per thread.
    func session(_ console: Console) throws(SWCredError) -> StoreSession {
        let standardError = CommandContext.current.standardError
        var options = SWCredStore.StoreOptions(allowRollback: allowRollback) { message in
            CommandContext.write(Array("swcred: warning: \(message)\n".utf8), to: standardError)
        }
        if let lockTimeout { options.lockTimeout = .milliseconds(Int((lockTimeout * 1000).rounded())) }
        let provider = { (source: SecretSource?) -> any PassphraseProvider in SecretPassphrase(source: source) }
        return StoreSession(try selection.configuration(options: options, passphrase: provider) { created in
            console.err("swcred: \(created.summary)")
        })
    }
}

/// The passphrase from a ``SecretSource`` (`nil`: the terminal when stdin is one, else
/// `interactionNotAllowed`), for a ``StoreSession``, which asks it at most once.
struct SecretPassphrase: PassphraseProvider {
    let source: SecretSource?

    func passphrase() throws(SWCredError) -> SecureBytes {
        let passphrase = try SecretInput.read(try SecretInput.resolve(source, what: "passphrase"), what: "passphrase")
        TestPausePoint.pauseIfRequested("after-passphrase")
        return passphrase
    }
}
