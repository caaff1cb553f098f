/// Builds the JSON paths used in reader errors, lint findings and diagnostics
/// (`applinks.details[0].components[2]`).
package enum JSONPath {
    /// One step of a path: a member's key or an element's index.
    package enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// `parent.key`, or `parent["key"]` when the key is not a plain identifier.
    package static func child(_ parent: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F
            }
        if plain { return parent.isEmpty ? key : "\(parent).\(key)" }
        var escaped = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\(parent)[\"\(escaped)\"]"
    }

    /// `parent[index]`.
    package static func element(_ parent: String, _ index: Int) -> String { "\(parent)[\(index)]" }

    /// The path of `components`, outermost first; `""` for the top level.
    package static func render(_ components: some Sequence<Component>) -> String {
        var path = ""
        for component in components {
            switch component {
            case .key(let key): path = child(path, key)
            case .index(let index): path = element(path, index)
            }
        }
        return path
    }
}
