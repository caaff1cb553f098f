/// An optional property that a synthesized `Encodable` conformance writes as JSON `null` when it
/// is `nil`, where the synthesized code would leave the key out: swcred's documents list every
/// field of `spec/cli.md`, the empty ones as `null`.
///
/// Public because public report types use it on public properties (``FetchReport``'s `status`
/// and `contentType`, ``AssociationVerdict``'s `port` and `fetch`), whose JSON from a plain
/// `JSONEncoder` keeps those keys as `null`. The value goes through a single-value container, so
/// an encoder's own handling of `Date`, `Data` and `URL` (a date strategy) still applies.
///
/// ```swift
/// struct Item: Encodable {
///     var server: String
///     @ExplicitNull var port: Int?
/// }
/// // {"port":null,"server":"tacos.example"}
/// ```
@propertyWrapper
public struct ExplicitNull<Value> {
    /// The value; `nil` is written as `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension ExplicitNull: Encodable where Value: Encodable {
    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Decodable where Value: Decodable {
    /// Reads the value, or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as `nil`, as it does for a plain optional property.
    public func decode<Value: Decodable>(
        _ type: ExplicitNull<Value>.Type, forKey key: Key
    ) throws -> ExplicitNull<Value> {
        ExplicitNull(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}

extension ExplicitNull: Sendable where Value: Sendable {}
extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}
