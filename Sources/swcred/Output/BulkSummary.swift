import ArgumentParser
import Foundation
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// Counts of a bulk run: the closing `summary` object.
struct BulkSummary: Encodable {
    struct AppCounts: Encodable {
        var match = 0
        var exclude = 0
    }

    struct UnusedRule: Encodable {
        let host: String?
        let rule: MatchedRule

        private enum Keys: String, CodingKey { case aasaHost, detail, component, key, pattern }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(host, forKey: .aasaHost)
            try c.encode(rule.detail, forKey: .detail)
            try c.encode(rule.component, forKey: .component)
            try c.encode(rule.key, forKey: .key)
            try c.encode(rule.pattern, forKey: .pattern)
        }
    }

    var urls = 0
    var match = 0
    var exclude = 0
    var noMatch = 0
    var invalid = 0
    /// URLs decided without a file they needed (entitlement path: retrieval failed).
    var unretrieved = 0
    var byApp: [String: AppCounts] = [:]
    var unusedRules: [UnusedRule] = []

    /// URLs decided (invalid lines excluded).
    var total: Int { match + exclude + noMatch }

    func count(of outcome: MatchOutcome) -> Int {
        switch outcome {
        case .match: match
        case .exclude: exclude
        case .noMatch: noMatch
        }
    }

    mutating func count(_ result: ApplinksMatch) {
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

    func encode(to encoder: any Encoder) throws {
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
