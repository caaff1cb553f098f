import FoundationEssentials
import SWCredCore
import SWCredRetrieval

extension FetchCommand {
    /// `swcred fetch HOST --webauthn`: the RP ID's `/.well-known/webauthn` under
    /// ``RelatedOriginsRetrievalRules`` (https-only redirects followed and reported, 256 KiB,
    /// `application/json`), printed as `fetch` prints an AASA file: the body (text mode, or `-o`)
    /// and the report. Exit 0 when a client would read it, 69 when a rule refused it.
    func executeWebAuthn(_ console: Console, configuration: RetrievalConfiguration) async throws -> ExitStatus {
        guard case .host(let site) = try FetchTarget(argument: host) else {
            throw SWCredError(.fetchRefused, "\(host.prefix(200)): the file is fetched over https only (ROR-F1)")
        }
        let rules = RelatedOriginsRetrievalRules()
        let url = RelatedOriginsRetrievalRules.url(rpID: site.authority)
        let result = try await LiveRetrieval.withFetcher(configuration: rules.configuration(configuration)) {
            fetcher in
            await fetcher.fetch(url: url, route: .wellKnownOnly, allowUserInstalledRoots: true)
        }
        let report = rules.report(result)
        if let body = result.body, report.accepted { try writeBody(body) }
        console.emit(report) {
            if output == nil, report.accepted, let body = result.body { console.outBytes(body) }
            Self.printReport(report, to: console)
        }
        if let failure = report.failure { throw failure.error }
        return .success
    }
}
