import SWCredCore

// The applinks section: details, components, defaults, patterns and substitution variables (AD-3.x, AD-7.x).
extension AssociationLinter {
    func lintApplinks(_ section: JSONObject, into c: inout Collector) {
        let variables = ReferenceApplinksMatcher.substitutionVariables(section)
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
                lintDefaults(member.value, path: path, variables: variables, into: &c)
            case "substitutionVariables":
                c.add(
                    .availability, .note, path,
                    "'substitutionVariables' needs iOS 13.5 / macOS 10.15.6; older systems ignore it",
                    "check the systems you support (AD-3.7)")
                lintSubstitutionVariables(member.value, path: path, into: &c)
            case _ where Self.topLevelKeys.contains(member.key):
                lintNestedService(member.key, in: "applinks", path: path, into: &c)
            default:
                c.unknownKey(member.key, known: Self.applinksKeys, path)
            }
        }
        if section["details"] == nil {
            c.add(
                .detailsMissing, .error, "applinks", "applinks has no details, so no URL opens an app",
                "add \"details\": [{\"appIDs\": [...], \"components\": [...]}]")
        }
        lintOrdering(ApplinksSection(section), into: &c)
    }

    func lintDetails(_ value: JSONValue, path: String, variables: [String: [String]], into c: inout Collector) {
        switch value {
        case .array(let elements):
            c.forEachObject(
                in: elements, at: path, "detail", .detailNotObject,
                help: "each detail is an object with appIDs and components"
            ) { detail, detailPath, c in
                lintDetail(detail, path: detailPath, legacyKey: nil, variables: variables, into: &c)
            }
        case .object(let dictionary):
            c.add(
                .detailsDictionary, .warning, path, "details as a dictionary keyed by app ID is obsolete",
                "use an array of detail objects with appIDs")
            for member in dictionary.effectiveMembers {
                let detailPath = JSONPath.child(path, member.key)
                lintAppID(member.key, path: detailPath, into: &c)
                guard
                    let detail = c.object(
                        member.value, "detail", .detailNotObject, detailPath, help: "each detail is an object")
                else { continue }
                lintDetail(detail, path: detailPath, legacyKey: member.key, variables: variables, into: &c)
            }
        default:
            c.add(
                .detailsMissing, .error, path, "details is \(value.typeName), not an array",
                "use an array of detail objects")
        }
    }

    func lintDetail(
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
                guard
                    let components = c.array(
                        member.value, "components", .componentsNotArray, memberPath, "; the detail has no rules",
                        help: "use an array of component objects")
                else { continue }
                if components.isEmpty {
                    c.add(
                        .noRules, .warning, memberPath, "components is empty; no URL matches this detail",
                        "add at least one component, e.g. {\"/\": \"/*\"}")
                }
                c.forEachObject(
                    in: components, at: memberPath, "component", .componentNotObject,
                    help: "write each component as an object like {\"/\": \"/path/*\"}"
                ) { component, componentPath, c in
                    lintRuleObject(
                        component, path: componentPath, allowed: Self.componentKeys, variables: variables,
                        into: &c)
                    lintUnknownKeysOnly(component, path: componentPath, into: &c)
                }
            case "paths":
                lintLegacyPaths(member.value, path: memberPath, besideComponents: hasComponents, into: &c)
            case "defaults":
                lintDefaults(member.value, path: memberPath, variables: variables, into: &c)
            case _ where Self.topLevelKeys.contains(member.key):
                lintNestedService(member.key, in: "a detail", path: memberPath, into: &c)
            default:
                c.unknownKey(member.key, known: Self.detailKeys, memberPath)
            }
        }
        if detail["components"] == nil, detail["paths"] == nil {
            c.add(
                .noRules, .warning, path, "the detail has neither components nor paths; no URL matches it",
                "add components")
        }
    }

    /// `defaults` (AD-3.7): the note that older systems ignore it, then its rules.
    func lintDefaults(_ value: JSONValue, path: String, variables: [String: [String]], into c: inout Collector) {
        c.add(
            .availability, .note, path, "'defaults' needs iOS 14 / macOS 11; older systems ignore it",
            "check the systems you support (AD-3.7)")
        guard
            let object = c.object(
                value, "defaults", .sectionNotObject, path, "; it is ignored",
                help: "use an object such as {\"caseSensitive\": false}")
        else { return }
        lintRuleObject(object, path: path, allowed: Self.defaultsKeys, variables: variables, into: &c)
    }

    func lintRuleObject(
        _ object: JSONObject, path: String, allowed: [String], variables: [String: [String]],
        into c: inout Collector
    ) {
        let percentEncoded = object["percentEncoded"]?.boolValue ?? true
        func lintPattern(_ text: String, at patternPath: String, queryValue: Bool = false) {
            let compiled = WildcardPattern(text, variables: variables)
            for name in compiled.undefinedVariables {
                c.add(
                    .undefinedVariable, .error, patternPath,
                    "substitution variable '$(\(name))' is not defined; the pattern never matches",
                    "define it in applinks.substitutionVariables or use a built-in ($(alpha), $(digit), $(region), …)")
            }
            if percentEncoded, !text.unicodeScalars.allSatisfy({ $0.isASCII && $0 != " " }) {
                if queryValue {
                    // AD-7.9 is open: whether the device compares query values decoded is not settled.
                    c.add(
                        .nonASCIIPattern, .warning, patternPath,
                        "the query value has spaces or non-ASCII characters; swcred compares query values as "
                            + "written, so it never matches here, and whether a device decodes them first is "
                            + "not settled (AD-7.9)",
                        "percent-encode them as they appear in URLs (\"%20\", \"%C3%A9\"), which works either way")
                } else {
                    c.add(
                        .nonASCIIPattern, .warning, patternPath,
                        "the pattern has spaces or non-ASCII characters, which percent-encoded URLs never contain",
                        "percent-encode them (\"%20\", \"%C3%A9\") or set \"percentEncoded\": false")
                }
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
                if member.key == "/" { lintURLInPattern(text, path: memberPath, legacy: false, into: &c) }
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
                                lintPattern(text, at: JSONPath.child(memberPath, item.key), queryValue: true)
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
                c.unknownKey(member.key, known: allowed, memberPath)
            }
        }
    }

    func lintSubstitutionVariables(_ value: JSONValue, path: String, into c: inout Collector) {
        guard
            let object = c.object(
                value, "substitutionVariables", .badSubstitutionVariables, path,
                help: "use {\"name\": [\"value\", …]}")
        else { return }
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
}
