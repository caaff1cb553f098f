// Shared with Tools/match-differential (which builds it with its own SeededGenerator).

/// Generates association files and URLs that exercise every matching feature of section 7.
struct MatchCaseGenerator {
    var random: SeededGenerator

    static let apps = ["ABCDE12345.com.example.one", "ABCDE12345.com.example.two", "FGHIJ67890.org.example.three"]

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    // Pattern text: literals that URLs also use (both cases, escapes, non-ASCII), wildcards,
    // custom and built-in variables, an undefined one.
    static let patternPieces = [
        "a", "b", "A", "B", "é", "É", "1", "en", "US", "%41", "%c3%a9", "%C3%A9", "%2F", "%FF", "x-y", "*", "?", "?*",
        "*", "$(v)", "$(w)", "$(alpha)", "$(digit)", "$(upper)", "$(lower)", "$(alnum)", "$(xdigit)", "$(lang)",
        "$(region)", "$(nope)", "$(v", "/",
    ]
    static let textPieces = [
        "a", "b", "A", "B", "é", "É", "1", "42", "en", "fr", "US", "ca", "%41", "%61", "%c3%a9", "%C3%A9", "%C3", "%2F",
        "%FF", "%", "x-y", "bx", "zzz", "$(v)", "/", "/", "/", "",
    ]

    mutating func pattern(maximum: Int = 6) -> String {
        if chance(3) {
            // Hostile: many overlapping stars.
            return "/" + String(repeating: pick(["*a", "*?", "?*a", "*a?"]), count: count(4...14)) + pick(["b", "", "*"])
        }
        var text = pick(["/", "", "/", "//"])
        for _ in 0..<count(0...maximum) { text += pick(Self.patternPieces) }
        if chance(20) { text += "/*" }
        if chance(10) { text += "/" }
        return text
    }

    mutating func text(maximum: Int = 6) -> String {
        (0..<count(0...maximum)).map { _ in pick(Self.textPieces) }.joined()
    }

    mutating func query() -> String {
        if chance(15) { return "\"" + pattern(maximum: 3) + "\"" }
        if chance(5) { return "{\"k\": 1}" }  // a non-string value: the dictionary is ignored
        let items = (0..<count(1...3)).map { _ in
            "\"\(pick(["k", "K", "q", "é", "%6B", "\u{212A}"]))\": \"\(pick(["?*", "*", "", "a*", "$(v)", "1", "?", "$(digit)*", "É"]))\""
        }
        return "{" + items.joined(separator: ", ") + "}"
    }

    mutating func settings(pathKeys: Bool) -> [String] {
        var members: [String] = []
        if pathKeys, chance(10) { members.append("\"/\": \"\(pattern(maximum: 2))\"") }
        if pathKeys, chance(10) { members.append("\"?\": \(query())") }
        if pathKeys, chance(8) { members.append("\"#\": \"\(pick(["*", "a*", "?", "", "$(v)"]))\"") }
        if chance(20) { members.append("\"caseSensitive\": \(pick(["false", "true", "1"]))") }
        if chance(20) { members.append("\"percentEncoded\": \(pick(["false", "true", "\"no\""]))") }
        if chance(8) { members.append("\"exclude\": \(pick(["true", "false", "1"]))") }
        return members
    }

    mutating func component() -> String {
        var members: [String] = []
        if chance(90) { members.append("\"/\": \"\(pattern())\"") }
        if chance(30) { members.append("\"?\": \(query())") }
        if chance(20) { members.append("\"#\": \"\(pick(["*", "a*", "?", "", "$(v)", "*b", "É*", "%41"]))\"") }
        if chance(20) { members.append("\"exclude\": \(pick(["true", "false", "\"yes\""]))") }
        members += settings(pathKeys: false)
        if chance(5) { members.append("\"comment\": \"generated\"") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    mutating func file() -> String {
        var details: [String] = []
        for _ in 0..<count(1...4) {
            var apps = Set<String>()
            for _ in 0..<count(1...2) { apps.insert(pick(Self.apps)) }
            let appList = apps.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            if chance(25) {
                let paths = (0..<count(0...5)).map { _ in
                    "\"" + (chance(25) ? "NOT " : "") + (chance(10) ? "*" : pattern()) + "\""
                }
                details.append("{\"appIDs\": [\(appList)], \"paths\": [\(paths.joined(separator: ", "))]}")
            } else {
                let components = (0..<count(0...8)).map { _ in component() }
                let defaults = chance(25) ? "\"defaults\": {\(settings(pathKeys: true).joined(separator: ", "))}, " : ""
                details.append(
                    "{\"appIDs\": [\(appList)], \(defaults)\"components\": [\(components.joined(separator: ", "))]}")
            }
        }
        var members = ["\"details\": [\(details.joined(separator: ", "))]"]
        if chance(60) {
            members.append(
                #""substitutionVariables": {"v": ["a", "b*", "%41"], "w": ["x?", "é", ""], "alpha": ["zzz"], "e": []}"#)
        }
        if chance(25) { members.append("\"defaults\": {\(settings(pathKeys: true).joined(separator: ", "))}") }
        return "{\"applinks\": {\(members.joined(separator: ", "))}}"
    }

    mutating func url() -> String {
        // Mostly valid URLs (about one in eight is rejected, to compare the errors too).
        var text = chance(95) ? pick(["https://", "https://", "http://", "HTTPS://"]) : pick(["ftp://", "https:/"])
        text +=
            chance(92)
            ? pick([
                "example.com", "example.com", "Example.COM.", "example.com:443", "example.com:8443", "example.com:80",
                "u:p@example.com", "[::1]", "[::1]:443",
            ]) : pick(["exa mple.com", "example.com:x", ""])
        if chance(90) { text += "/" + self.text() }
        if chance(10) { text += pick(["/", "//", " x", "é"]) }
        if chance(40) {
            let items = (0..<count(0...3)).map { _ in
                pick(["k", "K", "q", "é", "%6B", "k%20"]) + (chance(80) ? "=" + self.text(maximum: 2) : "")
            }
            text += "?" + items.joined(separator: pick(["&", "&&"]))
        }
        if chance(25) { text += "#" + self.text(maximum: 2) }
        return text
    }
}
