import SWCredCore

// The per-element rules of AssetLinksLinter: DAL-S2…S9, DAL-I1, DAL-Q4.
extension AssetLinksLinter {
    /// Google's documentation fingerprint, shipped to production by copy-paste (asset-links.md §1.7).
    static let documentationFingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    func lintElement(
        _ element: AssetLinksElement, json: JSONValue, seen: inout Set<StatementKey>, into c: inout Collector
    ) {
        let path = JSONPath.element("", element.index)
        switch (element.google, element.android) {
        case (.malformed(let problem), .statement):
            // Google refuses what a device reads: a lone '/' on a site (a warning), a package name
            // or fingerprint Google validates and a device compares as written (an error).
            let slash = problem.rule == .dalS5
            c.add(
                problem.rule, slash ? .warning : .error, problem.path, problem.message,
                slash
                    ? "write the site without the trailing '/': https://example.com"
                    : problem.rule == .dalS6 && problem.path.hasSuffix("package_name")
                        ? "use the application id from build.gradle (com.example.app)"
                        : "copy the SHA-256 fingerprint from keytool -list -v or the Play Console's App signing "
                            + "page: 32 upper-case hex octets joined by ':'")
        case (.malformed(let problem), .malformed):
            c.add(problem.rule, .error, problem.path, problem.message, Self.help(for: problem.rule))
            c.add(
                .dalS7, .warning, path,
                "element \(element.index) is malformed: Google's API skips it, an Android 12+ device may fail "
                    + "App Links verification for the whole host on it",
                "fix or remove the element")
        case (.malformed(let problem), _):
            c.add(problem.rule, .error, problem.path, problem.message, Self.help(for: problem.rule))
        default:
            break
        }
        if case .include(let text) = element.google {
            lintInclude(text, at: JSONPath.child(path, "include"), into: &c)
        }
        let statement: AssetLinksStatement
        switch (element.android, element.google) {
        case (.statement(let read), _), (_, .statement(let read)): statement = read
        default: return
        }
        lintStatement(statement, json: json, path: path, into: &c)
        if !seen.insert(StatementKey(relations: statement.relations, target: statement.target)).inserted {
            c.add(.dalS9, .warning, path, "the statement repeats an earlier one", "remove the duplicate")
        }
    }

    static func help(for rule: RuleID) -> String {
        switch rule {
        case .dalS3: "write relations as kind/detail in lower case: delegate_permission/common.handle_all_urls"
        case .dalS4: "use {\"namespace\": \"web\", \"site\": …} or {\"namespace\": \"android_app\", …}"
        case .dalS5: "write the site as scheme://host[:port]: https://example.com"
        case .dalS6:
            "give package_name and sha256_cert_fingerprints: [\"AA:BB:…\"] (32 upper-case hex octets joined by ':')"
        default:
            "a statement is {\"relation\": [\"kind/detail\"], \"target\": {…}}; an include is {\"include\": \"https://…\"}"
        }
    }

    private func lintInclude(_ text: String, at path: String, into c: inout Collector) {
        switch AssetLinksURL.parse(text) {
        case .failure(let problem):
            c.add(
                .dalS2, .error, path, "the include '\(text)' is not a valid http(s) URL: \(problem)",
                "include an https URL: https://example.com/.well-known/assetlinks.json")
        case .success(let url) where !url.isSecure:
            c.add(
                .dalI1, .error, path,
                "the include '\(text)' is http: an https site or an app may not include it, and a device fetches "
                    + "https only", "serve the included list over https")
        case .success:
            break
        }
    }

    private func lintStatement(_ statement: AssetLinksStatement, json: JSONValue, path: String, into c: inout Collector)
    {
        let targetPath = JSONPath.child(path, "target")
        let target = json.objectValue?["target"]?.objectValue ?? JSONObject()
        switch statement.target {
        case .web:
            let extra = target.keys.filter { $0 != "namespace" && $0 != "site" }
            for key in extra {
                c.add(
                    .dalS9, .warning, JSONPath.child(targetPath, key),
                    "a web target does not take '\(key)'; it is ignored",
                    key == "sha256_cert_fingerprints"
                        ? "fingerprints belong to android_app targets: add one for the app" : "remove it")
            }
            if let text = target["site"]?.stringValue, case .success(let parsed) = AssetLinksSite.parse(text),
                parsed.explicitDefaultPort
            {
                c.add(
                    .dalS5, .warning, JSONPath.child(targetPath, "site"),
                    "'\(text)' writes out the default port", "omit the default port: \(parsed.site)")
            }
        case .androidApp(let packageName, let fingerprints):
            lintFingerprints(fingerprints, packageName: packageName, target: targetPath, into: &c)
            let relations = Set(statement.relations)
            if relations.contains(.getLoginCreds) != relations.contains(.handleAllURLs) {
                let missing: AssetLinksRelation = relations.contains(.handleAllURLs) ? .getLoginCreds : .handleAllURLs
                c.add(
                    .dalQ4, .note, JSONPath.child(path, "relation"),
                    "\(packageName) has \(missing == .getLoginCreds ? AssetLinksRelation.handleAllURLs : .getLoginCreds) "
                        + "without \(missing): passkeys from the app need both (Credential Manager's prerequisites)",
                    "add \"\(missing)\" if the app shares passwords or passkeys with the site")
            }
        }
        lintExtensions(
            json.objectValue?["relation_extensions"], at: JSONPath.child(path, "relation_extensions"), into: &c)
    }

    private func lintFingerprints(
        _ fingerprints: [String], packageName: String, target: String, into c: inout Collector
    ) {
        let path = JSONPath.child(target, "sha256_cert_fingerprints")
        var seen: Set<String> = []
        for (index, fingerprint) in fingerprints.enumerated() {
            let itemPath = JSONPath.element(path, index)
            if !seen.insert(fingerprint.uppercased()).inserted {
                c.add(.dalS9, .warning, itemPath, "the fingerprint is listed twice", "remove the duplicate")
            }
            if let why = Self.placeholder(fingerprint) {
                c.add(
                    .dalS8, .warning, itemPath, "'\(fingerprint)' looks like a placeholder: \(why)",
                    "list the SHA-256 fingerprint of the key that signs the app users install (with Play App "
                        + "Signing, the Play Console's App signing key, not the upload key)")
            }
        }
        let upper = packageName.uppercased()
        if upper.contains("REPLACE") || upper.contains("YOUR") {
            c.add(
                .dalS8, .warning, JSONPath.child(target, "package_name"),
                "'\(packageName)' looks like a placeholder", "use the app's application id")
        }
    }

    /// Why `fingerprint` looks like a placeholder, or `nil`.
    static func placeholder(_ fingerprint: String) -> String? {
        let upper = fingerprint.uppercased()
        if upper == documentationFingerprint { return "it is the example fingerprint of Google's documentation" }
        if upper.contains("REPLACE") || upper.contains("YOUR") || upper.contains("XX") || upper.contains("TODO") {
            return "it is placeholder text"
        }
        if let octets = AndroidAppIdentity.hexOctets(fingerprint), octets.count >= 4 {
            if Set(octets).count == 1 { return "every octet is the same" }
            if octets.prefix(3) == [0xAA, 0xBB, 0xCC] || octets.prefix(4) == [0x01, 0x23, 0x45, 0x67]
                || octets.prefix(4) == [0x12, 0x34, 0x56, 0x78]
            {
                return "it is a counting pattern"
            }
        }
        return nil
    }

    /// `relation_extensions`: an object keyed by relation; for `handle_all_urls`,
    /// `dynamic_app_link_components` is an array of component objects (Android 15+).
    private func lintExtensions(_ value: JSONValue?, at path: String, into c: inout Collector) {
        guard let value else { return }
        guard let object = value.objectValue else {
            c.add(
                .dalS2, .warning, path, "relation_extensions is \(value.typeName), not an object; it is ignored",
                "use {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": […]}}")
            return
        }
        for member in object.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            if case .failure(let problem) = AssetLinksRelation.parse(member.key) {
                c.add(
                    .dalS3, .warning, memberPath, "the extension key '\(member.key)': \(problem)",
                    "key extensions by a relation string")
            }
            guard member.key == AssetLinksRelation.handleAllURLs.description,
                let components = member.value.objectValue?["dynamic_app_link_components"]
            else { continue }
            let componentsPath = JSONPath.child(memberPath, "dynamic_app_link_components")
            guard let list = components.arrayValue else {
                c.add(
                    .dalS2, .warning, componentsPath,
                    "dynamic_app_link_components is \(components.typeName), not an array",
                    "use an array of {\"/\": …, \"?\": {…}, \"#\": …, \"exclude\": …}")
                continue
            }
            for (index, item) in list.enumerated() {
                lintComponent(item, at: JSONPath.element(componentsPath, index), into: &c)
            }
        }
    }

    private func lintComponent(_ item: JSONValue, at path: String, into c: inout Collector) {
        guard let component = item.objectValue else {
            c.add(
                .dalS2, .warning, path, "the component is \(item.typeName), not an object; it is ignored",
                "use {\"/\": \"/path/*\"}")
            return
        }
        for member in component.effectiveMembers {
            let memberPath = JSONPath.child(path, member.key)
            let fine: Bool
            switch member.key {
            case "/", "#", "comments": fine = member.value.stringValue != nil
            case "exclude": fine = member.value.boolValue != nil
            case "?": fine = member.value.objectValue?.members.allSatisfy { $0.value.stringValue != nil } ?? false
            default:
                c.add(
                    .dalS2, .warning, memberPath, "unknown component key '\(member.key)' is ignored",
                    "components take '/', '?', '#', 'exclude' and 'comments'")
                continue
            }
            if !fine {
                c.add(
                    .dalS2, .warning, memberPath,
                    "'\(member.key)' is \(member.value.typeName), not \(member.key == "exclude" ? "a Boolean" : member.key == "?" ? "an object of strings" : "a string")",
                    "see Android's dynamic App Links documentation")
            }
        }
    }
}
