import Testing
@testable import SWCredStore

/// ``SecretArguments``: options that would carry a secret on argv are found before any parser
/// echoes them (store.md §8, T10).
@Suite("Secret arguments on the command line")
struct SecretArgumentsTests {
    @Test(
        "store.md §8: an option named like a secret, or a source flag with an inline value, is refused",
        arguments: [
            (["add", "a.example", "alice", "--password", "hunter2"], "--password"),
            (["add", "a.example", "alice", "--password=hunter2"], "--password"),
            (["init", "--Passphrase=x"], "--passphrase"),
            (["x", "--pw", "y"], "--pw"),
            (["x", "--pass=y"], "--pass"),
            (["x", "--api-secret", "y"], "--api-secret"),
            (["x", "--db-passwd=y"], "--db-passwd"),
            (["add", "a.example", "alice", "--password-stdin=yes"], "--password-stdin"),
        ])
    func refused(arguments: [String], name: String) {
        #expect(SecretArguments.offendingOption(in: arguments) == name)
    }

    @Test(
        "store.md §8: sources of a secret, other options and anything after -- pass",
        arguments: [
            ["add", "a.example", "alice", "--password-stdin"],
            ["add", "a.example", "alice", "--password-file", "pw"],
            ["add", "a.example", "alice", "--password-file=pw"],
            ["list", "--passphrase-fd", "3", "--passphrase-file=p"],
            ["rekey", "--new-passphrase-stdin", "--new-passphrase-fd=4", "--new-passphrase-file", "n"],
            ["show", "a.example", "--", "--password=x"],
            ["show", "password.example", "passphrase"],
        ])
    func allowed(arguments: [String]) {
        #expect(SecretArguments.offendingOption(in: arguments) == nil)
    }
}
