/// A parsed JSON value, read by ``JSONReader``.
///
/// Objects keep their members in document order (``JSONObject``); under
/// ``JSONReader/DuplicateKeys/report`` a repeated key's members are all kept, and lookup by key
/// returns the last one. Numbers are `Double`, as every swcred reader needs them: the reader
/// refuses numbers that are not finite as a `Double`.
package enum JSONValue: Sendable, Hashable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order.
    case object(JSONObject)

    /// The string, when this is a string.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, when this is an object.
    package var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The Boolean, when this is `true` or `false`.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// A short name of the JSON type, for messages ("a string", "an object", …).
    package var typeName: String {
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
