extension RuleID {
    /// The lint id (`SWC2nn`) under which `swcred lint` reports this asset-links rule, so that an
    /// `assetlinks.json` finding keeps lint's shape (`"id":"SWC203"`) and adds its `"rule"`
    /// (`"DAL-S3"`, cli.md). Structure rules DAL-Sn are SWC20n, retrieval rules DAL-Fn SWC21n,
    /// include rules DAL-In SWC22n, query rules DAL-Qn SWC23n; for `/.well-known/webauthn` files
    /// ROR-Sn SWC24n, ROR-Ln SWC25n, ROR-Fn SWC26n; `nil` for a rule lint never reports.
    package var lintID: String? {
        let text = rawValue
        guard text.count == 6, let digit = text.last, digit.isNumber else { return nil }
        let group: Character
        switch (text.prefix(4), text.dropFirst(4).first) {
        case ("DAL-", "S"): group = "0"
        case ("DAL-", "F"): group = "1"
        case ("DAL-", "I"): group = "2"
        case ("DAL-", "Q"): group = "3"
        case ("ROR-", "S"): group = "4"
        case ("ROR-", "L"): group = "5"
        case ("ROR-", "F"): group = "6"
        default: return nil
        }
        return "SWC2\(group)\(digit)"
    }

    /// The asset-links rules `swcred lint` reports (`AssetLinksLinter`), in case order.
    package static let lintedAssetLinksRules: [RuleID] = [
        .dalF3, .dalF5, .dalS1, .dalS2, .dalS3, .dalS4, .dalS5, .dalS6, .dalS7, .dalS8, .dalS9, .dalI1, .dalQ4,
    ]

    /// The related-origins rules `swcred lint` reports (`RelatedOriginsLinter`), in case order.
    package static let lintedRelatedOriginsRules: [RuleID] = [.rorF3, .rorS1, .rorS2, .rorL1, .rorL2, .rorL3]
}
