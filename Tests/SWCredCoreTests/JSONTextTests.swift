import Foundation
import SWCredCore
import Testing

/// ``JSONText`` (the byte writer of bulk `match`) and ``ExplicitNull``: what they write must be
/// JSON that a standard reader reads back to the same value.
@Suite("JSON text and explicit nulls")
struct JSONTextTests {
    @Test(
        "RFC 8259 §7: strings are quoted, with quote, backslash and controls escaped",
        arguments: [
            ("tacos.example", #""tacos.example""#),
            ("https://a.example/x?q=1", #""https://a.example/x?q=1""#),
            ("say \"hi\"", #""say \"hi\"""#),
            ("back\\slash", #""back\\slash""#),
            ("line\nfeed\r\ttab", #""line\nfeed\r\ttab""#),
            ("bell\u{07}\u{1F}", #""bell\u0007\u001f""#),
            ("café ✓", "\"café ✓\""),
        ])
    func strings(text: String, expected: String) throws {
        var buffer: [UInt8] = []
        JSONText.appendString(text, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
        #expect(try JSONDecoder().decode(String.self, from: Data(buffer)) == text)
    }

    @Test("RFC 8259 §6: integers as decimal digits", arguments: [0, 1, 9, 10, 4096, -1, -250, Int.max, Int.min])
    func integers(value: Int) {
        var buffer: [UInt8] = Array("x".utf8)
        JSONText.appendInteger(value, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x\(value)")
    }

    struct Document: Codable, Equatable {
        var name: String
        @ExplicitNull var port: Int?
        var omitted: Int?
    }

    @Test("cli.md: an ExplicitNull field is written as null when nil, and as its value otherwise")
    func explicitNull() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let empty = try encoder.encode(Document(name: "a", port: nil, omitted: nil))
        #expect(String(decoding: empty, as: UTF8.self) == #"{"name":"a","port":null}"#)
        let full = try encoder.encode(Document(name: "a", port: 443, omitted: 1))
        #expect(String(decoding: full, as: UTF8.self) == #"{"name":"a","omitted":1,"port":443}"#)
    }

    @Test("an ExplicitNull field reads back from null, from a value, and from a missing key")
    func explicitNullDecodes() throws {
        let decoder = JSONDecoder()
        let null = try decoder.decode(Document.self, from: Data(#"{"name":"a","port":null}"#.utf8))
        #expect(null == Document(name: "a", port: nil, omitted: nil))
        let value = try decoder.decode(Document.self, from: Data(#"{"name":"a","port":8443}"#.utf8))
        #expect(value == Document(name: "a", port: 8443, omitted: nil))
        let missing = try decoder.decode(Document.self, from: Data(#"{"name":"a"}"#.utf8))
        #expect(missing == Document(name: "a", port: nil, omitted: nil))
    }
}
