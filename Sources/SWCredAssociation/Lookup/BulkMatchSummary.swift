/// Counts of a bulk run (``BulkMatcher``): the closing `summary` object of bulk `match`
/// (`spec/cli.md`), its keys sorted by the encoder.
package struct BulkMatchSummary: Encodable {
    /// One app's decided URLs.
    package struct AppCounts: Encodable {
        package var match = 0
        package var exclude = 0
    }

    /// A rule no URL of the run reached, with the host whose file holds it (`nil` for `--aasa`).
    package struct UnusedRule: Encodable {
        package let host: String?
        package let rule: MatchedRule

        private enum Keys: String, CodingKey { case aasaHost, detail, component, key, pattern }
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(host, forKey: .aasaHost)
            try c.encode(rule.detail, forKey: .detail)
            try c.encode(rule.component, forKey: .component)
            try c.encode(rule.key, forKey: .key)
            try c.encode(rule.pattern, forKey: .pattern)
        }
    }

    /// URLs decided (invalid lines excluded; the JSON `urls` counts them too).
    package var urls = 0
    package var match = 0
    package var exclude = 0
    package var noMatch = 0
    /// Lines that are not a usable URL (too long, not UTF-8, not an http(s) URL).
    package var invalid = 0
    /// URLs decided without a file they needed (entitlement path: retrieval failed).
    package var unretrieved = 0
    package var byApp: [String: AppCounts] = [:]
    /// Filled when the run ends (``BulkMatcher/finish()``).
    package var unusedRules: [UnusedRule] = []

    package init() {}

    /// URLs decided (invalid lines excluded).
    package var total: Int { match + exclude + noMatch }

    /// URLs decided with `outcome`.
    package func count(of outcome: MatchOutcome) -> Int {
        switch outcome {
        case .match: match
        case .exclude: exclude
        case .noMatch: noMatch
        }
    }

    /// Counts one decided URL.
    package mutating func count(_ result: ApplinksMatch) {
        urls += 1
        switch result.outcome {
        case .match:
            match += 1
            if let app = result.appID { byApp[app, default: AppCounts()].match += 1 }
        case .exclude:
            exclude += 1
            if let app = result.appID { byApp[app, default: AppCounts()].exclude += 1 }
        case .noMatch: noMatch += 1
        }
    }

    private enum Keys: String, CodingKey {
        case urls, match, exclude, noMatch = "no_match", invalid, unretrieved, byApp, unusedRules
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(urls + invalid, forKey: .urls)
        try c.encode(match, forKey: .match)
        try c.encode(exclude, forKey: .exclude)
        try c.encode(noMatch, forKey: .noMatch)
        try c.encode(invalid, forKey: .invalid)
        try c.encode(unretrieved, forKey: .unretrieved)
        try c.encode(byApp, forKey: .byApp)
        try c.encode(unusedRules, forKey: .unusedRules)
    }
}
