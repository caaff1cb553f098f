import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// ``StoreSelection``: cli.md's "Global store options" precedence (an option wins over its
/// environment variable, both over the XDG defaults).
@Suite("Store selection: options, environment, defaults")
struct StoreSelectionTests {
    struct Provider: PassphraseProvider {
        let source: SecretSource?
        func passphrase() throws(SWCredError) -> SecureBytes { try SecureBytes(copying: Array("x".utf8)) }
    }

    static let environment = [
        "HOME": "/home/u", "SWCRED_STORE": "/env/store", "SWCRED_KEY_FILE": "/env/key",
        "SWCRED_PASSPHRASE_FILE": "/env/pass", "XDG_STATE_HOME": "/state",
    ]

    @Test("The process environment read from environ's bytes equals Foundation's ProcessInfo environment")
    func processEnvironment() {
        // No setenv here: the suite's other tests read the environment on other threads.
        let environment = StorePaths.processEnvironment
        #expect(!environment.isEmpty)
        #expect(environment == ProcessInfo.processInfo.environment)
    }

    @Test("cli.md: options win over SWCRED_STORE and SWCRED_KEY_FILE; SWCRED_PASSPHRASE_FILE yields to --key-file")
    func optionsWin() throws {
        let selection = StoreSelection(
            store: "/opt/store", keyFile: "/opt/key", passphrase: nil, environment: Self.environment)
        #expect(selection.passphraseSource == nil)
        #expect(selection.keyFileIsExplicit)
        let configuration = try selection.configuration(options: StoreOptions(), passphrase: { Provider(source: $0) })
        #expect(configuration.path == "/opt/store")
        #expect(configuration.keyFilePath == "/opt/key")
        #expect(configuration.passphrase == nil)
        #expect(configuration.options.stateDirectory == "/state/swcred")
    }

    @Test("cli.md: the variables apply without options, SWCRED_PASSPHRASE_FILE selecting passphrase mode")
    func environmentApplies() throws {
        let selection = StoreSelection(store: nil, keyFile: nil, passphrase: nil, environment: Self.environment)
        #expect(selection.passphraseSource == .file("/env/pass"))
        let configuration = try selection.configuration(options: StoreOptions(), passphrase: { Provider(source: $0) })
        #expect(configuration.path == "/env/store")
        #expect(configuration.keyFilePath == "/env/key")
        #expect((configuration.passphrase as? Provider)?.source == .file("/env/pass"))
        #expect((configuration.passphraseFallback as? Provider)?.source == nil)
    }

    @Test("cli.md: a passphrase option wins over SWCRED_PASSPHRASE_FILE; no variables: the XDG defaults")
    func defaults() throws {
        let selection = StoreSelection(
            store: nil, keyFile: nil, passphrase: .descriptor(3), environment: ["HOME": "/home/u"])
        #expect(selection.passphraseSource == .descriptor(3))
        #expect(!selection.keyFileIsExplicit)
        let configuration = try selection.configuration(options: StoreOptions(), passphrase: { Provider(source: $0) })
        #expect(configuration.path == "/home/u/.local/share/swcred/keychain.swcred")
        #expect(configuration.keyFilePath == "/home/u/.config/swcred/keychain.key")
    }
}
