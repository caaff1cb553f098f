import SWCredCore

/// Validates an apple-app-site-association file and reports findings with stable ids, JSON paths
/// and help (`swcred lint`).
///
/// The linter never throws: a file that does not parse gives an error finding. The matcher's
/// behaviour for each problem is described in the finding (for example, a query dictionary with
/// a non-string value is ignored as a whole, AD-7.9).
///
/// ```swift
/// let findings = AssociationLinter().lint(bytes)
/// let failed = findings.contains { $0.severity == .error }
/// ```
public struct AssociationLinter: Sendable {
    /// Limits used for parsing.
    public var limits: AssociationFile.Limits

    /// Creates a linter.
    public init(limits: AssociationFile.Limits = .init()) { self.limits = limits }

    private struct Collector {
        var findings: [LintFinding] = []
        mutating func add(
            _ rule: LintRule, _ severity: DiagnosticSeverity, _ path: String, _ message: String,
            _ help: String
        ) {
            findings.append(
                LintFinding(id: rule.rawValue, severity: severity, path: path, message: message, help: help))
        }
    }

    static let topLevelKeys = ["applinks", "webcredentials", "appclips", "activitycontinuation", "authsrv"]
    static let applinksKeys = ["apps", "details", "defaults", "substitutionVariables"]
    static let detailKeys = ["appID", "appIDs", "components", "paths", "defaults"]
    static let componentKeys = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]
    static let defaultsKeys = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded"]
    /// AD-3.7: the first systems that honour a key (validator hints only).
    static let availability = [
        "caseSensitive": "iOS 13.5 / macOS 10.15.6", "percentEncoded": "iOS 14 / macOS 11",
    ]

    /// Lints a file body.
    ///
    /// - Parameters:
    ///   - bytes: the file as served.
    ///   - host: the host the file is served for, if known (checked for ASCII / Punycode form).
    /// - Returns: the findings in document order.
    public func lint(_ bytes: [UInt8], host: String? = nil) -> [LintFinding] {
        var c = Collector()
        if let host {
            if !host.unicodeScalars.allSatisfy(\.isASCII) {
                c.add(
                    .badHost, .error, "", "the host '\(host)' is not ASCII",
                    "use the Punycode form '\(Punycode.asciiHost(host) ?? "xn--…")' in entitlements and URLs")
            } else if let problem = EntitlementEntry.hostProblem(host.lowercased(), wildcard: false, modes: []) {
                c.add(
                    .badHost, .error, "", "the host '\(host)' is not valid: \(problem)", "pass a fully qualified host")
            }
        }
        if bytes.isEmpty {
            c.add(.emptyFile, .error, "", "the file is empty", "serve a JSON object")
            return c.findings
        }
        if bytes.count > limits.maximumBytes {
            c.add(
                .tooLarge, .error, "",
                "the file is \(bytes.count) bytes; devices reject files over \(limits.maximumBytes) bytes",
                "keep the uncompressed file at most 128 KB, e.g. with appIDs, defaults and substitution variables")
            return c.findings
        }
        let file: AssociationFile
        do {
            file = try AssociationFile.parse(bytes, limits: limits)
        } catch {
            let notObject = error.message.contains("top level")
            c.add(
                notObject ? .topLevelNotObject : .invalidJSON, .error, "", error.message,
                notObject
                    ? "the top level must be an object keyed by service" : "fix the JSON syntax (strict JSON, UTF-8)")
            return c.findings
        }
        if file.wasSigned {
            c.add(
                .signedFile, .warning, "", "the file is signed (PKCS#7); signing is deprecated",
                "serve plain JSON as application/json")
        }
        if file.hadByteOrderMark {
            c.add(
                .byteOrderMark, .warning, "", "the file starts with a UTF-8 byte-order mark",
                "save the file as UTF-8 without BOM")
        }
        for duplicate in file.duplicateKeys {
            c.add(
                .duplicateKey, .warning, JSONPath.child(duplicate.path, duplicate.key),
                "key '\(duplicate.key)' appears more than once; the last one wins", "remove the earlier duplicate")
        }
        lintTopLevel(file.root, into: &c)
        return c.findings
    }

    private func lintTopLevel(_ root: JSONObject, into c: inout Collector) {
        var anyService = false
        for member in root.effectiveMembers {
            let path = JSONPath.child("", member.key)
            switch member.key {
            case "applinks":
                anyService = true
                guard let section = member.value.objectValue else {
                    c.add(
                        .sectionNotObject, .error, path, "applinks is \(member.value.typeName), not an object",
                        "use {\"details\": [...]}")
                    continue
                }
                lintApplinks(section, into: &c)
            case "webcredentials", "appclips", "activitycontinuation", "authsrv":
                anyService = true
                lintAppsSection(member.key, member.value, path: path, into: &c)
            default:
                if let near = Self.nearMiss(member.key, Self.topLevelKeys) {
                    c.add(
                        .unknownService, .warning, path, "unknown service '\(member.key)' is ignored",
                        "did you mean '\(near)'?")
                } else {
                    c.add(
                        .unknownService, .note, path, "unknown top-level key '\(member.key)' is ignored",
                        "remove it unless another consumer needs it")
                }
            }
        }
        if !anyService {
            c.add(
                .noServices, .error, "",
                "the file names no service (applinks, webcredentials, appclips, activitycontinuation)",
                "add a service section such as {\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}")
        }
    }

    private func lintAppsSection(_ name: String, _ value: JSONValue, path: String, into c: inout Collector) {
        guard let section = value.objectValue else {
            c.add(
                .sectionNotObject, .error, path, "\(name) is \(value.typeName), not an object",
                "use {\"apps\": [\"ABCDE12345.com.example.app\"]}")
            return
        }
        for member in section.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            switch member.key {
            case "apps":
                guard let apps = member.value.arrayValue else {
                    c.add(
                        .appsNotArray, .error, memberPath, "\(name).apps is \(member.value.typeName), not an array",
                        "list app IDs in an array")
                    continue
                }
                lintAppIDList(apps, path: memberPath, into: &c)
            case "details":
                c.add(
                    .detailsOutsideApplinks, .note, memberPath, "details is ignored in \(name)",
                    "the details dictionary only applies to applinks")
            default:
                let near = Self.nearMiss(member.key, ["apps"])
                c.add(
                    .unknownKey, near == nil ? .note : .warning, memberPath, "unknown key '\(member.key)' is ignored",
                    near.map { "did you mean '\($0)'?" } ?? "remove it")
            }
        }
        if section["apps"] == nil {
            c.add(
                .appsNotArray, .error, path, "\(name) has no apps array, so it lists no app",
                "add \"apps\": [\"<prefix>.<bundle id>\"]")
        }
    }

    private func lintAppIDList(_ apps: [JSONValue], path: String, into c: inout Collector) {
        for (index, element) in apps.enumerated() {
            let elementPath = JSONPath.element(path, index)
            guard let appID = element.stringValue else {
                c.add(
                    .appsNonString, .error, elementPath, "app ID is \(element.typeName), not a string; it is ignored",
                    "write app IDs as strings")
                continue
            }
            lintAppID(appID, path: elementPath, into: &c)
        }
    }

    private func lintAppID(_ appID: String, path: String, into c: inout Collector) {
        guard !AppIdentity.isWellFormed(appID) else { return }
        c.add(
            .badAppID, .error, path, "'\(appID)' is not shaped like an app ID (<10-character prefix>.<bundle id>)",
            "use the exact application-identifier, e.g. ABCDE12345.com.example.app (case-sensitive)")
    }

    private func lintApplinks(_ section: JSONObject, into c: inout Collector) {
        let variables = ApplinksMatcher.substitutionVariables(section)
        for member in section.effectiveMembers {
            let path = JSONPath.child("applinks", member.key)
            switch member.key {
            case "apps":
                if let apps = member.value.arrayValue, !apps.isEmpty {
                    c.add(
                        .applinksAppsNotEmpty, .warning, path, "applinks.apps is not empty; its content is ignored",
                        "use an empty array (needed only for iOS 12 and earlier) or remove it")
                } else if member.value.arrayValue == nil {
                    c.add(
                        .applinksAppsNotEmpty, .warning, path,
                        "applinks.apps is \(member.value.typeName); it is ignored",
                        "use an empty array or remove it")
                }
            case "details":
                lintDetails(member.value, path: path, variables: variables, into: &c)
            case "defaults":
                c.add(
                    .availability, .note, path, "'defaults' needs iOS 14 / macOS 11; older systems ignore it",
                    "check the systems you support (AD-3.7)")
                lintDefaults(member.value, path: path, variables: variables, into: &c)
            case "substitutionVariables":
                c.add(
                    .availability, .note, path,
                    "'substitutionVariables' needs iOS 13.5 / macOS 10.15.6; older systems ignore it",
                    "check the systems you support (AD-3.7)")
                lintSubstitutionVariables(member.value, path: path, into: &c)
            default:
                let near = Self.nearMiss(member.key, Self.applinksKeys)
                c.add(
                    .unknownKey, near == nil ? .note : .warning, path, "unknown key '\(member.key)' is ignored",
                    near.map { "did you mean '\($0)'?" } ?? "remove it")
            }
        }
        if section["details"] == nil {
            c.add(
                .detailsMissing, .error, "applinks", "applinks has no details, so no URL opens an app",
                "add \"details\": [{\"appIDs\": [...], \"components\": [...]}]")
        }
    }

    private func lintDetails(_ value: JSONValue, path: String, variables: [String: [String]], into c: inout Collector) {
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let detailPath = JSONPath.element(path, index)
                guard let detail = element.objectValue else {
                    c.add(
                        .detailNotObject, .error, detailPath,
                        "detail is \(element.typeName), not an object; it is skipped",
                        "each detail is an object with appIDs and components")
                    continue
                }
                lintDetail(detail, path: detailPath, legacyKey: nil, variables: variables, into: &c)
            }
        case .object(let dictionary):
            c.add(
                .detailsDictionary, .warning, path, "details as a dictionary keyed by app ID is obsolete",
                "use an array of detail objects with appIDs")
            for member in dictionary.effectiveMembers {
                let detailPath = JSONPath.child(path, member.key)
                lintAppID(member.key, path: detailPath, into: &c)
                guard let detail = member.value.objectValue else {
                    c.add(
                        .detailNotObject, .error, detailPath, "detail is \(member.value.typeName), not an object",
                        "each detail is an object")
                    continue
                }
                lintDetail(detail, path: detailPath, legacyKey: member.key, variables: variables, into: &c)
            }
        default:
            c.add(
                .detailsMissing, .error, path, "details is \(value.typeName), not an array",
                "use an array of detail objects")
        }
    }

    private func lintDetail(
        _ detail: JSONObject, path: String, legacyKey: String?, variables: [String: [String]],
        into c: inout Collector
    ) {
        if legacyKey == nil {
            switch (detail["appIDs"], detail["appID"]) {
            case (nil, nil):
                c.add(
                    .detailNoApp, .error, path, "the detail names no app (no appID or appIDs); it applies to none",
                    "add \"appIDs\": [\"<prefix>.<bundle id>\"]")
            case (let appIDs?, let appID):
                if appID != nil {
                    c.add(
                        .appIDIgnored, .warning, JSONPath.child(path, "appID"),
                        "appID is ignored because appIDs is present",
                        "move the app ID into appIDs and remove appID")
                }
                if let list = appIDs.arrayValue {
                    lintAppIDList(list, path: JSONPath.child(path, "appIDs"), into: &c)
                    if list.isEmpty {
                        c.add(
                            .detailNoApp, .warning, JSONPath.child(path, "appIDs"),
                            "appIDs is empty, so the detail applies to no app", "list the app IDs")
                    }
                } else {
                    c.add(
                        .appIDsNotArray, .error, JSONPath.child(path, "appIDs"),
                        "appIDs is \(appIDs.typeName), not an array; the detail applies to no app",
                        "write appIDs as an array of strings")
                }
            case (nil, let appID?):
                if let id = appID.stringValue {
                    lintAppID(id, path: JSONPath.child(path, "appID"), into: &c)
                } else {
                    c.add(
                        .appsNonString, .error, JSONPath.child(path, "appID"),
                        "appID is \(appID.typeName), not a string; the detail applies to no app",
                        "write the app ID as a string")
                }
            }
        }
        let hasComponents = detail["components"] != nil
        for member in detail.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            if member.key == "appIDs" || member.key == "components" {
                c.add(
                    .availability, .note, memberPath,
                    "'\(member.key)' needs iOS 13 / macOS 10.15; older systems ignore it",
                    "keep appID and paths as well only if you support iOS 12 (AD-3.7)")
            }
            switch member.key {
            case "appID", "appIDs": continue
            case "components":
                guard let components = member.value.arrayValue else {
                    c.add(
                        .componentsNotArray, .error, memberPath,
                        "components is \(member.value.typeName), not an array; the detail has no rules",
                        "use an array of component objects")
                    continue
                }
                if components.isEmpty {
                    c.add(
                        .noRules, .warning, memberPath, "components is empty; no URL matches this detail",
                        "add at least one component, e.g. {\"/\": \"/*\"}")
                }
                for (index, element) in components.enumerated() {
                    let componentPath = JSONPath.element(memberPath, index)
                    guard let component = element.objectValue else {
                        c.add(
                            .componentNotObject, .error, componentPath,
                            "component is \(element.typeName), not an object; it is skipped",
                            "write each component as an object like {\"/\": \"/path/*\"}")
                        continue
                    }
                    lintRuleObject(
                        component, path: componentPath, allowed: Self.componentKeys, variables: variables,
                        into: &c)
                }
            case "paths":
                if hasComponents {
                    c.add(
                        .pathsBesideComponents, .warning, memberPath, "paths is ignored because components is present",
                        "please avoid mixing formats; keep paths only for iOS 12 and earlier")
                } else {
                    c.add(
                        .pathsDeprecated, .note, memberPath, "paths is the pre-iOS 13 format",
                        "prefer components (iOS 13 / macOS 10.15 and later)")
                }
                guard let paths = member.value.arrayValue else {
                    c.add(
                        .pathNotString, .error, memberPath, "paths is \(member.value.typeName), not an array",
                        "use an array of path strings")
                    continue
                }
                for (index, element) in paths.enumerated() {
                    let elementPath = JSONPath.element(memberPath, index)
                    guard let text = element.stringValue else {
                        c.add(
                            .pathNotString, .error, elementPath,
                            "path is \(element.typeName), not a string; it is skipped",
                            "write paths as strings")
                        continue
                    }
                    let misspelledNot =
                        text.lowercased().hasPrefix("not") && !text.hasPrefix("NOT ") && !text.hasPrefix("/")
                    if misspelledNot {
                        c.add(
                            .notPrefixMisspelled, .warning, elementPath,
                            "'\(text)' looks like an exclusion but only 'NOT ' (upper case, with a space) excludes",
                            "write 'NOT /path'")
                    }
                    let body = text.hasPrefix("NOT ") ? String(text.dropFirst(4)) : text
                    if !misspelledNot, !body.unicodeScalars.allSatisfy({ $0.isASCII && $0 != " " }) {
                        c.add(
                            .nonASCIIPattern, .warning, elementPath,
                            "the path contains characters a URL never contains unescaped; it can never match",
                            "percent-encode the characters as they appear in URLs")
                    }
                }
            case "defaults":
                c.add(
                    .availability, .note, memberPath, "'defaults' needs iOS 14 / macOS 11; older systems ignore it",
                    "check the systems you support (AD-3.7)")
                lintDefaults(member.value, path: memberPath, variables: variables, into: &c)
            default:
                let near = Self.nearMiss(member.key, Self.detailKeys)
                c.add(
                    .unknownKey, near == nil ? .note : .warning, memberPath, "unknown key '\(member.key)' is ignored",
                    near.map { "did you mean '\($0)'?" } ?? "remove it")
            }
        }
        if detail["components"] == nil, detail["paths"] == nil {
            c.add(
                .noRules, .warning, path, "the detail has neither components nor paths; no URL matches it",
                "add components")
        }
    }

    private func lintDefaults(_ value: JSONValue, path: String, variables: [String: [String]], into c: inout Collector)
    {
        guard let object = value.objectValue else {
            c.add(
                .sectionNotObject, .error, path, "defaults is \(value.typeName), not an object; it is ignored",
                "use an object such as {\"caseSensitive\": false}")
            return
        }
        lintRuleObject(object, path: path, allowed: Self.defaultsKeys, variables: variables, into: &c)
    }

    private func lintRuleObject(
        _ object: JSONObject, path: String, allowed: [String], variables: [String: [String]],
        into c: inout Collector
    ) {
        let percentEncoded = object["percentEncoded"]?.boolValue ?? true
        func lintPattern(_ text: String, at patternPath: String) {
            let compiled = WildcardPattern(text, variables: variables)
            for name in compiled.undefinedVariables {
                c.add(
                    .undefinedVariable, .error, patternPath,
                    "substitution variable '$(\(name))' is not defined; the pattern never matches",
                    "define it in applinks.substitutionVariables or use a built-in ($(alpha), $(digit), $(region), …)")
            }
            if percentEncoded, !text.unicodeScalars.allSatisfy({ $0.isASCII && $0 != " " }) {
                c.add(
                    .nonASCIIPattern, .warning, patternPath,
                    "the pattern has spaces or non-ASCII characters, which percent-encoded URLs never contain",
                    "percent-encode them (\"%20\", \"%C3%A9\") or set \"percentEncoded\": false")
            }
        }
        for member in object.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            if let since = Self.availability[member.key] {
                c.add(
                    .availability, .note, memberPath, "'\(member.key)' needs \(since); older systems ignore it",
                    "check the systems you support (AD-3.7)")
            }
            switch member.key {
            case "/", "#":
                guard let text = member.value.stringValue else {
                    c.add(
                        .patternNotString, .error, memberPath,
                        "'\(member.key)' is \(member.value.typeName), not a string; it is treated as unspecified",
                        "write the pattern as a string")
                    continue
                }
                lintPattern(text, at: memberPath)
            case "?":
                switch member.value {
                case .string(let text):
                    lintPattern(text, at: memberPath)
                case .object(let items):
                    let bad = items.effectiveMembers.filter { $0.value.stringValue == nil }
                    for item in bad {
                        c.add(
                            .queryNonString, .error, JSONPath.child(memberPath, item.key),
                            "query value is \(item.value.typeName), not a string, so the whole '?' dictionary is ignored",
                            "write every query value as a string pattern (\"*\", \"?*\", \"1\")")
                    }
                    if bad.isEmpty {
                        for item in items.effectiveMembers {
                            if let text = item.value.stringValue {
                                lintPattern(text, at: JSONPath.child(memberPath, item.key))
                            }
                        }
                    }
                default:
                    c.add(
                        .queryNonString, .error, memberPath,
                        "'?' is \(member.value.typeName); it must be a string or a dictionary of strings",
                        "use a string pattern or a dictionary of query item patterns")
                }
            case "exclude":
                if member.value.boolValue == nil {
                    c.add(
                        .excludeNotBoolean, .error, memberPath,
                        "exclude is \(member.value.typeName); only the JSON value true excludes",
                        "write \"exclude\": true")
                }
            case "caseSensitive", "percentEncoded":
                if member.value.boolValue == nil {
                    c.add(
                        .flagNotBoolean, .error, memberPath,
                        "\(member.key) is \(member.value.typeName), not a Boolean; the inherited value is used",
                        "write true or false")
                }
            case "comment" where allowed.contains("comment"):
                continue
            default:
                let near = Self.nearMiss(member.key, allowed)
                c.add(
                    .unknownKey, near == nil ? .note : .warning, memberPath,
                    "unknown key '\(member.key)' is ignored", near.map { "did you mean '\($0)'?" } ?? "remove it")
            }
        }
    }

    private func lintSubstitutionVariables(_ value: JSONValue, path: String, into c: inout Collector) {
        guard let object = value.objectValue else {
            c.add(
                .badSubstitutionVariables, .error, path, "substitutionVariables is \(value.typeName), not an object",
                "use {\"name\": [\"value\", …]}")
            return
        }
        for member in object.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            if WildcardPattern.builtInNames.contains(member.key) {
                c.add(
                    .variableShadowsBuiltIn, .warning, memberPath,
                    "'\(member.key)' is a built-in variable; this definition is ignored", "rename the variable")
            }
            if member.key.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) || member.key.isEmpty {
                c.add(
                    .badSubstitutionVariables, .error, memberPath,
                    "variable names cannot be empty or contain '$', '(' or ')'", "rename the variable")
            }
            guard let values = member.value.arrayValue else {
                c.add(
                    .badSubstitutionVariables, .error, memberPath,
                    "the variable's value is \(member.value.typeName), not an array of strings", "use [\"value\", …]")
                continue
            }
            for (index, element) in values.enumerated() {
                guard let text = element.stringValue else {
                    c.add(
                        .badSubstitutionVariables, .error, JSONPath.element(memberPath, index),
                        "value is \(element.typeName), not a string; it is ignored", "write values as strings")
                    continue
                }
                if text.contains("$(") {
                    c.add(
                        .badSubstitutionVariables, .error, JSONPath.element(memberPath, index),
                        "values cannot contain other variables", "expand the variable by hand")
                }
            }
        }
    }

    /// A known key `key` is probably a misspelling of (case-insensitive equal, or edit distance ≤ 2).
    static func nearMiss(_ key: String, _ known: [String]) -> String? {
        guard !known.contains(key) else { return nil }
        let lower = key.lowercased()
        if let exact = known.first(where: { $0.lowercased() == lower }) { return exact }
        guard key.count >= 4 else { return nil }
        return known.first { $0.count >= 4 && editDistance(lower, $0.lowercased(), limit: 2) <= 2 }
    }

    /// Levenshtein distance, stopping early above `limit` (inputs are short keys).
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.prefix(64))
        let b = Array(b.prefix(64))
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
