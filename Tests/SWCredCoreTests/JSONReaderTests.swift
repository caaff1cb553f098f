import Foundation
import SWCredCore
import Testing

@Suite("JSONReader: the one strict JSON reader")
struct JSONReaderTests {
    static func read(
        _ text: String, limits: JSONReader.Limits = .init(), duplicateKeys: JSONReader.DuplicateKeys = .refuse
    ) throws(JSONReader.Failure) -> JSONReader.Document {
        try JSONReader(limits: limits, duplicateKeys: duplicateKeys).read(Array(text.utf8))
    }

    static func failure(
        _ bytes: [UInt8], limits: JSONReader.Limits = .init(), duplicateKeys: JSONReader.DuplicateKeys = .refuse
    ) -> JSONReader.Failure? {
        do {
            _ = try JSONReader(limits: limits, duplicateKeys: duplicateKeys).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ text: String, limits: JSONReader.Limits = .init()) -> JSONReader.Failure? {
        failure(Array(text.utf8), limits: limits)
    }

    @Test("values, in document order, with white space around")
    func values() throws {
        let value = try Self.read(" {\"b\":[1,-2.5e3,true,false,null],\"a\":{},\"c\":[]}\n\t").value
        #expect(value.objectValue?.members.map(\.key) == ["b", "a", "c"])
        #expect(value.objectValue?["b"]?.arrayValue == [.number(1), .number(-2500), .bool(true), .bool(false), .null])
        #expect(value.objectValue?["a"] == .object(JSONObject()))
        #expect(value.objectValue?["c"] == .array([]))
        #expect(try Self.read("\"x\"").value == .string("x"))
        #expect(try Self.read("null").value.typeName == "null")
    }

    @Test("escapes and surrogate pairs decode; lone surrogates are refused")
    func escapes() throws {
        let text = #""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#
        #expect(try Self.read(text).value == .string("\"\\/\u{8}\u{C}\n\r\tAé€😀"))
        for bad in [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\ud83d\ud83d""#] {
            #expect(Self.failure(bad)?.kind == .encoding, "\(bad)")
        }
        for bad in [#""\x""#, #""\u12""#, #""\u12G4""#, #""\"#, #""abc"#, #""\u"#] {
            #expect(Self.failure(bad)?.kind == .syntax, "\(bad)")
        }
        #expect(Self.failure("\"a\u{01}b\"")?.kind == .encoding)
        #expect(Self.failure("\"a\\n\u{1F}\"")?.kind == .encoding)
    }

    @Test("invalid UTF-8 is refused, in plain and escaped strings; valid multi-byte text is read")
    func utf8() throws {
        #expect(try JSONReader().read(Array("\"é€😀\"".utf8)).value == .string("é€😀"))
        let bad: [[UInt8]] = [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC3, 0x22],  // truncated sequence
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape
        ]
        for bytes in bad { #expect(Self.failure(bytes)?.kind == .encoding, "\(bytes)") }
    }

    @Test("numbers: RFC 8259 grammar, -0, exponents; leading zeros, huge and over-long numbers refused")
    func numbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("12", 12), ("-12", -12), ("1.5", 1.5), ("1e3", 1000), ("1E+3", 1000),
            ("2.5e-3", 0.0025), ("999999999999999", 999_999_999_999_999),
            ("12345678901234567890", 12_345_678_901_234_567_168),
            ("1e308", 1e308), ("4.9e-324", .leastNonzeroMagnitude),
        ]
        for (text, expected) in cases {
            #expect(try Self.read(text).value == .number(expected), "\(text)")
        }
        #expect(try Self.read("-0").value.numberValue?.sign == .minus)
        for bad in ["01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1.e3", "--1", "NaN", "Infinity"] {
            #expect(Self.failure(bad) != nil, "\(bad)")
        }
        #expect(Self.failure("1e309")?.message == "number out of range")
        #expect(Self.failure("-1e999")?.message == "number out of range")
        #expect(Self.failure(String(repeating: "1", count: 65))?.message == "number too long")
        #expect((try? Self.read(String(repeating: "1", count: 64))) != nil)
    }

    @Test("trailing data, a byte-order mark, empty input and bad structure are refused with the offset")
    func structure() {
        let trailing = Self.failure("{\"a\":1} x")
        #expect(trailing?.kind == .syntax)
        #expect(trailing?.offset == 8)
        #expect(Self.failure("{} {}")?.offset == 3)
        // The reader takes no byte-order mark: association files strip it (with a warning) first.
        #expect(Self.failure([0xEF, 0xBB, 0xBF] + Array("{}".utf8))?.offset == 0)
        for bad in ["", " ", "{", "[", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[1 2]", "{a:1}", "{'a':1}", "tru", "nul",
            "[1]]", "// x\n1", "{\"a\":1", "[1,"]
        {
            #expect(Self.failure(bad)?.kind == .syntax, "\(bad)")
        }
    }

    @Test("errors carry the JSON path of the value being read")
    func errorPaths() {
        let failure = Self.failure(#"{"a":{"b":[1,{"c d":tru}]}}"#)
        #expect(failure?.path == #"a.b[1]["c d"]"#)
        #expect(failure?.components == [.key("a"), .key("b"), .index(1), .key("c d")])
        #expect(failure?.description.hasSuffix("(at byte \(failure?.offset ?? -1))") == true)
        #expect(Self.failure("[")?.path == "[0]")  // the missing first element
        #expect(Self.failure("tru")?.path == "")
    }

    @Test("nesting: exactly the limit is read, one more is refused before descending, even 100,000 deep")
    func depth() throws {
        let limits = JSONReader.Limits(maxDepth: 16)
        let fine = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect((try? Self.read(fine, limits: limits)) != nil)
        let deep = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        #expect(Self.failure(deep, limits: limits)?.kind == .limitExceeded)
        #expect(Self.failure(deep, limits: limits)?.offset == 16)
        let objects = String(repeating: "{\"a\":", count: 17) + "1" + String(repeating: "}", count: 17)
        #expect(Self.failure(objects, limits: limits)?.kind == .limitExceeded)
        let hostile = String(repeating: "[", count: 100_000)
        #expect(Self.failure(hostile)?.kind == .limitExceeded)
    }

    @Test("size, string and member limits: exactly the limit is read, one more is refused")
    func limits() throws {
        let size = JSONReader.Limits(maxBytes: 8)
        #expect((try? Self.read("[1,2,34]", limits: size)) != nil)
        #expect(Self.failure("[1,2,345]", limits: size)?.kind == .inputTooLarge)
        let strings = JSONReader.Limits(maxStringBytes: 4)
        #expect(try Self.read("[\"abcd\",\"\\u00e9\\u00e9\"]", limits: strings).value.arrayValue?.count == 2)
        #expect(Self.failure("\"abcde\"", limits: strings)?.kind == .limitExceeded)
        #expect(Self.failure("\"ab\\ncd\"", limits: strings)?.kind == .limitExceeded)
        #expect(Self.failure("{\"abcde\":1}", limits: strings)?.kind == .limitExceeded)
        let members = JSONReader.Limits(maxMembers: 3)
        #expect((try? Self.read("[1,2,3]", limits: members)) != nil)
        #expect(Self.failure("[1,2,3,4]", limits: members)?.kind == .limitExceeded)
        #expect((try? Self.read("{\"a\":1,\"b\":2,\"c\":3}", limits: members)) != nil)
        #expect(Self.failure("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}", limits: members)?.kind == .limitExceeded)
    }

    @Test("duplicate keys: refused with the key and its path, or reported with paths while every member is kept")
    func duplicateKeys() throws {
        let text = #"{"a":{"x":1,"x":2},"b":[{"y":1,"z":0,"y":2}],"a":3}"#
        let refused = Self.failure(Array(text.utf8))
        #expect(refused?.kind == .duplicateKey("x"))
        #expect(refused?.path == "a.x")
        #expect(refused?.message == #"duplicate key "x""#)

        let document = try Self.read(text, duplicateKeys: .report)
        #expect(
            document.duplicateKeys == [
                .init(path: "a", key: "x"), .init(path: "b[0]", key: "y"), .init(path: "", key: "a"),
            ])
        #expect(document.duplicateKeys.map(\.memberPath) == ["a.x", "b[0].y", "a"])
        let root = try #require(document.value.objectValue)
        #expect(root.members.count == 3)
        #expect(root["a"] == .number(3))  // the last wins
        #expect(root.keys == ["a", "b"])
        #expect(root.effectiveMembers.map(\.key) == ["a", "b"])
        #expect(root.effectiveMembers.first?.value == .number(3))
    }

    @Test("duplicate keys in large objects (past the linear scan) are found too")
    func duplicatesInLargeObjects() throws {
        let keys = (0..<40).map { "\"k\($0)\":\($0)" }
        let text = "{" + (keys + ["\"k3\":0"] + keys.suffix(1)).joined(separator: ",") + "}"
        #expect(Self.failure(Array(text.utf8))?.kind == .duplicateKey("k3"))
        let document = try Self.read(text, duplicateKeys: .report)
        #expect(document.duplicateKeys.map(\.key) == ["k3", "k39"])
        #expect((try? Self.read("{" + keys.joined(separator: ",") + "}")) != nil)
    }

    @Test("optional members read as a Decodable optional: absent and null are nil, another type throws")
    func optionalMembers() throws {
        struct Mismatch: Error, Equatable { let key: String }
        let object = try #require(try Self.read(#"{"s":"x","n":null,"b":true}"#).value.objectValue)
        #expect(try object.optionalMember("s", \.stringValue, mismatch: Mismatch.init) == "x")
        #expect(try object.optionalMember("n", \.stringValue, mismatch: Mismatch.init) == nil)
        #expect(try object.optionalMember("absent", \.boolValue, mismatch: Mismatch.init) == nil)
        #expect(throws: Mismatch(key: "b")) { try object.optionalMember("b", \.stringValue, mismatch: Mismatch.init) }
    }

    @Test("raw buffers are read in place; encoding writes integers as integers and the last duplicate")
    func rawBuffersAndEncoding() throws {
        let bytes = Array(#"xx{"k":[1,2.5]}yy"#.utf8)
        let value = try bytes.withUnsafeBytes { raw in
            try JSONReader().read(UnsafeRawBufferPointer(rebasing: raw[2..<(raw.count - 2)])).value
        }
        #expect(value.objectValue?["k"] == .array([.number(1), .number(2.5)]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let repeated = try Self.read(#"{"a":1,"b":[2.5,null,true,"x"],"a":-0}"#, duplicateKeys: .report).value
        #expect(String(decoding: try encoder.encode(repeated), as: UTF8.self) == #"{"a":0,"b":[2.5,null,true,"x"]}"#)
        #expect(JSONPath.child("a", "b-c") == #"a["b-c"]"#)
        #expect(JSONPath.render([.key("a"), .index(2), .key("q\"")]) == #"a[2]["q\""]"#)
    }
}
