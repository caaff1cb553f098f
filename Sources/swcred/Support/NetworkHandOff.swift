import ArgumentParser
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


extension FetchCommand {
    var fetchesOverNetwork: Bool { true }
}

/// Hands a command that fetches to `swcred-fetch` when this program has no HTTPS retrieval.
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

    /// Replaces this process with `swcred-fetch` when `command` fetches and this program cannot.
    ///
    /// - Throws: `internalError` (exit 1) when the sibling is missing or cannot be executed.
    static func runInFetchProgramIfNeeded(_ command: some SWCredSubcommand) throws {
        guard command.fetchesOverNetwork, !LiveRetrieval.isInstalled else {
            return
        }
        try execSibling(arguments: Array(CommandLine.arguments.dropFirst()))
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

    private static func execSibling(arguments: [String]) throws -> Never {
        let sibling = try siblingPath()
        let argv = ([sibling] + arguments).map { strdup($0) } + [nil]
        execv(sibling, argv)
        let failure = errno
        for pointer in argv { free(pointer) }
        let reason = failure == ENOENT ? "it is missing" : String(cString: strerror(failure))
        throw SWCredError(
            .internalError,
            "this command fetches over HTTPS, which swcred hands to \(sibling), but \(reason); "
                + "install \(siblingName) beside swcred (Tools/build-release builds both)")
    }
}
