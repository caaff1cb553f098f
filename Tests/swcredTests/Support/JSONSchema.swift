import Foundation

/// A small JSON Schema (2020-12) validator for the schemas in `Schemas/`: the keywords they use —
/// `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `oneOf`,
/// `anyOf`, `not`, `minimum`, `maximum`, `minItems`, `maxItems`, `pattern`, and `$ref` to another
/// file of the folder. An unknown keyword is an error, so a schema cannot silently check less
/// than it says.
struct JSONSchemaValidator {
    let folder: URL
    private var cache: [String: [String: Any]] = [:]

    init(folder: URL) { self.folder = folder }

    /// The folder of the repository's schemas.
    static var repository: JSONSchemaValidator {
        JSONSchemaValidator(folder: CLI.repositoryRoot.appendingPathComponent("Schemas"))
    }

    /// Validates `instance` against `Schemas/<name>.schema.json`; returns the violations (empty
    /// when valid), each with its JSON path.
    mutating func validate(_ instance: Any, against name: String) throws -> [String] {
        let schema = try load(name + ".schema.json")
        var problems: [String] = []
        try check(instance, schema, path: "$", problems: &problems)
        return problems
    }

    private mutating func load(_ file: String) throws -> [String: Any] {
        if let cached = cache[file] { return cached }
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        guard let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLI.CLIError("\(file) is not a JSON object")
        }
        cache[file] = schema
        return schema
    }

    private static let known: Set<String> = [
        "$schema", "$id", "title", "description", "$ref", "type", "properties", "required",
        "additionalProperties", "items", "enum", "const", "oneOf", "anyOf", "not", "minimum",
        "maximum", "minItems", "maxItems", "pattern", "$defs",
    ]

    private mutating func check(_ value: Any, _ schema: [String: Any], path: String, problems: inout [String]) throws {
        if let unknown = schema.keys.first(where: { !Self.known.contains($0) }) {
            throw CLI.CLIError("schema keyword '\(unknown)' is not supported by the test validator")
        }
        if let ref = schema["$ref"] as? String {
            try check(value, try load(ref), path: path, problems: &problems)
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as? String ?? ""]
            if !types.contains(where: { Self.matches(value, type: $0) }) {
                problems.append("\(path): expected \(types.joined(separator: "|")), found \(Self.describe(value))")
                return
            }
        }
        if let constant = schema["const"], !Self.equal(value, constant) {
            problems.append("\(path): expected \(constant), found \(value)")
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal(value, $0) }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required field '\(key)'")
            }
            for (key, member) in object {
                if let sub = properties[key] as? [String: Any] {
                    try check(member, sub, path: "\(path).\(key)", problems: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Bool, !allowed {
                        problems.append("\(path): unexpected field '\(key)'")
                    } else if let sub = additional as? [String: Any] {
                        try check(member, sub, path: "\(path).\(key)", problems: &problems)
                    }
                }
            }
        }
        if let array = value as? [Any], !(value is [String: Any]) {
            if let items = schema["items"] as? [String: Any] {
                for (index, element) in array.enumerated() {
                    try check(element, items, path: "\(path)[\(index)]", problems: &problems)
                }
            }
            if let min = schema["minItems"] as? Int, array.count < min { problems.append("\(path): fewer than \(min) items") }
            if let max = schema["maxItems"] as? Int, array.count > max { problems.append("\(path): more than \(max) items") }
        }
        if let number = Self.number(value) {
            if let min = schema["minimum"] as? Double, number < min { problems.append("\(path): \(number) < \(min)") }
            if let max = schema["maximum"] as? Double, number > max { problems.append("\(path): \(number) > \(max)") }
        }
        if let string = value as? String, let pattern = schema["pattern"] as? String,
           string.range(of: pattern, options: .regularExpression) == nil {
            problems.append("\(path): '\(string)' does not match \(pattern)")
        }
        for (keyword, exactlyOne) in [("oneOf", true), ("anyOf", false)] {
            guard let options = schema[keyword] as? [[String: Any]] else { continue }
            var passing = 0
            for option in options {
                var sub: [String] = []
                try check(value, option, path: path, problems: &sub)
                if sub.isEmpty { passing += 1 }
            }
            if exactlyOne ? passing != 1 : passing == 0 {
                problems.append("\(path): \(passing) of the \(keyword) alternatives match")
            }
        }
        if let negated = schema["not"] as? [String: Any] {
            var sub: [String] = []
            try check(value, negated, path: path, problems: &sub)
            if sub.isEmpty { problems.append("\(path): matches a schema it must not match") }
        }
    }

    private static func isBoolean(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("Boolean") || type(of: value) == Bool.self
    }

    private static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBoolean(value)
        case "object": return value is [String: Any]
        case "array": return value is [Any] && !(value is [String: Any])
        case "string": return value is String
        case "number": return number(value) != nil
        case "integer": return number(value).map { $0 == $0.rounded() } ?? false
        default: return false
        }
    }

    private static func equal(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? String, let y = b as? String { return x == y }
        if isBoolean(a) || isBoolean(b) { return isBoolean(a) && isBoolean(b) && (a as? Bool) == (b as? Bool) }
        if let x = number(a), let y = number(b) { return x == y }
        if a is NSNull && b is NSNull { return true }
        return false
    }

    private static func describe(_ value: Any) -> String {
        for type in ["null", "boolean", "object", "array", "string", "integer", "number"] where matches(value, type: type) {
            return type
        }
        return "\(Swift.type(of: value))"
    }
}
