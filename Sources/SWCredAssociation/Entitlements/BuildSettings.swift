/// Xcode build settings for a source `.entitlements` file (`swcred lint --entitlements FILE
/// --build-setting NAME=VALUE`).
///
/// A source file may write `applinks:$(APP_CLIP_DOMAIN)` or
/// `$(AppIdentifierPrefix)$(CFBundleIdentifier)`; Xcode replaces each `$(NAME)` or `${NAME}` with
/// the setting's value when it signs the app. ``expand(_:)`` does the same for the settings it is
/// given and leaves every other reference as written, so that lint can say which ones are left.
///
/// ```swift
/// let settings = BuildSettings(["APP_CLIP_DOMAIN": "clip.example.com"])
/// settings.expand("appclips:$(APP_CLIP_DOMAIN)")  // "appclips:clip.example.com"
/// ```
package struct BuildSettings: Sendable, Hashable {
    /// Setting name → value.
    package var values: [String: String]

    /// Creates settings from name → value pairs.
    package init(_ values: [String: String] = [:]) { self.values = values }

    /// Parses `NAME=VALUE` (the form of `--build-setting`): the name is letters, digits and `_`,
    /// not starting with a digit; the value is everything after the first `=` and may be empty.
    /// `nil` when `text` is not of that form.
    package static func parseAssignment(_ text: String) -> (name: String, value: String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let name = String(text[..<equals])
        guard isName(name) else { return nil }
        return (name, String(text[text.index(after: equals)...]))
    }

    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// One `$(…)` or `${…}` reference in `text`: its range and the name inside (with any
    /// `:modifier` kept, so that it is not expanded).
    struct Reference {
        let range: Range<String.Index>
        let name: String
        var written: String
    }

    /// The references in `text`, in order. An opening `$(` without its closing bracket is not a
    /// reference (it is left for the host checks to report).
    static func references(in text: String) -> [Reference] {
        var found: [Reference] = []
        var index = text.startIndex
        while let dollar = text[index...].firstIndex(of: "$") {
            let open = text.index(after: dollar)
            guard open < text.endIndex, text[open] == "(" || text[open] == "{" else {
                index = open
                continue
            }
            let close: Character = text[open] == "(" ? ")" : "}"
            let nameStart = text.index(after: open)
            guard let end = text[nameStart...].firstIndex(of: close) else { break }
            let after = text.index(after: end)
            found.append(
                Reference(
                    range: dollar..<after, name: String(text[nameStart..<end]), written: String(text[dollar..<after])))
            index = after
        }
        return found
    }

    /// The first build-setting reference in `text` as written (`$(APP_CLIP_DOMAIN)`), or `nil`.
    package static func firstReference(in text: String) -> String? { references(in: text).first?.written }

    /// `text` with each `$(NAME)` / `${NAME}` whose NAME is set replaced by its value (one pass, as
    /// values are taken literally); references to settings that are not given stay as written.
    package func expand(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        for reference in Self.references(in: text) {
            result += text[index..<reference.range.lowerBound]
            result += values[reference.name] ?? reference.written
            index = reference.range.upperBound
        }
        result += text[index...]
        return result
    }
}

extension Entitlements {
    /// These entitlements with `settings` expanded in `application-identifier` and in every
    /// associated-domains entry, each entry then parsed again (AD-2.2), as Xcode would have
    /// written them into the signed app.
    func expanding(_ settings: BuildSettings) -> Entitlements {
        guard !settings.values.isEmpty else { return self }
        var result = self
        result.applicationIdentifier = applicationIdentifier.map(settings.expand)
        result.entries = entries.map { EntitlementEntry.parse(settings.expand($0.raw)) }
        return result
    }
}
