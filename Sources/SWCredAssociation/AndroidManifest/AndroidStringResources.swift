package import SWCredCore

/// The `<string>` values of an Android `res/values/strings.xml`, unescaped as `aapt2` compiles
/// them (``unescape(_:)``), with a problem per string that does not compile.
package struct AndroidStringResources: Sendable, Hashable {
    /// Each string's compiled value, by `name`.
    package var strings: [String: String]
    /// Why a string does not compile, by `name` (an unescaped apostrophe, a bad `\u` escape).
    package var problems: [String: String]

    /// The most strings read (10,000).
    package static let maximumStrings = 10_000

    /// Reads a `<resources>` document.
    ///
    /// - Throws: `malformedInput` (65) when it is not well-formed XML or its root is not `<resources>`.
    package static func parse(_ bytes: [UInt8]) throws(SWCredError) -> AndroidStringResources {
        let root = try XMLElementReader.read(bytes, what: "strings.xml")
        guard root.name == "resources" else {
            throw SWCredError(.malformedInput, "strings.xml's root element is <\(root.name)>, not <resources>")
        }
        var result = AndroidStringResources(strings: [:], problems: [:])
        for element in root.children(named: "string").prefix(maximumStrings) {
            guard let name = element[attribute: "name"] else { continue }
            switch unescape(element.text) {
            case .success(let value): result.strings[name] = value
            case .failure(let problem): result.problems[name] = problem.message
            }
        }
        return result
    }

    /// Why a string does not compile.
    package struct Problem: Error, Sendable, Hashable {
        /// One sentence.
        package var message: String
    }

    /// A string resource's character data as `aapt2` compiles it: `\` escapes (`\n`, `\t`,
    /// `\uXXXX`, and any other character literally: `\"`, `\'`, `\\`, `\@`, `\?`); an unescaped
    /// `"` starts or ends a quoted run and is dropped; outside quotes, runs of white space become
    /// one space and the ends are trimmed; an unescaped `'` outside quotes is an error.
    package static func unescape(_ text: String) -> Result<String, Problem> {
        var out: [Unicode.Scalar] = []
        var quoted = false
        // Where the unquoted trailing white space starts, to trim it at the end.
        var pendingSpace = false
        var scalars = Array(text.unicodeScalars)[...]
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
        }
        func flushSpace() {
            if pendingSpace, !out.isEmpty { out.append(" ") }
            pendingSpace = false
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\\":
                guard let next = scalars.popFirst() else { return .failure(Problem(message: "a '\\' at the end")) }
                flushSpace()
                switch next {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "u":
                    let digits = String(String.UnicodeScalarView(scalars.prefix(4)))
                    guard digits.count == 4, let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value)
                    else { return .failure(Problem(message: "a \\u escape without four hex digits")) }
                    scalars = scalars.dropFirst(4)
                    out.append(decoded)
                default: out.append(next)
                }
            case "\"":
                flushSpace()
                quoted.toggle()
            case "'" where !quoted:
                return .failure(
                    Problem(message: "an apostrophe not preceded by \\ (aapt2: \"unescaped apostrophe\")"))
            default:
                if !quoted, isSpace(scalar) {
                    pendingSpace = true
                } else {
                    flushSpace()
                    out.append(scalar)
                }
            }
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: out)
        return .success(result)
    }
}
