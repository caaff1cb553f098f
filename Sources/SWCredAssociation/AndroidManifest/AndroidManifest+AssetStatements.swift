import SWCredCore

extension AndroidManifest {
    /// The includes of the `asset_statements` string that read (https or not), in order.
    package var assetStatementIncludes: [AssetLinksURL] {
        guard let assetStatements,
            case .success(let list) = AssetLinksStatementList.parseReportingRule(Array(assetStatements.utf8))
        else { return [] }
        return list.elements.compactMap { element -> AssetLinksURL? in
            guard case .include(let text) = element.google, case .success(let url) = AssetLinksURL.parse(text) else {
                return nil
            }
            return url
        }
    }

    /// DAL-Q5: the `asset_statements` meta-data and its string, as Android lint's
    /// `CredManMissingDal` checks them, and the string as a statement list of includes.
    mutating func readAssetStatements(_ resources: AndroidStringResources?) {
        guard let resource = assetStatementsResource else {
            findings.append(
                .note(
                    "no <meta-data android:name=\"asset_statements\">: the app declares no sites to share "
                        + "credentials with (Credential Manager, password sharing)",
                    rule: .dalQ5))
            return
        }
        guard resource.hasPrefix("@string/") else {
            findings.append(
                .warning("asset_statements' android:resource is \(resource), not a @string/ resource", rule: .dalQ5))
            return
        }
        let name = String(resource.dropFirst(8))
        guard let resources else {
            findings.append(
                .note("give --android-strings (res/values/strings.xml) to check the \(resource) string", rule: .dalQ5))
            return
        }
        if let problem = resources.problems[name] {
            findings.append(.error("the \(resource) string does not compile: \(problem)", rule: .dalQ5))
            return
        }
        guard let value = resources.strings[name] else {
            findings.append(.error("the strings file has no <string name=\"\(name)\">", rule: .dalQ5))
            return
        }
        assetStatements = value
        checkAssetStatements(value, resource: resource)
    }

    private mutating func checkAssetStatements(_ value: String, resource: String) {
        let list: AssetLinksStatementList
        switch AssetLinksStatementList.parseReportingRule(Array(value.utf8)) {
        case .failure(let failure):
            let hint =
                value.contains("include") && !value.contains("\"include\"")
                ? "; its quotes were dropped: write them as \\\" in strings.xml" : ""
            findings.append(
                .error(
                    "the \(resource) string (\(value.prefix(120))) is not a statement list: "
                        + "\(failure.error.message)\(hint)", rule: .dalQ5))
            return
        case .success(let read):
            list = read
        }
        if list.elements.isEmpty {
            findings.append(.error("the \(resource) string is an empty list", rule: .dalQ5))
        }
        for element in list.elements {
            switch element.google {
            case .include(let text):
                checkInclude(text, index: element.index, resource: resource)
            case .statement:
                findings.append(
                    .note(
                        "element \(element.index) of \(resource) is a statement, not an include; an app normally "
                            + "includes its site's /.well-known/assetlinks.json", rule: .dalQ5))
            case .skipped(let problem), .malformed(let problem):
                findings.append(
                    .error(
                        "element \(element.index) of \(resource) is neither an include nor a statement: "
                            + problem.message, rule: .dalQ5))
            }
        }
    }

    private mutating func checkInclude(_ text: String, index: Int, resource: String) {
        guard case .success(let url) = AssetLinksURL.parse(text) else {
            findings.append(.error("element \(index) of \(resource) includes '\(text)', not a URL", rule: .dalQ5))
            return
        }
        if !url.isSecure {
            findings.append(
                .error(
                    "element \(index) of \(resource) includes \(url), which is not https: an app is a secure "
                        + "source (DAL-I1)", rule: .dalI1))
        }
        if url.path != "/.well-known/assetlinks.json" {
            findings.append(
                .warning(
                    "element \(index) of \(resource) includes \(url), not a site's /.well-known/assetlinks.json",
                    rule: .dalQ5))
        }
        if url.port != nil {
            findings.append(
                .warning(
                    "element \(index) of \(resource) includes \(url) with a port; the site's list is at "
                        + "https://\(url.host)/.well-known/assetlinks.json", rule: .dalQ5))
        }
    }
}
