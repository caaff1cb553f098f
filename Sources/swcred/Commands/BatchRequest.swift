import SWCredCore

/// One request line.
struct BatchRequest {
    var id: JSONScalar?
    var op: String
    var domain: String?
    var account: String?
    var pick: String?
    var password: String?
    var delete: Bool?
    var generate: Bool?
    var user: String?
    var line = 0
    /// The whole line (passkey ops read their `options` object from it).
    var text = ""

    /// Reads a line with the strict JSON reader, duplicate keys refused (a key given twice would
    /// leave which account or password is meant to the reader's whim). `null` is the same as an
    /// absent member; unknown members are ignored.
    static func decode(_ text: String, number: Int) throws(SWCredError) -> BatchRequest {
        // Messages never quote the line, which may hold a password.
        let notARequest = SWCredError(
            .malformedInput, "line \(number) is not a batch request object ({\"op\": \"request\"|\"add\", …})")
        let limit = 4 * BatchCommand.maximumLineBytes  // BatchInput bounds the line; U+FFFD may grow it
        let reader = JSONReader(limits: .init(maxBytes: limit, maxStringBytes: limit), duplicateKeys: .refuse)
        // A line may start with a UTF-8 byte-order mark, which Foundation's reader skipped.
        let bom = text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let value: JSONValue
        do throws(JSONReader.Failure) {
            value = try reader.read(Array(text.utf8.dropFirst(bom))).value
        } catch {
            guard case .duplicateKey(let key) = error.kind else { throw notARequest }
            let inside = error.containerPath.isEmpty ? "" : " in \(error.containerPath.prefix(128))"
            throw SWCredError(
                .malformedInput, "line \(number): the key \"\(key.prefix(64))\" appears more than once\(inside)")
        }
        guard let object = value.objectValue else { throw notARequest }
        func member<T>(_ key: String, _ extract: (JSONValue) -> T?) throws(SWCredError) -> T? {
            try object.optionalMember(key, extract) { _ in notARequest }
        }
        let id = try member("id") { $0.numberValue.map(JSONScalar.number) ?? $0.stringValue.map(JSONScalar.string) }
        guard let op = try member("op", \.stringValue) else { throw notARequest }
        return BatchRequest(
            id: id, op: op, domain: try member("domain", \.stringValue), account: try member("account", \.stringValue),
            pick: try member("pick", \.stringValue), password: try member("password", \.stringValue),
            delete: try member("delete", \.boolValue), generate: try member("generate", \.boolValue),
            user: try member("user", \.stringValue), line: number, text: text)
    }
}

/// A request's `id`, echoed as given: a string, a number or null.
enum JSONScalar: Encodable, Sendable {
    case string(String), number(Double), null

    func encode(to encoder: any Encoder) throws {
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
