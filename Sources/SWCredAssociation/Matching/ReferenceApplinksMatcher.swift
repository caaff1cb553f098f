package import SWCredCore

/// What opening a URL does for an app (AD-7.2): `exclude` (a "blocked match") is kept distinct
/// from `no_match`.
public enum MatchOutcome: String, Sendable, Hashable, Codable {
    /// The app opens the URL.
    case match
    /// A rule with `exclude` decided: the URL stays in the browser.
    case exclude
    /// No rule decided.
    case noMatch = "no_match"
}

/// The rule that decided a match: the `rule` object of `swcred match`.
public struct MatchedRule: Sendable, Hashable, Encodable {
    /// Index of the detail (array index, or position in key order for the legacy dictionary form).
    public var detail: Int
    /// Index of the rule within `components` or `paths`.
    public var component: Int
    /// `components` or `paths`.
    public var key: String
    /// The component object as written; for a legacy path, the equivalent `{"/": …}` (with
    /// `"exclude": true` for a `NOT ` path).
    package var pattern: JSONValue
}

/// The result of matching one URL for one app.
public struct ApplinksMatch: Sendable, Hashable {
    /// The outcome.
    public var outcome: MatchOutcome
    /// The app whose rules decided (or the app asked about).
    public var appID: String?
    /// The deciding rule; `nil` for `no_match`.
    public var rule: MatchedRule?

    /// Creates a result.
    public init(outcome: MatchOutcome, appID: String?, rule: MatchedRule?) {
        self.outcome = outcome
        self.appID = appID
        self.rule = rule
    }
}

/// The reference matcher (the oracle): the `applinks` rules of one association file, decided
/// rule by rule in Apple's order (section 7), written for clarity rather than speed (about 8,000
/// URLs a second). ``ApplinksAutomaton`` (also spelled ``ApplinksMatcher``) is built from it and
/// must decide every URL the same way; the differential tests and `Tools/match-differential`
/// compare the two. Package-internal: library users match with ``ApplinksAutomaton``.
///
/// ```swift
/// let matcher = ReferenceApplinksMatcher(file: file)
/// let result = matcher.match(try LinkURL("https://example.com/coupon/2345"),
///                            appID: "ABCDE12345.com.example.app")
/// // result.outcome == .match
/// ```
package struct ReferenceApplinksMatcher: Sendable {
    /// A compiled detail.
    struct CompiledDetail: Sendable {
        var index: Int
        var appIDs: [String]
        var key: String
        var rules: [CompiledRule]
    }

    /// Settings inherited through the defaults hierarchy (AD-7.5).
    struct Settings: Sendable {
        var path: String?
        var query: JSONValue?
        var fragment: String?
        var exclude = false
        var caseSensitive = true
        var percentEncoded = true

        /// Overlays the keys `object` sets validly on top of `self` (per key, whole value, AD-7.5).
        func overlaid(with object: JSONObject?) -> Settings {
            guard let object else { return self }
            var result = self
            // AD-7.15: a non-string `/` or `#` is unspecified, so the inherited value stays.
            if let path = object["/"]?.stringValue { result.path = path }
            if let query = object["?"], ReferenceApplinksMatcher.isUsableQuery(query) { result.query = query }
            if let fragment = object["#"]?.stringValue { result.fragment = fragment }
            // AD-7.15: only JSON true makes exclude true.
            if let exclude = object["exclude"] { result.exclude = exclude == .bool(true) }
            // AD-7.15: non-Boolean values fall back to the inherited value.
            if let value = object["caseSensitive"]?.boolValue { result.caseSensitive = value }
            if let value = object["percentEncoded"]?.boolValue { result.percentEncoded = value }
            return result
        }
    }

    /// A compiled rule.
    struct CompiledRule: Sendable {
        enum Query: Sendable {
            case any
            case string(WildcardPattern)
            case items([(name: String, pattern: WildcardPattern)])
        }

        var index: Int
        var pattern: JSONValue
        var path: PathPattern?
        var query: Query
        var fragment: WildcardPattern?
        var exclude: Bool
        var caseSensitive: Bool
        var percentEncoded: Bool

        func matches(_ url: LinkURL) -> Bool {
            if let path {
                let value = percentEncoded ? url.path : PercentDecoding.decode(url.path)
                guard path.matches(value) else { return false }
            }
            switch query {
            case .any: break
            case .string(let pattern):
                let raw = url.query ?? ""
                guard pattern.matches(percentEncoded ? raw : PercentDecoding.decode(raw)) else { return false }
            case .items(let items):
                let pairs = QueryItems.split(url.query ?? "", decode: !percentEncoded)
                for item in items {
                    let name = caseSensitive ? item.name : item.name.lowercased()
                    let values = pairs.filter { (caseSensitive ? $0.name : $0.name.lowercased()) == name }.map(\.value)
                    // AD-7.9: an absent item is the empty string; every instance must match.
                    if values.isEmpty {
                        guard item.pattern.matches("") else { return false }
                    } else {
                        guard values.allSatisfy(item.pattern.matches) else { return false }
                    }
                }
            }
            if let fragment {
                let raw = url.fragment ?? ""
                guard fragment.matches(percentEncoded ? raw : PercentDecoding.decode(raw)) else { return false }
            }
            return true
        }
    }

    let details: [CompiledDetail]
    /// Every app named by a detail, in evaluation order.
    package let appIDs: [String]

    /// Compiles the `applinks` rules of `file` (no applinks section: nothing ever matches, AD-6.3).
    package init(file: AssociationFile) {
        guard let section = file.applinks else {
            details = []
            appIDs = []
            return
        }
        let variables = Self.substitutionVariables(section.object)
        let base = Settings().overlaid(with: section.object["defaults"]?.objectValue)
        details = section.details.map { detail in
            let detailSettings = base.overlaid(with: detail.object["defaults"]?.objectValue)
            if let components = detail.object["components"] {
                // AD-3.5: `paths` is ignored when `components` is present; AD-7.15: a non-array
                // `components` gives no rules, a non-object component is skipped.
                let rules = (components.arrayValue ?? []).enumerated().compactMap { index, element in
                    element.objectValue.map {
                        Self.compile(component: $0, index: index, inherited: detailSettings, variables: variables)
                    }
                }
                return CompiledDetail(index: detail.index, appIDs: detail.appIDs, key: "components", rules: rules)
            }
            let paths = detail.object["paths"]?.arrayValue ?? []
            let rules = paths.enumerated().compactMap { index, element in
                element.stringValue.map { Self.compile(legacyPath: $0, index: index) }
            }
            return CompiledDetail(index: detail.index, appIDs: detail.appIDs, key: "paths", rules: rules)
        }
        appIDs = section.allAppIDs
    }

    /// Matches `url` for `appID` (AD-7.3): applicable details in order, first deciding rule wins;
    /// `appID` `nil` evaluates each listed app in file order and returns the first that decides.
    ///
    /// The caller has already chosen this file for the URL's host (section 8); URLs with a
    /// non-default port never match (AD-7.1).
    package func match(_ url: LinkURL, appID: String?) -> ApplinksMatch {
        guard let appID else {
            for candidate in appIDs {
                let result = match(url, appID: candidate)
                if result.outcome != .noMatch { return result }
            }
            return ApplinksMatch(outcome: .noMatch, appID: nil, rule: nil)
        }
        guard !url.hasNonDefaultPort else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        for detail in details where detail.appIDs.contains(appID) {
            for rule in detail.rules where rule.matches(url) {
                return ApplinksMatch(
                    outcome: rule.exclude ? .exclude : .match, appID: appID,
                    rule: MatchedRule(
                        detail: detail.index, component: rule.index, key: detail.key, pattern: rule.pattern))
            }
        }
        return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil)
    }

    // MARK: - Compilation

    /// `applinks.substitutionVariables`: name → string values; built-in names are ignored (AD-7.13).
    static func substitutionVariables(_ section: JSONObject) -> [String: [String]] {
        guard let object = section["substitutionVariables"]?.objectValue else { return [:] }
        var result: [String: [String]] = [:]
        for member in object.effectiveMembers where !WildcardPattern.builtInNames.contains(member.key) {
            guard let values = member.value.arrayValue else { continue }
            result[member.key] = values.compactMap(\.stringValue)
        }
        return result
    }

    /// AD-7.9: a `?` dictionary with any non-string value is ignored as a whole.
    static func isUsableQuery(_ value: JSONValue) -> Bool {
        switch value {
        case .string: return true
        case .object(let object): return object.members.allSatisfy { $0.value.stringValue != nil }
        default: return false
        }
    }

    static func compile(
        component: JSONObject, index: Int, inherited: Settings,
        variables: [String: [String]]
    ) -> CompiledRule {
        let settings = inherited.overlaid(with: component)
        let fold = !settings.caseSensitive
        var query = CompiledRule.Query.any
        switch settings.query {
        case .string(let text)?:
            query = .string(WildcardPattern(text, variables: variables, caseInsensitive: fold))
        case .object(let object)?:
            query = .items(
                object.effectiveMembers.compactMap { member in
                    member.value.stringValue.map {
                        (name: member.key, pattern: WildcardPattern($0, variables: variables, caseInsensitive: fold))
                    }
                })
        default:
            break
        }
        return CompiledRule(
            index: index, pattern: .object(component),
            path: settings.path.map { PathPattern($0, variables: variables, caseInsensitive: fold) },
            query: query,
            fragment: settings.fragment.map { WildcardPattern($0, variables: variables, caseInsensitive: fold) },
            exclude: settings.exclude, caseSensitive: settings.caseSensitive, percentEncoded: settings.percentEncoded)
    }

    /// AD-7.14: a legacy path; `NOT ` excludes; path only; case-sensitive; no variables or defaults.
    static func compile(legacyPath: String, index: Int) -> CompiledRule {
        let exclude = legacyPath.hasPrefix("NOT ")
        let text = exclude ? String(legacyPath.dropFirst(4)) : legacyPath
        var members = [JSONObject.Member(key: "/", value: .string(text))]
        if exclude { members.append(.init(key: "exclude", value: .bool(true))) }
        return CompiledRule(
            index: index, pattern: .object(JSONObject(members)),
            path: PathPattern(text, variables: nil, caseInsensitive: false), query: .any, fragment: nil,
            exclude: exclude, caseSensitive: true, percentEncoded: true)
    }
}

/// A path pattern with the slash normalisation of AD-7.7 (Decision):
/// prefix `/` and collapse leading slashes; an empty URL path is `/`; strip trailing slashes on
/// both sides; match; if that fails and the pattern ends in `/*`, match again without the `/*`.
struct PathPattern: Sendable {
    let main: WildcardPattern
    let parent: WildcardPattern?

    init(_ pattern: String, variables: [String: [String]]?, caseInsensitive: Bool) {
        var text = Substring(pattern)
        while text.hasPrefix("/") { text = text.dropFirst() }
        let normalised = "/" + text
        main = WildcardPattern(
            Self.stripTrailingSlashes(normalised), variables: variables,
            caseInsensitive: caseInsensitive)
        if normalised.hasSuffix("/*") {
            parent = WildcardPattern(
                Self.stripTrailingSlashes(String(normalised.dropLast(2))), variables: variables,
                caseInsensitive: caseInsensitive)
        } else {
            parent = nil
        }
    }

    static func stripTrailingSlashes(_ text: String) -> String {
        var result = Substring(text)
        while result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }

    func matches(_ path: String) -> Bool {
        let value = Self.stripTrailingSlashes(path.isEmpty ? "/" : path)
        return main.matches(value) || (parent?.matches(value) ?? false)
    }
}

/// Splits a raw query into items (AD-7.9): on `&`, then on the first `=`; `+` is not a space.
enum QueryItems {
    static func split(_ query: String, decode: Bool) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            return decode ? (PercentDecoding.decode(name), PercentDecoding.decode(value)) : (name, value)
        }
    }
}

/// Percent-decoding as UTF-8 (AD-7.12, Decision): invalid escapes and escapes that do not form
/// valid UTF-8 stay undecoded.
enum PercentDecoding {
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var output = ""
        var index = 0
        var pending: [UInt8] = []
        var pendingRaw: [UInt8] = []
        func flush() {
            guard !pending.isEmpty else { return }
            if let decoded = String(validating: pending, as: UTF8.self) {
                output += decoded
            } else {
                output += String(decoding: pendingRaw, as: UTF8.self)
            }
            pending.removeAll()
            pendingRaw.removeAll()
        }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var literal: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
            {
                if !literal.isEmpty {
                    output += String(decoding: literal, as: UTF8.self)
                    literal.removeAll()
                }
                pending.append(high << 4 | low)
                pendingRaw.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            flush()
            literal.append(bytes[index])
            index += 1
        }
        flush()
        output += String(decoding: literal, as: UTF8.self)
        return output
    }
}
