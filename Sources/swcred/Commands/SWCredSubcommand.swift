import ArgumentParser
import SWCredCore

/// A subcommand whose domain errors are caught once, printed in the chosen format, and turned
/// into the exit code of `spec/cli.md`.
///
/// Conformers implement ``execute(_:)`` and return the exit status for outcomes that are not
/// errors (for example `match` returns 1 for no match, `verify` 10 for not trusted).
protocol SWCredSubcommand: AsyncParsableCommand {
    /// The `--format` of this command line.
    var outputFormat: OutputFormat { get }
    /// Whether this parsed command line fetches over the network, so that the `swcred` executable,
    /// which links no network code, hands it to `swcred-fetch` (``NetworkHandOff``). A static
    /// requirement, not a dynamic cast: a cast to a protocol existential scans every conformance
    /// record of the binary at the first use, on every command's start.
    var fetchesOverNetwork: Bool { get }
    /// Whether this parsed command line reads a signed artifact (`--app PATH`, `entitlements
    /// PATH` on an artifact), whose readers `swcred` does not link either (issue 31).
    var readsSignedArtifacts: Bool { get }
    func execute(_ console: Console) async throws -> ExitStatus
}

extension SWCredSubcommand {
    /// Most commands never fetch (``SourceSelectingCommand`` decides from the source options).
    var fetchesOverNetwork: Bool { false }
    /// Most commands read no artifact (``AppSelectingCommand`` decides from `--app`).
    var readsSignedArtifacts: Bool { false }

    mutating func run() async throws {
        let console = Console(format: outputFormat)
        let status: ExitStatus
        do {
            try NetworkHandOff.runInFullProgramIfNeeded(self)
            status = try await execute(console)
        } catch let error as SWCredError {
            console.report(error)
            status = ExitStatus(error.code)
        } catch let error as ExitCode {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch let error as ValidationError {
            console.report(SWCredError(.usage, error.message))
            status = .usage
        } catch {
            console.report(SWCredError(.internalError, "unexpected error: \(error)"))
            status = .failure
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
