package import SWCredCore

/// Something wrong with a statement list or one of its elements, as a verifier meets it: the
/// rule, Google's error code, where (the list's URL and the JSON path), and what.
package struct AssetLinksProblem: Sendable, Hashable, CustomStringConvertible {
    /// The rule of asset-links.md (`DAL-S3`).
    package var rule: RuleID
    /// Google's API error code for it; `nil` when only the Android verifier objects.
    package var code: AssetLinksErrorCode?
    /// The list it was met in (empty for the list given directly).
    package var url: String
    /// The JSON path inside that list (`[2].target.site`), empty for the whole list.
    package var path: String
    /// One sentence for a person.
    package var message: String

    /// Creates a problem.
    package init(_ rule: RuleID, _ code: AssetLinksErrorCode?, url: String = "", path: String = "", _ message: String) {
        self.rule = rule
        self.code = code
        self.url = url
        self.path = path
        self.message = message
    }

    /// `DAL-S3 url path: message`.
    package var description: String {
        let place = [url, path].filter { !$0.isEmpty }.joined(separator: " ")
        return "\(rule.rawValue)\(place.isEmpty ? "" : " \(place)"): \(message)"
    }
}
