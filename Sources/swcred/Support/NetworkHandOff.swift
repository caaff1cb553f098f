import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

#if canImport(Glibc)
import Glibc
#endif

extension SourceOptions {
    /// Whether these options select a live source (`--direct` or `--cdn` without `--aasa-dir`,
    /// which wins, as in ``selection(cdnBaseURL:)``).
    var selectsLiveSource: Bool { aasaDir == nil && (direct || cdn) }
}

/// A command whose association source options decide whether it fetches.
protocol SourceSelectingCommand: SWCredSubcommand {
    var source: SourceOptions { get }
}

extension SourceSelectingCommand {
    var fetchesOverNetwork: Bool { source.selectsLiveSource }
}

extension VerifyCommand: SourceSelectingCommand {}
extension MatchCommand: SourceSelectingCommand {}
extension AssociationsCommand: SourceSelectingCommand {}
extension AddCommand: SourceSelectingCommand {}
extension RequestCommand: SourceSelectingCommand {}
extension BatchCommand: SourceSelectingCommand {}


/// A command whose app options decide whether it reads a signed artifact (`--app PATH`).
protocol AppSelectingCommand: SWCredSubcommand {
    var app: AppOptions { get }
}

extension AppSelectingCommand {
    var readsSignedArtifacts: Bool { app.appPath != nil }
}

extension VerifyCommand: AppSelectingCommand {}
extension MatchCommand: AppSelectingCommand {}
extension AssociationsCommand: AppSelectingCommand {}
extension AddCommand: AppSelectingCommand {}
extension RequestCommand: AppSelectingCommand {}
extension BatchCommand: AppSelectingCommand {}
extension PasskeyImportCommand: AppSelectingCommand {}

extension EntitlementsCommand {
    /// `entitlements PATH` on a signed artifact (by name, folder or first bytes).
    var readsSignedArtifacts: Bool { SignedArtifactSniff.kind(path: file) != nil }
}

extension FetchCommand {
    var fetchesOverNetwork: Bool { true }
}

/// Hands a command that needs the full program to `swcred-fetch`: one that fetches, when this
/// program has no HTTPS retrieval, and one that reads a signed artifact, when it has no artifact
/// reader (``SignedApps``). `swcred` has neither; `swcred-fetch` installs both.
///
/// The hand-off is an `execv` of the sibling, found next to this program's own file
/// (`/proc/self/exe`), with this process's argv: stdin, the other descriptors
/// (`--passphrase-fd`) and the environment are inherited, and nothing is added to argv, so no
/// secret goes on it. It happens after parsing and before the command reads anything. A program
/// with HTTPS retrieval installed (``LiveRetrieval/isInstalled``: `swcred-fetch` itself, the tests
/// in process) runs the command as it is.
enum NetworkHandOff {
    /// The sibling executable's file name.
    static let siblingName = "swcred-fetch"

    /// Whether `command` needs what this program lacks: the one decision of the hand-off.
    static func needsFullProgram(_ command: some SWCredSubcommand) -> Bool {
        (command.fetchesOverNetwork && !LiveRetrieval.isInstalled)
            || (command.readsSignedArtifacts && !SignedApps.isInstalled)
    }

    /// Replaces this process with `swcred-fetch` when `command` needs what this program lacks.
    ///
    /// - Throws: `internalError` (exit 1) when the sibling is missing or cannot be executed.
    static func runInFullProgramIfNeeded(_ command: some SWCredSubcommand) throws {
        guard needsFullProgram(command) else { return }
        try execSibling(arguments: Array(CommandLine.arguments.dropFirst()), reads: command.readsSignedArtifacts)
    }

    /// The path of `swcred-fetch` beside this program's own file.
    static func siblingPath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else {
            throw SWCredError(
                .internalError,
                "cannot find this program's own file to start \(siblingName) (/proc/self/exe: errno \(errno))")
        }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return directory + "/" + siblingName
    }

    private static func execSibling(arguments: [String], reads: Bool) throws -> Never {
        let sibling = try siblingPath()
        let argv = ([sibling] + arguments).map { strdup($0) } + [nil]
        execv(sibling, argv)
        let failure = errno
        for pointer in argv { free(pointer) }
        let reason = failure == ENOENT ? "it is missing" : String(cString: strerror(failure))
        throw SWCredError(
            .internalError,
            "this command \(reads ? "reads a signed app" : "fetches over HTTPS"), which swcred hands to \(sibling), "
                + "but \(reason); "
                + "install \(siblingName) beside swcred (Tools/build-release builds both)")
    }
}
