import ArgumentParser
import FoundationEssentials
import SWCredCore
import SWCredSodium
import SWCredStore

/// `swcred rekey`: moves a store to new key material (store.md §4.7).
///
/// The current key comes from the global options (`--key-file`, `--passphrase-…`); the new one
/// from exactly one of `--new-key-file PATH` (created with 32 random bytes when missing) or
/// `--new-passphrase-stdin|file|fd` with `--kdf` (default `moderate`). The whole file is
/// rewritten under the lock: new salt, sub-keys and nonce, the same store id, generation + 1.
/// Lowering the KDF parameters needs `--allow-weaker` and is reported on stderr.
///
/// JSON: `{"schema","store","keySource","keyFile","kdf","generation"}`.
struct RekeyCommand: StoreSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "rekey", abstract: "Re-encrypt the store under a new key file or passphrase.")

    @OptionGroup var storeOptions: GlobalStoreOptions

    @Option(help: ArgumentHelp("Protect the store with this key file from now on (created when missing).", valueName: "path"))
    var newKeyFile: String?

    @Flag(help: "Read the new passphrase from standard input.")
    var newPassphraseStdin = false

    @Option(help: ArgumentHelp("Read the new passphrase from a file (mode 0600).", valueName: "path"))
    var newPassphraseFile: String?

    @Option(help: ArgumentHelp("Read the new passphrase from an inherited file descriptor.", valueName: "n"))
    var newPassphraseFd: Int32?

    @Option(help: "Argon2id preset for the new passphrase: interactive, moderate (default) or sensitive.")
    var kdf: KDFChoice = .moderate

    @Flag(help: "Allow KDF parameters below the store's current ones (reported on stderr).")
    var allowWeaker = false

    func validate() throws {
        let count = [newKeyFile != nil, newPassphraseStdin, newPassphraseFile != nil, newPassphraseFd != nil]
            .filter { $0 }.count
        guard count == 1 else {
            throw ValidationError("give exactly one of --new-key-file, --new-passphrase-stdin, --new-passphrase-file and --new-passphrase-fd")
        }
        if newPassphraseStdin && storeOptions.passphraseSource == .standardInput {
            throw ValidationError("the current and the new passphrase cannot both come from standard input")
        }
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let newSource: KeySource
        if let newKeyFile {
            newSource = .keyFile(path: newKeyFile)
        } else {
            let input: SecretSource? =
                newPassphraseStdin
                ? .standardInput
                : newPassphraseFile.map { SecretSource.file($0) } ?? newPassphraseFd.map { SecretSource.descriptor($0) }
            guard let input else { throw SWCredError(.usage, "no new key source given") }
            newSource = .passphrase(try SecretInput.read(input, what: "new passphrase"))
        }
        // rekey reads and verifies the whole file under the lock before it writes.
        let rekeyed = try storeOptions.session(console).rekey(
            to: newSource, preset: kdf.preset, allowWeakerParameters: allowWeaker)
        console.emit(KeyChangeResult(rekeyed, kdf: kdf, reportsKeyFileCreation: false)) {
            console.out(rekeyed.usesPassphrase
                ? "rekeyed \(rekeyed.path) to a new passphrase (Argon2id, \(kdf.rawValue))"
                : "rekeyed \(rekeyed.path) to the key file \(newKeyFile ?? "")")
        }
        return .success
    }
}
