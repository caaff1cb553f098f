/// A property-list value, read by ``PropertyListReader`` from an XML or a binary (`bplist00`)
/// property list.
///
/// The cases are the plist 1.0 types plus the binary format's UID (keyed archives use it; an XML
/// plist has no form for it). Integers keep the full range the formats allow, -2⁶³ … 2⁶⁴-1:
/// ``integer(_:)`` holds every value that fits an `Int64`, ``unsignedInteger(_:)`` only the values
/// above `Int64.max`, so one number has one representation and `==` compares values. Dates are
/// seconds since 2001-01-01T00:00:00Z, Apple's reference date, as binary plists store them (the
/// module does not link Foundation).
package enum PropertyListValue: Sendable, Hashable {
    /// `<string>`, or a binary ASCII or UTF-16 string.
    case string(String)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<integer>` from -2⁶³ through `Int64.max`.
    case integer(Int64)
    /// `<integer>` above `Int64.max` (up to `UInt64.max`); smaller values are ``integer(_:)``.
    case unsignedInteger(UInt64)
    /// `<real>`.
    case real(Double)
    /// `<date>`, in seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    /// `<data>`, base64-decoded.
    case data([UInt8])
    /// `<array>`.
    case array([PropertyListValue])
    /// `<dict>`, entries in document order, keys distinct.
    case dictionary(PropertyListDictionary)
    /// A binary plist UID (`CF$UID` in keyed archives).
    case uid(UInt64)

    /// The string, when this is a string.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, when this is `<true/>` or `<false/>`.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer that fits an `Int64`.
    package var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is data.
    package var dataValue: [UInt8]? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    package var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary, when this is a dictionary.
    package var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// A short name of the type, for messages ("a string", "a dictionary", …). Integers and
    /// reals are both "a number".
    package var typeName: String {
        switch self {
        case .string: "a string"
        case .bool: "a Boolean"
        case .integer, .unsignedInteger, .real: "a number"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .uid: "a UID"
        }
    }
}
