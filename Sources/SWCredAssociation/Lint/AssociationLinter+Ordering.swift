import SWCredCore

// Rules that match every URL by accident (SWC111) and rules that can never apply because an
// earlier rule takes every URL they could match (SWC114). Within a detail the first matching
// rule decides (AD-7.3), so an earlier rule that covers a later one makes it dead.
extension AssociationLinter {
    /// SWC111: a component whose only keys are unknown (`{"/account/*": "*"}`, `{"*": "/promo"}`)
    /// has no `/`, `?` or `#`, so it behaves as `{}` and matches every URL (AD-3.6, AD-7.4).
    /// `{}`, `{"exclude": true}` and a component with only a comment are written that way on
    /// purpose and are not flagged.
    func lintUnknownKeysOnly(_ component: JSONObject, path: String, into c: inout Collector) {
        let keys = component.effectiveMembers.map(\.key)
        guard !keys.contains(where: { ["/", "?", "#"].contains($0) }) else { return }
        let unknown = component.effectiveMembers.filter { !Self.componentKeys.contains($0.key) }
        guard let first = unknown.first else { return }
        let excludes = component["exclude"] == .bool(true)
        let names = unknown.map { "'\($0.key)'" }.joined(separator: ", ")
        // The key or the value that was probably meant as the path pattern.
        let looksLikePath: (String) -> Bool = { $0.hasPrefix("/") || $0.contains("*") }
        let meant: String? =
            if let value = first.value.stringValue, value.hasPrefix("/") {
                value
            } else {
                looksLikePath(first.key) ? first.key : nil
            }
        c.add(
            .componentMatchesEverything, .warning, path,
            "the component has no \"/\", \"?\" or \"#\": its key\(unknown.count == 1 ? "" : "s") \(names) "
                + "\(unknown.count == 1 ? "is" : "are") unknown and ignored, so it behaves as {} and "
                + (excludes ? "excludes every URL" : "opens every URL in the app")
                + " (unless defaults set a pattern)",
            meant.map {
                "write the pattern under the \"/\" key: {\"/\": \"\($0)\"\(excludes ? ", \"exclude\": true" : "")}"
            }
                ?? "use the keys \"/\" (path), \"?\" (query) and \"#\" (fragment)")
    }

    /// One rule of a detail with its effective settings (AD-7.5).
    struct OrderedRule {
        let path: String
        let name: String
        let settings: ReferenceApplinksMatcher.Settings
    }

    /// SWC114 for every detail of `section`: a rule after one that matches every URL it could
    /// match is never reached. Only provable cases are reported: an earlier rule whose path is
    /// `*` or `/*` (or unspecified), or a literal prefix followed by one `*` that the later path
    /// starts with, and whose query and fragment are unspecified or `*`. Across details: a detail
    /// whose every app already has an earlier detail with a catch-all rule is never consulted,
    /// because a detail that decides ends the search (AD-7.3).
    func lintOrdering(_ section: ApplinksSection, into c: inout Collector) {
        let base = ReferenceApplinksMatcher.Settings().overlaid(with: section.object["defaults"]?.objectValue)
        // App ID → the first catch-all rule of the first earlier detail for it that has one.
        var decidedBy: [String: OrderedRule] = [:]
        for detail in section.details {
            let rules = orderedRules(of: detail, inherited: base.overlaid(with: detail.object["defaults"]?.objectValue))
            for (position, later) in rules.enumerated() {
                guard let earlier = rules[..<position].first(where: { Self.covers($0.settings, later.settings) })
                else { continue }
                report(later, shadowedBy: earlier, into: &c)
            }
            if !detail.appIDs.isEmpty, detail.appIDs.allSatisfy({ decidedBy[$0] != nil }),
                let catchAll = detail.appIDs.first.flatMap({ decidedBy[$0] })
            {
                let disagrees = rules.contains { $0.settings.exclude != catchAll.settings.exclude }
                c.add(
                    .ruleNeverReached, disagrees ? .warning : .note, detail.path,
                    "this detail is never reached: for each of its apps an earlier detail has a rule that matches "
                        + "every URL (\(catchAll.path)), and a detail that decides ends the search"
                        + (disagrees
                            ? ", so its rules that \(catchAll.settings.exclude ? "open" : "exclude") URLs do nothing"
                            : ""),
                    "move this detail before the one holding \(catchAll.path), or merge the two", related: catchAll.path
                )
            }
            if let catchAll = rules.first(where: { Self.isCatchAll($0.settings) }) {
                for appID in detail.appIDs where decidedBy[appID] == nil { decidedBy[appID] = catchAll }
            }
        }
    }

    /// The rules of `detail` with their effective settings: components (AD-7.5), else legacy
    /// paths (AD-7.14: no defaults; `NOT ` excludes).
    func orderedRules(of detail: ApplinksSection.Detail, inherited: ReferenceApplinksMatcher.Settings) -> [OrderedRule] {
        var rules: [OrderedRule] = []
        if let components = detail.object["components"] {
            for (index, element) in (components.arrayValue ?? []).enumerated() {
                guard let object = element.objectValue else { continue }
                rules.append(
                    OrderedRule(
                        path: JSONPath.element(JSONPath.child(detail.path, "components"), index),
                        name: "components[\(index)]", settings: inherited.overlaid(with: object)))
            }
        } else if let paths = detail.object["paths"]?.arrayValue {
            for (index, element) in paths.enumerated() {
                guard let text = element.stringValue else { continue }
                var settings = ReferenceApplinksMatcher.Settings()
                settings.exclude = text.hasPrefix("NOT ")
                settings.path = settings.exclude ? String(text.dropFirst(4)) : text
                rules.append(
                    OrderedRule(
                        path: JSONPath.element(JSONPath.child(detail.path, "paths"), index),
                        name: "paths[\(index)]", settings: settings))
            }
        }
        return rules
    }

    func report(_ later: OrderedRule, shadowedBy earlier: OrderedRule, into c: inout Collector) {
        let effect: String
        let severity: DiagnosticSeverity
        switch (earlier.settings.exclude, later.settings.exclude) {
        case (false, true):
            effect = "the URLs it was meant to exclude open the app"
            severity = .warning
        case (true, false):
            effect = "the URLs it was meant to open are excluded"
            severity = .warning
        default:
            effect = "it has no effect"
            severity = .note
        }
        let scope = Self.isCatchAll(earlier.settings) ? "matches every URL" : "matches every URL \(later.name) could"
        c.add(
            .ruleNeverReached, severity, later.path,
            "rule \(later.name) is never reached: rule \(earlier.name) before it (\(earlier.path)) \(scope), and the "
                + "first matching rule decides, so \(effect)",
            "move \(later.name) before \(earlier.name) (exclusions go before the rules they carve out of), "
                + "or remove it",
            related: earlier.path)
    }

    /// Whether every URL `later` matches is matched by `earlier` (a sufficient test, never a guess).
    static func covers(_ earlier: ReferenceApplinksMatcher.Settings, _ later: ReferenceApplinksMatcher.Settings) -> Bool {
        guard isCatchAllQuery(earlier.query), isCatchAllText(earlier.fragment) else { return false }
        if isCatchAllPath(earlier.path) { return true }
        guard let earlierPath = earlier.path, let laterPath = later.path else { return false }
        // The same text must be compared: equal percentEncoded, and a case-sensitive earlier rule
        // cannot cover a case-insensitive later one.
        guard earlier.percentEncoded == later.percentEncoded, !earlier.caseSensitive || later.caseSensitive
        else { return false }
        let lead = normalizedPath(earlierPath)
        guard lead.hasSuffix("*") else { return false }
        let literal = String(lead.dropLast())
        guard literalPrefix(literal) == literal, !literal.contains("//") else { return false }
        let laterPrefix = literalPrefix(normalizedPath(laterPath))
        return earlier.caseSensitive
            ? laterPrefix.hasPrefix(literal) : laterPrefix.lowercased().hasPrefix(literal.lowercased())
    }

    /// AD-7.7: a leading `/` added when absent, leading slashes collapsed to one.
    static func normalizedPath(_ text: String) -> String {
        "/" + text.drop { $0 == "/" }
    }

    /// The text before the first wildcard (`*`, `?`) or substitution variable (`$(`).
    static func literalPrefix(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let character = rest.first, character != "*", character != "?", !rest.hasPrefix("$(") {
            result.append(character)
            rest = rest.dropFirst()
        }
        return result
    }

    static func isCatchAll(_ settings: ReferenceApplinksMatcher.Settings) -> Bool {
        isCatchAllPath(settings.path) && isCatchAllQuery(settings.query) && isCatchAllText(settings.fragment)
    }

    /// Unspecified, `*` or `/*` (AD-7.7: `/*` also matches its parent, the root).
    static func isCatchAllPath(_ path: String?) -> Bool {
        guard let path else { return true }
        return normalizedPath(path) == "/*"
    }

    static func isCatchAllText(_ text: String?) -> Bool { text == nil || text == "*" }

    /// Unspecified, `*`, or a dictionary whose every value is `*` (an absent item is "", AD-7.9).
    static func isCatchAllQuery(_ query: JSONValue?) -> Bool {
        switch query {
        case nil: return true
        case .string(let text)?: return text == "*"
        case .object(let items)?: return items.effectiveMembers.allSatisfy { $0.value.stringValue == "*" }
        default: return false
        }
    }
}
