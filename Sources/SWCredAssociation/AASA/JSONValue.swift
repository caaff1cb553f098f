/// A parsed JSON value that keeps object members in document order, duplicates included.
///
/// swcred reads association files with its own reader (``JSONReader``) instead of
/// `JSONSerialization` so that nesting depth is bounded before any recursion, key order is kept
/// (legacy `details` dictionaries and lint paths need it), and duplicate keys can be reported.
public enum JSONValue: Sendable, Hashable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number (JSON numbers are read as `Double`).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order.
    case object(JSONObject)

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A short name of the JSON type, for messages ("a string", "an object", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object with its members in document order.
///
/// Lookup by key returns the last member with that key (AD-3.9: the last duplicate wins).
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue
        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every member in document order, duplicates included.
    public var members: [Member]

    /// Creates an object from members.
    public init(_ members: [Member] = []) { self.members = members }

    /// The value of the last member named `key`, if any.
    public subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// The distinct keys in order of their last occurrence's position among the first
    /// occurrences (document order of first appearance).
    public var keys: [String] {
        var seen = Set<String>()
        var result: [String] = []
        for member in members where seen.insert(member.key).inserted { result.append(member.key) }
        return result
    }

    /// The effective members: one per key, the last value for each, in order of first appearance.
    public var effectiveMembers: [Member] {
        keys.compactMap { key in self[key].map { Member(key: key, value: $0) } }
    }
}

extension JSONValue: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes the value; for duplicate keys only the last value is written.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            if value.rounded() == value, let int = Int(exactly: value) {
                try container.encode(int)
            } else {
                try container.encode(value)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let object):
            var container = encoder.container(keyedBy: Key.self)
            for member in object.effectiveMembers {
                try container.encode(member.value, forKey: Key(stringValue: member.key))
            }
        }
    }
}
