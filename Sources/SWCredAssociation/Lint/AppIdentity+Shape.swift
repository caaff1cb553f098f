// What is wrong with an app ID, naming the part that is wrong (SWC014, SWC109), and the team
// prefixes that documentation and templates use as placeholders (SWC119).
extension AppIdentity {
    /// Why `appID` is not shaped like `<10 upper-case letters or digits>.<bundle id>`, naming the
    /// part that is wrong (without repeating `appID`); `nil` when ``isWellFormed(_:)`` holds.
    static func shapeProblem(_ appID: String) -> String? {
        guard !isWellFormed(appID) else { return nil }
        let parts = appID.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return "there is no '.' between the 10-character prefix and the bundle ID"
        }
        let prefix = parts[0]
        let bundle = parts[1]
        let prefixOK =
            prefix.count == 10
            && prefix.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        if !prefixOK {
            if prefix.count != 10 {
                return "the prefix '\(prefix)' has \(prefix.count) characters, not 10"
            }
            return "the prefix '\(prefix)' may hold only upper-case letters and digits"
        }
        if bundle.isEmpty { return "there is no bundle ID after the prefix" }
        let allowed: (Unicode.Scalar) -> Bool = {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
        }
        if let bad = bundle.unicodeScalars.first(where: { !allowed($0) }) {
            return "the bundle ID '\(bundle)' contains '\(bad)'; bundle IDs hold only letters, "
                + "digits, '-' and '.'"
        }
        return "the bundle ID '\(bundle)' starts or ends with '.'"
    }

    /// The placeholder team prefixes seen in real files: Apple's documentation example
    /// (`ABCDE12345`), template words (`YOURTEAMID`, `TEAMID…`) and one character repeated ten
    /// times (`XXXXXXXXXX`, `0000000000`). `nil` when `appID`'s prefix is none of them.
    static let documentationExamplePrefix = "ABCDE12345"

    static func placeholderPrefix(_ appID: String) -> String? {
        guard isWellFormed(appID), let dot = appID.firstIndex(of: ".") else { return nil }
        let prefix = String(appID[..<dot])
        let known: Set<String> = ["ABCDE12345", "YOURTEAMID", "ABCDEFGHIJ", "1234567890", "0123456789"]
        if known.contains(prefix) || prefix.contains("TEAMID") { return prefix }
        if Set(prefix).count == 1 { return prefix }
        return nil
    }
}
