package import SWCredCore

/// One finding of ``AssociationLinter``, ``EntitlementsLinter`` or ``AssetLinksLinter``: the
/// element of `swcred lint`'s JSON.
package struct LintFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A stable identifier (`SWC…`; `SWC2nn` for an `assetlinks.json` finding); never renumbered.
    package var id: String
    /// How serious it is.
    package var severity: DiagnosticSeverity
    /// The JSON path of the offending value (`applinks.details[0].components[2]`), empty for the whole file.
    package var path: String
    /// What is wrong.
    package var message: String
    /// How to fix it.
    package var help: String
    /// The JSON path of the other value a finding is about, when there is one: for a rule that is
    /// never reached (`SWC114`), the earlier rule that takes its URLs. Absent from JSON when `nil`.
    package var related: String?
    /// The specification rule the finding applies (`DAL-S3`), for files whose specification names
    /// its rules (`assetlinks.json`, cli.md "findings keep the lint shape and add rule"). Absent
    /// from JSON when `nil`.
    package var rule: RuleID?

    // Findings are made only in this module (the linters' collectors), with the memberwise
    // initializer the compiler writes: id, severity, path, message, help, related and rule
    // (default nil).

    /// `SWC… severity path: message`, with the rule after the id when there is one
    /// (`SWC203 DAL-S3 error [0].relation[0]: …`).
    package var description: String {
        "\(id)\(rule.map { " \($0.rawValue)" } ?? "") \(severity.rawValue)\(path.isEmpty ? "" : " \(path)"): \(message)"
    }
}

/// The stable lint rule identifiers.
package enum LintRule: String, Sendable, CaseIterable {
    case tooLarge = "SWC001"
    case invalidJSON = "SWC002"
    case topLevelNotObject = "SWC003"
    case byteOrderMark = "SWC004"
    case duplicateKey = "SWC005"
    case signedFile = "SWC006"
    case emptyFile = "SWC007"
    case unknownService = "SWC010"
    case sectionNotObject = "SWC011"
    case appsNotArray = "SWC012"
    case appsNonString = "SWC013"
    case badAppID = "SWC014"
    case detailsOutsideApplinks = "SWC015"
    case noServices = "SWC016"
    case applinksAppsNotEmpty = "SWC020"
    case applinksAppsLegacy = "SWC021"
    case detailsMissing = "SWC022"
    case detailsDictionary = "SWC023"
    case detailNotObject = "SWC024"
    case detailNoApp = "SWC025"
    case appIDIgnored = "SWC026"
    case appIDsNotArray = "SWC027"
    case pathsBesideComponents = "SWC028"
    case pathsDeprecated = "SWC029"
    case componentsNotArray = "SWC030"
    case componentNotObject = "SWC031"
    case patternNotString = "SWC032"
    case queryNonString = "SWC033"
    case excludeNotBoolean = "SWC034"
    case flagNotBoolean = "SWC035"
    case unknownKey = "SWC036"
    case undefinedVariable = "SWC037"
    case variableShadowsBuiltIn = "SWC038"
    case badSubstitutionVariables = "SWC039"
    case pathNotString = "SWC040"
    case notPrefixMisspelled = "SWC041"
    case nonASCIIPattern = "SWC045"
    case noRules = "SWC046"
    case badHost = "SWC050"
    case availability = "SWC060"
    // Issue 21: what real files get wrong (SWC111…SWC119; SWC117 is an entitlements id).
    case componentMatchesEverything = "SWC111"
    case serviceMisplaced = "SWC112"
    case appsEmpty = "SWC113"
    case ruleNeverReached = "SWC114"
    case queryInLegacyPath = "SWC115"
    case urlInPattern = "SWC116"
    case otherUnicodeEncoding = "SWC118"
    case placeholderAppID = "SWC119"
}
