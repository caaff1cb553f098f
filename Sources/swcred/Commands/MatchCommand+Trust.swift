import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// The entitlement path of the bulk form of `match` (`spec/cli.md`: "With `--entitlements` and a
/// source (`--aasa-dir`, `--direct`, `--cdn`), each host's file is obtained once and reused").
///
/// Every URL is decided by the library's ``LinkResolver/Session``, the procedure of the single form
/// (section 8 with section 7) with the covering entries looked up once per host and each (origin,
/// route) file retrieved, parsed and compiled once per run, both caches bounded like the
/// `--aasa-dir` one (``MatchCommand/maximumHosts``). What this file adds is the command's side:
/// each file's warnings on stderr, the error object of a URL whose file could not be obtained,
/// and the per-file cache of rule JSON.
///
/// **Decision (a file that cannot be obtained).** As in `verify`, a failed retrieval is a
/// result, not the end of the run: it is warned about once on stderr (with Apple's error domain
/// and code), and every URL that needed that file and opened nothing gets `no_match` (what a
/// device does without the file) plus an `error` object naming the failure (`fetchRefused` for a
/// retrieval rule: redirect, status, size; `fetchFailed` for the network: TLS, timeout; or the
/// parse error's code). The run goes on, the summary counts those URLs as `unretrieved`, and the
/// exit code stays the one cli.md gives the bulk form: 0 when the run finished (1 under a failed
/// `--expect`, 65 after an invalid line). Exit 69 is not used here, because the run did finish and
/// `verify`, the other command that fetches many files, reports a failed fetch in its output too.
extension MatchCommand {
    /// What the entitlement path decided for one URL.
    struct TrustDecision {
        var result: ApplinksMatch
        var ruleIndex: Int?
        /// The file that decided (its rule texts are cached), if any.
        var file: HostFile?
        var entitlement: String?
        /// Why a file this URL needed could not be used, when the URL opened nothing.
        var problem: SWCredError?
    }

    /// The entitlement path: a ``LinkResolver/Session`` and the command's view of its files.
    final class TrustResolver {
        let session: LinkResolver.Session

        var appID: String { session.app.appID }
        var retrievals: Int { session.retrievals }

        init(app: AppIdentity, evaluator: TrustEvaluator, console: Console) {
            session = LinkResolver.Session(app: app, evaluator: evaluator, maximumHosts: MatchCommand.maximumHosts)
            let appID = app.appID
            // The command's view of each file (warnings said once, rule JSON cached) stays with it.
            session.onFile = { file in file.attachment = Self.view(of: file, appID: appID, console: console) }
        }

        /// Decides `url` for the app.
        func decide(_ url: LinkURLView) async -> TrustDecision {
            let decided = await session.decide(url)
            return TrustDecision(
                result: decided.result, ruleIndex: decided.ruleIndex, file: decided.file.flatMap(view(of:)),
                entitlement: decided.entitlement, problem: decided.unusable.flatMap(view(of:))?.problem)
        }

        private func view(of file: LinkResolver.CompiledFile) -> HostFile? { file.attachment as? HostFile }

        /// The command's view of a newly compiled file; its warnings go to stderr once.
        private static func view(of file: LinkResolver.CompiledFile, appID: String, console: Console) -> HostFile {
            let retrieval = file.retrieval
            for diagnostic in retrieval.retrieved.diagnostics where diagnostic.severity != .note {
                console.warn("\(file.aasaHost): \(diagnostic.labelledMessage)")
            }
            guard let parsed = retrieval.file else {
                let problem = retrieval.error(for: file.request)
                console.warn(problem.message)
                return HostFile(automaton: nil, aasaHost: file.aasaHost, problem: problem)
            }
            for diagnostic in parsed.diagnostics where diagnostic.severity != .note {
                console.warn("\(file.aasaHost): \(diagnostic.labelledMessage)")
            }
            if !file.associated {
                console.warn("\(file.aasaHost)'s file does not associate \(appID)")
            }
            return HostFile(automaton: file.automaton, aasaHost: file.aasaHost, associated: file.associated)
        }

        /// Every file kept or retired, for the summary's unused rules (sorted by origin).
        var allFiles: [(String, HostFile)] {
            session.allFiles.compactMap { file in view(of: file).map { (file.request.authority, $0) } }
        }
    }
}
