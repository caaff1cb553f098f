import Foundation
import SWCredCore
import Testing

/// ``ExplicitNull``: synthesized `Codable` that writes `null` for a `nil` optional (issue 20: one
/// mechanism in place of hand-written `encode(to:)` methods that repeat every field).
@Suite("ExplicitNull: nil written as null by synthesized Encodable")
struct ExplicitNullTests {
    /// Writes its value as a string in a shape no synthesized conformance would make.
    struct Custom: Codable, Hashable {
        var value: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("custom-\(value)")
        }
        init(value: Int) { self.value = value }
        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let value = Int(text.dropFirst("custom-".count)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text))
            }
            self.value = value
        }
    }

    struct Inner: Codable, Hashable {
        @ExplicitNull var note: String?
        var plain: Int?
    }

    struct Report: Codable, Hashable {
        var name: String
        @ExplicitNull var count: Int?
        @ExplicitNull var when: Date?
        @ExplicitNull var inner: Inner?
        @ExplicitNull var list: [Int?]?
        @ExplicitNull var custom: Custom?
        @ExplicitNull var nested: Int??
        var omitted: String?
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decoded(_ text: String) throws -> Report {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Report.self, from: Data(text.utf8))
    }

    @Test("nil fields are null; a bare optional is still left out")
    func nilIsNull() throws {
        let report = Report(name: "a", count: nil, when: nil, inner: nil, list: nil, custom: nil, nested: nil, omitted: nil)
        #expect(
            try Self.json(report)
                == #"{"count":null,"custom":null,"inner":null,"list":null,"name":"a","nested":null,"when":null}"#)
    }

    @Test("values are written as without the wrapper: the date strategy, nested types, a custom encoder")
    func valuesUnchanged() throws {
        let report = Report(
            name: "b", count: 3, when: Date(timeIntervalSince1970: 86_400), inner: Inner(note: nil, plain: nil),
            list: [1, nil, 3], custom: Custom(value: 7), nested: .some(.some(5)), omitted: "x")
        #expect(
            try Self.json(report)
                == #"{"count":3,"custom":"custom-7","inner":{"note":null},"list":[1,null,3],"name":"b","nested":5,"#
                + #""omitted":"x","when":"1970-01-02T00:00:00Z"}"#)
    }

    @Test("null and a missing key both decode to nil; values round-trip")
    func decodes() throws {
        let missing = try Self.decoded(#"{"name":"c"}"#)
        #expect(missing.count == nil && missing.when == nil && missing.inner == nil && missing.list == nil)
        let null = try Self.decoded(#"{"name":"c","count":null,"custom":null,"inner":{"note":null}}"#)
        #expect(null.count == nil && null.custom == nil && null.inner == Inner(note: nil, plain: nil))
        let full = Report(
            name: "d", count: 1, when: Date(timeIntervalSince1970: 0), inner: Inner(note: "n", plain: 2),
            list: [nil, 2], custom: Custom(value: 9), nested: .some(.some(4)), omitted: nil)
        #expect(try Self.decoded(Self.json(full)) == full)
    }

    @Test("a wrong type is still an error")
    func wrongType() {
        #expect(throws: DecodingError.self) { try Self.decoded(#"{"name":"e","count":"three"}"#) }
    }
}
