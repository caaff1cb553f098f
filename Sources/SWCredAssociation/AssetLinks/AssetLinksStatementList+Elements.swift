import SWCredCore

// How each verifier reads one element (asset-links.md §1.1; Google's suite 2000–2300 and
// 3000–3300; AOSP `StatementParser.kt`, `AssetFactory`, `Relation.create`).
extension AssetLinksStatementList {
    /// The readings of element `index`.
    static func readElement(_ value: JSONValue, index: Int) -> AssetLinksElement {
        let path = JSONPath.element("", index)
        func malformed(_ rule: RuleID, _ at: String, _ message: String) -> AssetLinksElement {
            AssetLinksElement(
                index: index, both: .malformed(AssetLinksProblem(rule, .malformedContent, path: at, message)))
        }
        guard let object = value.objectValue else {
            return malformed(.dalS2, path, "the element is \(value.typeName), not an object")
        }
        if let include = object["include"] {
            if object["target"] != nil || object["relation"] != nil {
                return malformed(
                    .dalS2, path, "an include directive has an invalid field: 'target' or 'relation' beside 'include'")
            }
            guard let url = include.stringValue else {
                return malformed(
                    .dalS2, JSONPath.child(path, "include"), "'include' is \(include.typeName), not a string")
            }
            return AssetLinksElement(index: index, both: .include(url))
        }
        guard let relationValue = object["relation"] else {
            let problem = AssetLinksProblem(
                .dalS2, .malformedContent, path: path, "the statement has no relation array specified")
            return AssetLinksElement(index: index, google: .malformed(problem), android: .skipped(problem))
        }
        guard let targetValue = object["target"] else {
            let problem = AssetLinksProblem(
                .dalS2, .malformedContent, path: path, "the statement has no target specified")
            return AssetLinksElement(index: index, google: .malformed(problem), android: .skipped(problem))
        }
        let relationPath = JSONPath.child(path, "relation")
        guard let relationValues = relationValue.arrayValue else {
            return malformed(.dalS2, relationPath, "'relation' is \(relationValue.typeName), not an array")
        }
        var relations: [AssetLinksRelation] = []
        for (position, item) in relationValues.enumerated() {
            let itemPath = JSONPath.element(relationPath, position)
            guard let text = item.stringValue else {
                return malformed(.dalS2, itemPath, "invalid relation: \(item.typeName), not a string")
            }
            switch AssetLinksRelation.parse(text) {
            case .success(let relation): relations.append(relation)
            case .failure(let problem): return malformed(.dalS3, itemPath, "'\(text)': \(problem)")
            }
        }
        let targetPath = JSONPath.child(path, "target")
        guard let target = targetValue.objectValue else {
            return malformed(.dalS2, targetPath, "'target' is \(targetValue.typeName), not an object")
        }
        let components = dynamicComponents(object["relation_extensions"])
        func statement(_ target: AssetLinksTarget) -> AssetLinksStatement {
            AssetLinksStatement(index: index, relations: relations, target: target, dynamicComponents: components)
        }
        switch target["namespace"]?.stringValue {
        case "web":
            let sitePath = JSONPath.child(targetPath, "site")
            guard let text = target["site"]?.stringValue, !text.isEmpty else {
                return malformed(.dalS5, sitePath, "the web target has no site field")
            }
            switch AssetLinksSite.parse(text) {
            case .failure(let problem):
                return malformed(.dalS5, sitePath, "'\(text)': \(problem)")
            case .success(let parsed) where parsed.trailingSlash:
                let problem = AssetLinksProblem(
                    .dalS5, .malformedContent, path: sitePath,
                    "'\(text)': the site cannot contain a path (Google's API refuses the trailing '/'; "
                        + "an Android device accepts it)")
                return AssetLinksElement(
                    index: index, google: .malformed(problem), android: .statement(statement(.web(parsed.site))))
            case .success(let parsed):
                return AssetLinksElement(index: index, both: .statement(statement(.web(parsed.site))))
            }
        case "android_app":
            return readAndroidApp(target, at: targetPath, index: index, statement: statement)
        case let namespace?:
            return malformed(
                .dalS4, JSONPath.child(targetPath, "namespace"),
                "unrecognized namespace '\(namespace)' (web and android_app exist)")
        case nil:
            return malformed(
                .dalS4, JSONPath.child(targetPath, "namespace"),
                "the target has no namespace string (web or android_app)")
        }
    }

    /// An `android_app` target: Google validates the package name and each fingerprint; the
    /// device needs the fields and a non-empty list, and compares the values as written.
    private static func readAndroidApp(
        _ target: JSONObject, at targetPath: String, index: Int,
        statement: (AssetLinksTarget) -> AssetLinksStatement
    ) -> AssetLinksElement {
        func malformed(_ at: String, _ message: String) -> AssetLinksElement {
            AssetLinksElement(
                index: index, both: .malformed(AssetLinksProblem(.dalS6, .malformedContent, path: at, message)))
        }
        let packagePath = JSONPath.child(targetPath, "package_name")
        guard let packageName = target["package_name"]?.stringValue else {
            return malformed(packagePath, "the android_app target has no package_name field")
        }
        let listPath = JSONPath.child(targetPath, "sha256_cert_fingerprints")
        guard let listValue = target["sha256_cert_fingerprints"] else {
            return malformed(listPath, "no sha256_cert_fingerprints field in android app asset descriptor")
        }
        guard let list = listValue.arrayValue else {
            return malformed(listPath, "sha256_cert_fingerprints is \(listValue.typeName), not an array")
        }
        var fingerprints: [String] = []
        for (position, item) in list.enumerated() {
            guard let text = item.stringValue else {
                return malformed(
                    JSONPath.element(listPath, position),
                    "sha256_cert_fingerprints holds \(item.typeName), not a string")
            }
            fingerprints.append(text)
        }
        guard !fingerprints.isEmpty, !packageName.isEmpty else {
            return malformed(
                fingerprints.isEmpty ? listPath : packagePath,
                fingerprints.isEmpty
                    ? "sha256_cert_fingerprints must contain at least one certificate" : "invalid package name ''")
        }
        let read = AssetLinksElement.Reading.statement(
            statement(.androidApp(packageName: packageName, fingerprints: fingerprints)))
        if !AndroidAppIdentity.isValidPackageName(packageName) {
            let problem = AssetLinksProblem(
                .dalS6, .malformedContent, path: packagePath, "invalid package name '\(packageName)'")
            return AssetLinksElement(index: index, google: .malformed(problem), android: read)
        }
        if let position = fingerprints.firstIndex(where: { !AndroidAppIdentity.isValidFingerprint($0) }) {
            let written = fingerprints[position]
            let octets = AndroidAppIdentity.hexOctets(written)?.count
            let why =
                octets == 20
                ? "a SHA-1 fingerprint; Digital Asset Links needs SHA-256"
                : octets == 32
                    ? "not upper-case colon hex, which a device compares exactly"
                    : "not 32 upper-case hex octets joined by ':'"
            let problem = AssetLinksProblem(
                .dalS6, .malformedContent, path: JSONPath.element(listPath, position),
                "malformed cert fingerprint '\(written)': \(why)")
            return AssetLinksElement(index: index, google: .malformed(problem), android: read)
        }
        return AssetLinksElement(index: index, both: read)
    }

    /// The dynamic components of `handle_all_urls`, when well-formed; lint reports the rest.
    static func dynamicComponents(_ extensions: JSONValue?) -> [AssetLinksDynamicComponent] {
        guard
            let list = extensions?.objectValue?[AssetLinksRelation.handleAllURLs.description]?.objectValue?[
                "dynamic_app_link_components"]?.arrayValue
        else { return [] }
        return list.compactMap { item in
            guard let object = item.objectValue else { return nil }
            var query: [String: String] = [:]
            for member in object["?"]?.objectValue?.effectiveMembers ?? [] {
                if let value = member.value.stringValue { query[member.key] = value }
            }
            return AssetLinksDynamicComponent(
                path: object["/"]?.stringValue, query: query, fragment: object["#"]?.stringValue,
                exclude: object["exclude"]?.boolValue ?? false)
        }
    }
}
