/// A batch request's `id`, echoed as given: a string, a number or null.
package enum BatchRequestID: Encodable, Sendable, Hashable {
    case string(String), number(Double), null

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .null: try container.encodeNil()
        }
    }
}
