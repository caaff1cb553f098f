import SWCredCore

// Legacy `paths` (AD-7.14) and the pattern mistakes real files make in them: a query written into
// a path (SWC115) and a whole URL where a path belongs (SWC116, also for components' "/").
extension AssociationLinter {
    func lintLegacyPaths(_ value: JSONValue, path: String, besideComponents: Bool, into c: inout Collector) {
        if besideComponents {
            c.add(
                .pathsBesideComponents, .warning, path, "paths is ignored because components is present",
                "please avoid mixing formats; keep paths only for iOS 12 and earlier")
        } else {
            c.add(
                .pathsDeprecated, .note, path, "paths is the pre-iOS 13 format",
                "prefer components (iOS 13 / macOS 10.15 and later)")
        }
        guard let paths = c.array(value, "paths", .pathNotString, path, help: "use an array of path strings") else {
            return
        }
        for (index, element) in paths.enumerated() {
            let elementPath = JSONPath.element(path, index)
            guard let text = element.stringValue else {
                c.add(
                    .pathNotString, .error, elementPath, "path is \(element.typeName), not a string; it is skipped",
                    "write paths as strings")
                continue
            }
            let misspelledNot = text.lowercased().hasPrefix("not") && !text.hasPrefix("NOT ") && !text.hasPrefix("/")
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
            if lintURLInPattern(body, path: elementPath, legacy: true, exclusion: text.hasPrefix("NOT "), into: &c) {
                continue
            }
            lintQueryInLegacyPath(body, path: elementPath, exclusion: text.hasPrefix("NOT "), into: &c)
        }
    }

    /// SWC115: `?` in a legacy path is a one-character wildcard and paths never see the query
    /// (AD-7.6, AD-7.14). Only a `?` followed by what looks like a query is flagged: `?*` (unless
    /// right after `/`, where "one or more characters" is a plausible intent) or `?name=`; any
    /// other `?` is taken as the wildcard it is.
    func lintQueryInLegacyPath(_ body: String, path: String, exclusion: Bool, into c: inout Collector) {
        let scalars = Array(body.unicodeScalars)
        for (offset, scalar) in scalars.enumerated() where scalar == "?" {
            let rest = scalars[(offset + 1)...]
            let starQuery = rest.first == "*" && (offset == 0 || scalars[offset - 1] != "/")
            let nameLength = rest.prefix { Self.isQueryNameScalar($0) }.count
            let keyQuery = nameLength > 0 && rest.dropFirst(nameLength).first == "="
            guard starQuery || keyQuery else { continue }
            let pathPart = String(String.UnicodeScalarView(scalars[..<offset]))
            let effect =
                exclusion
                ? "so this exclusion never applies to the URLs it names and they open the app"
                : "so it does not match the URLs it names"
            c.add(
                .queryInLegacyPath, .warning, path,
                "'\(body)': in paths, '?' is a one-character wildcard, not the start of a query, and the query is "
                    + "never compared, \(effect)",
                "write the path alone ('\(exclusion ? "NOT " : "")\(pathPart)'), or move to components and test the "
                    + "query with \"?\": {\"name\": \"*\"}; a '?' meant as a one-character wildcard (not followed "
                    + "by '*' or 'name=') is not flagged")
            return
        }
    }

    static func isQueryNameScalar(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == "-"
            || s == "."
    }

    /// SWC116: a whole URL (`https://host/path`) written where a path pattern belongs. Patterns are
    /// compared with the URL's path only, which never holds a scheme, so the pattern matches
    /// nothing. Returns whether it was reported.
    @discardableResult
    func lintURLInPattern(
        _ body: String, path: String, legacy: Bool, exclusion: Bool = false, into c: inout Collector
    ) -> Bool {
        let lower = body.lowercased()
        guard let schemeEnd = lower.firstRange(of: "://"),
            lower[..<schemeEnd.lowerBound].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "." || $0 == "-" })
        else { return false }
        let afterScheme = body[schemeEnd.upperBound...]
        let pathPart = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        let effect =
            exclusion ? "it excludes nothing, so the URLs it names open the app" : "it matches nothing"
        c.add(
            .urlInPattern, .warning, path,
            "'\(body)' is a whole URL, but \(legacy ? "paths entries are" : "the \"/\" pattern is") compared with "
                + "the URL's path only; \(effect)",
            "write only the path: '\(exclusion ? "NOT " : "")\(pathPart)' (the host is given by the file's "
                + "location and the entitlement)")
        return true
    }
}
