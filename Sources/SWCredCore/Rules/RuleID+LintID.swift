extension RuleID {
    /// The lint id (`SWC2nn`) under which `swcred lint` reports this asset-links rule, so that an
    /// `assetlinks.json` finding keeps lint's shape (`"id":"SWC203"`) and adds its `"rule"`
    /// (`"DAL-S3"`, cli.md). Structure rules DAL-Sn are SWC20n, retrieval rules DAL-Fn SWC21n,
    /// include rules DAL-In SWC22n, query rules DAL-Qn SWC23n; `nil` for a rule lint never reports.
    package var lintID: String? {
        let text = rawValue
        guard text.hasPrefix("DAL-"), text.count == 6, let digit = text.last, digit.isNumber else { return nil }
        let group: Character
        switch text.dropFirst(4).first {
        case "S": group = "0"
        case "F": group = "1"
        case "I": group = "2"
        case "Q": group = "3"
        default: return nil
        }
        return "SWC2\(group)\(digit)"
    }

    /// The asset-links rules `swcred lint` reports (`AssetLinksLinter`), in case order.
    package static let lintedAssetLinksRules: [RuleID] = [
        .dalF3, .dalF5, .dalS1, .dalS2, .dalS3, .dalS4, .dalS5, .dalS6, .dalS7, .dalS8, .dalS9, .dalI1, .dalQ4,
    ]
}
