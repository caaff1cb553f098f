import ArgumentParser
import SWCredCore
import SWCredStore

/// The `DOMAIN` argument of `add`, `show` and `delete`: the site, `HOST` or `HOST:PORT`.
struct SiteArgument: ParsableArguments {
    @Argument(help: "The site: HOST or HOST:PORT.")
    var domain: String

    /// The site, canonicalised as the store keeps servers (``SiteName``).
    /// - Throws: `invalidParameter` (50).
    func parsed() throws(SWCredError) -> SiteName {
        try SiteName(domain)
    }
}
