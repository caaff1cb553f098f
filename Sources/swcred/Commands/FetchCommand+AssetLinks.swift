import FoundationEssentials
import SWCredCore
import SWCredRetrieval

extension FetchCommand {
    /// `swcred fetch HOST --assetlinks`: the site's `assetlinks.json` and its retrieval report
    /// (DAL-F1…F5, DAL-S1), printed as the AASA fetch prints its file; includes are not followed.
    /// Exit 0 when a device reads the file, 69 when a retrieval rule refused it or the network
    /// failed, 65 when the body is HTML or not a statement list.
    func executeAssetLinks(_ console: Console, configuration: RetrievalConfiguration) async throws -> ExitStatus {
        let result = try await LiveRetrieval.fetchAssetLinks(try FetchTarget(argument: host), configuration: configuration)
        if let body = result.body { try writeBody(body) }
        console.emit(result.report) {
            if output == nil, let body = result.body { console.outBytes(body) }
            Self.printReport(result.report, to: console)
        }
        if let failure = result.report.failure { throw failure.error }
        return .success
    }
}
