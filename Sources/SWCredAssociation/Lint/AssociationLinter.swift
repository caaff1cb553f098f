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
package struct AssociationLinter: Sendable {
    /// Limits used for parsing.
    package var limits: AssociationFile.Limits

    /// Creates a linter.
    package init(limits: AssociationFile.Limits = .init()) { self.limits = limits }

    struct Collector {
        var findings: [LintFinding] = []
        mutating func add(
            _ rule: LintRule, _ severity: DiagnosticSeverity, _ path: String, _ message: String,
            _ help: String, related: String? = nil
        ) {
            findings.append(
                LintFinding(
                    id: rule.rawValue, severity: severity, path: path, message: message, help: help, related: related))
        }

        /// An ignored key: a warning that suggests the key of `known` it is one slip from, otherwise a note.
        mutating func unknownKey(_ key: String, known: [String], _ path: String) {
            let near = AssociationLinter.nearMiss(key, known)
            add(
                .unknownKey, near == nil ? .note : .warning, path, "unknown key '\(key)' is ignored",
                near.map { "did you mean '\($0)'?" } ?? "remove it")
        }

        /// `value` as an object; otherwise `nil`, after the error "`what` is <type>, not an
        /// object`consequence`".
        mutating func object(
            _ value: JSONValue, _ what: String, _ rule: LintRule, _ path: String, _ consequence: String = "",
            help: String
        ) -> JSONObject? {
            if let object = value.objectValue { return object }
            add(rule, .error, path, "\(what) is \(value.typeName), not an object\(consequence)", help)
            return nil
        }

        /// Runs `body` on each element of `elements` that is an object, with its path; every other
        /// element gets the error "`what` is <type>, not an object; it is skipped".
        mutating func forEachObject(
            in elements: [JSONValue], at path: String, _ what: String, _ rule: LintRule, help: String,
            _ body: (JSONObject, String, inout Collector) -> Void
        ) {
            for (index, element) in elements.enumerated() {
                let elementPath = JSONPath.element(path, index)
                guard let found = object(element, what, rule, elementPath, "; it is skipped", help: help) else {
                    continue
                }
                body(found, elementPath, &self)
            }
        }

        /// `value` as an array; otherwise `nil`, after the error "`what` is <type>, not an
        /// array`consequence`".
        mutating func array(
            _ value: JSONValue, _ what: String, _ rule: LintRule, _ path: String, _ consequence: String = "",
            help: String
        ) -> [JSONValue]? {
            if let array = value.arrayValue { return array }
            add(rule, .error, path, "\(what) is \(value.typeName), not an array\(consequence)", help)
            return nil
        }
    }

    static let topLevelKeys = ["applinks", "webcredentials", "appclips", "activitycontinuation", "authsrv"]
    /// Keys of service sections and details that real files put one level too high (SWC112).
    static let sectionKeys: Set<String> = ["apps", "details", "appIDs", "appID", "components", "paths"]
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
    package func lint(_ bytes: [UInt8], host: String? = nil) -> [LintFinding] {
        var c = Collector()
        if let host {
            if !host.unicodeScalars.allSatisfy(\.isASCII) {
                c.add(
                    .badHost, .error, "", "the host '\(host)' is not ASCII",
                    "use the Punycode form '\(Punycode.asciiHost(host) ?? "xn--…")' in entitlements and URLs")
            } else if let problem = EntitlementEntry.hostProblem(host, wildcard: false, modes: []) {
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
        switch AssociationFile.parseReportingStep(bytes, limits: limits) {
        case .success(let parsed):
            file = parsed
        case .failure(let failure):
            // The step that refused the body names the finding (its message is for a person).
            switch failure.step {
            case .size:
                c.add(.tooLarge, .error, "", failure.error.message, "keep the uncompressed file at most 128 KB")
            case .json:
                c.add(.invalidJSON, .error, "", failure.error.message, "fix the JSON syntax (strict JSON, UTF-8)")
            case .topLevel:
                c.add(
                    .topLevelNotObject, .error, "", failure.error.message,
                    "the top level must be an object keyed by service")
            }
            return c.findings
        }
        if file.wasSigned {
            c.add(
                .signedFile, .warning, "", "the file is signed (PKCS#7); signing is deprecated",
                "serve plain JSON as application/json")
        }
        if let encoding = file.transcodedFrom {
            c.add(
                .otherUnicodeEncoding, .warning, "",
                "the file is \(encoding.rawValue), not UTF-8; a device reads it (as swcred does), "
                    + "but whether Apple's CDN serves it unchanged is untested",
                "save the file as UTF-8 without BOM")
        }
        if file.hadByteOrderMark {
            c.add(
                .byteOrderMark, .warning, "", "the file starts with a UTF-8 byte-order mark",
                "save the file as UTF-8 without BOM")
        }
        for duplicate in file.duplicateKeys {
            c.add(
                .duplicateKey, .warning, duplicate.memberPath,
                "key '\(duplicate.key)' appears more than once; the last one wins", "remove the earlier duplicate")
        }
        lintTopLevel(file.root, into: &c)
        return c.findings
    }

    func lintTopLevel(_ root: JSONObject, into c: inout Collector) {
        var anyService = false
        for member in root.effectiveMembers {
            let path = JSONPath.child("", member.key)
            switch member.key {
            case "applinks":
                anyService = true
                guard
                    let section = c.object(
                        member.value, "applinks", .sectionNotObject, path, help: "use {\"details\": [...]}")
                else { continue }
                lintApplinks(section, into: &c)
            case "webcredentials", "appclips", "activitycontinuation", "authsrv":
                anyService = true
                lintAppsSection(member.key, member.value, path: path, into: &c)
            case _ where Self.sectionKeys.contains(member.key):
                c.add(
                    .serviceMisplaced, .warning, path,
                    "'\(member.key)' at the top level is ignored; it belongs inside a service section",
                    member.key == "apps"
                        ? "move it into its service: {\"webcredentials\": {\"apps\": [...]}}"
                        : "move it into applinks: "
                            + "{\"applinks\": {\"details\": [{\"appIDs\": [...], \"components\": [...]}]}}")
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

    func lintAppsSection(_ name: String, _ value: JSONValue, path: String, into c: inout Collector) {
        guard
            let section = c.object(
                value, name, .sectionNotObject, path, help: "use {\"apps\": [\"ABCDE12345.com.example.app\"]}")
        else { return }
        for member in section.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            switch member.key {
            case "apps":
                guard
                    let apps = c.array(
                        member.value, "\(name).apps", .appsNotArray, memberPath, help: "list app IDs in an array")
                else { continue }
                lintAppIDList(apps, path: memberPath, into: &c)
                if apps.isEmpty {
                    c.add(
                        .appsEmpty, .warning, memberPath, "\(name).apps is empty, so \(name) associates no app",
                        "list the app IDs: \"apps\": [\"<prefix>.<bundle id>\"], or remove the \(name) section")
                }
            case "details":
                if section["apps"]?.arrayValue?.isEmpty == false {
                    c.add(
                        .detailsOutsideApplinks, .note, memberPath, "details is ignored in \(name)",
                        "the details dictionary only applies to applinks")
                } else {
                    c.add(
                        .serviceMisplaced, .warning, memberPath,
                        "details is ignored in \(name), and \(name).apps lists no app, so \(name) associates nothing",
                        "list the apps in \(name).apps; details and its rules belong in applinks")
                }
            case _ where Self.topLevelKeys.contains(member.key):
                lintNestedService(member.key, in: name, path: memberPath, into: &c)
            default:
                c.unknownKey(member.key, known: ["apps"], memberPath)
            }
        }
        if section["apps"] == nil {
            c.add(
                .appsNotArray, .error, path, "\(name) has no apps array, so it lists no app",
                "add \"apps\": [\"<prefix>.<bundle id>\"]")
        }
    }

    /// A service section written inside another section or a detail (SWC112): it is an unknown key
    /// there, so the service it was meant to configure associates nothing.
    func lintNestedService(_ service: String, in container: String, path: String, into c: inout Collector) {
        c.add(
            .serviceMisplaced, .warning, path,
            "\(service) inside \(container) is an unknown key there and is ignored, so it associates nothing",
            "move \"\(service)\" to the top level of the file, beside \"applinks\"")
    }

    func lintAppIDList(_ apps: [JSONValue], path: String, into c: inout Collector) {
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

    func lintAppID(_ appID: String, path: String, into c: inout Collector) {
        if let problem = AppIdentity.shapeProblem(appID) {
            c.add(
                .badAppID, .error, path, "'\(appID)' is not an app ID: \(problem)",
                "use the exact application-identifier the app is signed with, <prefix>.<bundle id> (case-sensitive)")
        } else if let prefix = AppIdentity.placeholderPrefix(appID) {
            // ABCDE12345 is Apple's documentation example; swcred's held lint vectors and sample
            // sites use it as an ordinary app ID, so it is only a note. Template words are warnings.
            let documentationExample = prefix == AppIdentity.documentationExamplePrefix
            c.add(
                .placeholderAppID, documentationExample ? .note : .warning, path,
                documentationExample
                    ? "'\(prefix)' in '\(appID)' is the example prefix of Apple's documentation; unless it is "
                        + "really the app's prefix, it names no real app"
                    : "'\(prefix)' in '\(appID)' is a placeholder team prefix, so it names no real app",
                "replace it with the prefix of the app's application-identifier "
                    + "(Membership details of the developer account)")
        }
    }
}
