import SWCredCore
import Testing

@Suite("PropertyListReader: binary plists (bplist00)")
struct PropertyListBinaryTests {
    static func read(_ bytes: [UInt8], limits: PropertyListReader.Limits = .init()) throws(PropertyListReader.Failure)
        -> PropertyListValue
    {
        try PropertyListReader(limits: limits).read(bytes)
    }

    static func failure(_ bytes: [UInt8], limits: PropertyListReader.Limits = .init()) -> PropertyListReader.Failure? {
        do {
            _ = try read(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// Written by Python's plistlib (`FMT_BINARY`, `sort_keys=False`): every type, a UTF-16 key
    /// value with é and a non-BMP emoji, 1-, 8- and 16-byte integers, a shared object (`1`).
    static let fixture: [UInt8] = base64(
        "YnBsaXN0MDDaAQIDBAUGBwgJCgsMEBESExQVFh1fEBZhcHBsaWNhdGlvbi1pZGVudGlmaWVyXxAmY29tLmFwcGxlLmRldmVs"
            + "b3Blci5hc3NvY2lhdGVkLWRvbWFpbnNeZ2V0LXRhc2stYWxsb3dRblNiaWdScGlUd2hlblRibG9iVm5lc3RlZFN1aWRfEBpB"
            + "QkNERTEyMzQ1LmNvbS5leGFtcGxlLmFwcKMNDg9fEBRhcHBsaW5rczpleGFtcGxlLmNvbW8QGwB3AGUAYgBjAHIAZQBkAGUA"
            + "bgB0AGkAYQBsAHMAOgBjAGEAZgDpAC4AZQB4AGEAbQBwAGwAZW8QEwBhAHAAcABsAGkAbgBrAHMAOtg93gAALgBlAHgAYQBt"
            + "AHAAbABlCRP//////////RQAAAAAAAAAAP//////////I0AEAAAAAAAAM0HFyFSggAAAQwAB/9EXGFFhohkaEAHRGxxRYgiA"
            + "BwAIAB0ANgBfAG4AcAB0AHcAfACBAIgAjACpAK0AxAD9ASYBJwEwAUEBSgFTAVcBWgFcAV8BYQFkAWYBZwAAAAAAAAIBAAAA"
            + "AAAAAB4AAAAAAAAAAAAAAAAAAAFp")

    static let fixtureValue: PropertyListValue = .dictionary(
        PropertyListDictionary([
            .init(key: "application-identifier", value: .string("ABCDE12345.com.example.app")),
            .init(
                key: "com.apple.developer.associated-domains",
                value: .array([
                    .string("applinks:example.com"), .string("webcredentials:café.example"),
                    .string("applinks:😀.example"),
                ])),
            .init(key: "get-task-allow", value: .bool(true)),
            .init(key: "n", value: .integer(-3)),
            .init(key: "big", value: .unsignedInteger(.max)),
            .init(key: "pi", value: .real(2.5)),
            // 2024-02-29T12:00:01Z
            .init(key: "when", value: .date(730_900_801)),
            .init(key: "blob", value: .data([0, 1, 0xFF])),
            .init(
                key: "nested",
                value: .dictionary(
                    PropertyListDictionary([
                        .init(
                            key: "a",
                            value: .array([
                                .integer(1),
                                .dictionary(PropertyListDictionary([.init(key: "b", value: .bool(false))])),
                            ]))
                    ]))),
            .init(key: "uid", value: .uid(7)),
        ]))

    @Test("a plistlib file reads as written: every type, UTF-16 with a surrogate pair, 16-byte integers, keys in order")
    func fixtureReads() throws {
        let value = try Self.read(Self.fixture)
        #expect(value == Self.fixtureValue)
        #expect(value.dictionaryValue?.keys.first == "application-identifier")
        #expect(value.dictionaryValue?["nested"]?.dictionaryValue?["a"]?.arrayValue?.count == 2)
        #expect(PropertyListReader.format(of: Self.fixture) == .binary)
    }

    @Test("issue 28: the 175-byte crasher (a UTF-16 string running past the file) is a named error")
    func crasher() throws {
        let crasher = Self.base64(
            "YnBsaXN0MDDSAQIDBF8QFmFwcGxpY2F0aW9uLWlkZW50aWZpZSZvEF9ybWMuYXBwbGUuZGV2ZWxvcGVyLmFzc29jaWF0ZWQt"
                + "ZG+TnpaRjKDv3UtMTU5PMTM1Nzk7Y29tLmV4YW1wbGUubmV3c6EFXxAXYXBwbGlua2w6c2VnYWN5LmV4YW1wbGUIDSZPbW8A"
                + "AAAAAAABAQAAAAAAAAAGAAAAAAAAAAAAAAAAAAAAiQ==")
        #expect(crasher.count == 175)
        let failure = try #require(Self.failure(crasher))
        #expect(failure.kind == .outOfBounds)
        #expect(failure.message.contains("UTF-16"))
    }

    @Test("every truncation of a valid file is a named error")
    func truncations() {
        for length in 0..<Self.fixture.count {
            #expect(Self.failure(Array(Self.fixture.prefix(length))) != nil, "prefix of \(length) bytes")
        }
    }

    @Test(
        "every single-byte change of the offset table and trailer reads or fails by name, and the checked fields fail")
    func trailerAndOffsetTableMatrix() throws {
        let bytes = Self.fixture
        let trailer = bytes.count - 32
        let tableOffset = bytes[(bytes.count - 8)...].reduce(0) { $0 << 8 | Int($1) }
        var failures = 0
        var reads = 0
        for position in tableOffset..<bytes.count {
            for replacement in 0...255 where UInt8(replacement) != bytes[position] {
                var changed = bytes
                changed[position] = UInt8(replacement)
                // A trap here would end the test process: reaching the next line is the point.
                if let failure = Self.failure(changed) {
                    failures += 1
                    #expect(!failure.message.isEmpty)
                } else {
                    reads += 1
                }
                // The trailer's sizes, count, top object and table offset: every change but a
                // smaller size or offset that happens to stay consistent is refused. Their high
                // bytes admit no consistent change at all.
                let highField = [trailer + 8, trailer + 16, trailer + 24].contains {
                    (position - $0) < 6 && position >= $0
                }
                let badSize =
                    (position == trailer + 6 || position == trailer + 7) && (replacement == 0 || replacement > 8)
                if highField || badSize {
                    #expect(Self.failure(changed) != nil, "byte \(position) set to \(replacement)")
                }
            }
        }
        #expect(failures > 0 && reads > 0)
        // The unused bytes and the sort version are not read.
        var unused = bytes
        unused[trailer] = 0xAA
        unused[trailer + 5] = 0xAA
        #expect(try Self.read(unused) == Self.fixtureValue)
    }

    @Test("every single-byte change anywhere reads or fails by name (no trap)")
    func everyByteChange() {
        var failures = 0
        for position in 0..<Self.fixture.count {
            for replacement: UInt8 in [0x00, 0x01, 0x0F, 0x10, 0x5F, 0x6F, 0x7F, 0x80, 0xAF, 0xDF, 0xFE, 0xFF] {
                var changed = Self.fixture
                changed[position] = replacement
                if Self.failure(changed) != nil { failures += 1 }
            }
        }
        #expect(failures > 0)
    }

    @Test("an object that contains itself is a cycle, directly or through a dictionary value")
    func cycles() {
        #expect(Self.failure(BinaryPlist.file([BinaryPlist.array([0])]))?.kind == .cycle)
        let throughDictionary = BinaryPlist.file([
            BinaryPlist.array([1]), BinaryPlist.dictionary(keys: [2], values: [0]), BinaryPlist.ascii("k"),
        ])
        #expect(Self.failure(throughDictionary)?.kind == .cycle)
        // A dictionary whose key is the dictionary itself is refused before any descent.
        #expect(Self.failure(BinaryPlist.file([BinaryPlist.dictionary(keys: [0], values: [0])]))?.kind == .syntax)
    }

    @Test("shared objects are read and counted each time: a small file cannot expand exponentially")
    func sharedReferences() throws {
        // Object i is [i+1, i+1]: 2^41 leaves from 42 objects.
        var objects = (0..<41).map { BinaryPlist.array([UInt8($0 + 1), UInt8($0 + 1)]) }
        objects.append([0x09])
        let bomb = BinaryPlist.file(objects)
        #expect(bomb.count < 300)  // 248 bytes
        #expect(Self.failure(bomb)?.kind == .limitExceeded)
        // Sharing within the limits reads normally: ["x", "x", "x"].
        let shared = BinaryPlist.file([BinaryPlist.array([1, 1, 1]), BinaryPlist.ascii("x")])
        #expect(try Self.read(shared) == .array([.string("x"), .string("x"), .string("x")]))
        // 3 values: exactly the limit reads, one less fails.
        #expect(
            try Self.read(shared, limits: .init(maxValues: 4)) == .array([.string("x"), .string("x"), .string("x")]))
        #expect(Self.failure(shared, limits: .init(maxValues: 3))?.kind == .limitExceeded)
    }

    @Test("a shared subtree is checked against the depth limit where it is used again, deeper")
    func sharedDepth() throws {
        // 0 = [1, 2], 1 = [3], 2 = [1], 3 = []: 1's subtree is 2 deep, used at depth 2 and at depth 3.
        let file = BinaryPlist.file([
            BinaryPlist.array([1, 2]), BinaryPlist.array([3]), BinaryPlist.array([1]), BinaryPlist.array([]),
        ])
        #expect(try Self.read(file, limits: .init(maxDepth: 4)) != .bool(false))
        #expect(Self.failure(file, limits: .init(maxDepth: 3))?.kind == .limitExceeded)
    }

    @Test("UTF-16 strings: pairs decode, lone or reversed surrogates are refused; ASCII strings must be ASCII")
    func strings() throws {
        #expect(try Self.read(BinaryPlist.file([BinaryPlist.utf16([0xD83D, 0xDE00, 0x41])])) == .string("😀A"))
        for units: [UInt16] in [[0xD800], [0xDC00], [0x41, 0xD800, 0x41], [0xDE00, 0xD83D], [0xD83D, 0xD83D]] {
            #expect(Self.failure(BinaryPlist.file([BinaryPlist.utf16(units)]))?.kind == .encoding, "\(units)")
        }
        #expect(Self.failure(BinaryPlist.file([[0x52, 0x41, 0xC3]]))?.kind == .encoding)
        #expect(try Self.read(BinaryPlist.file([BinaryPlist.ascii("a\u{0}b")])) == .string("a\u{0}b"))
        #expect(
            Self.failure(BinaryPlist.file([BinaryPlist.ascii("abcdef")]), limits: .init(maxStringBytes: 5))?.kind
                == .limitExceeded)
        #expect(
            Self.failure(BinaryPlist.file([BinaryPlist.utf16([0x4E2D, 0x6587])]), limits: .init(maxStringBytes: 5))?
                .kind == .limitExceeded)
    }

    @Test("dictionaries: keys must be strings and distinct")
    func dictionaryKeys() {
        let numberKey = BinaryPlist.file([BinaryPlist.dictionary(keys: [1], values: [1]), [0x10, 0x01]])
        #expect(Self.failure(numberKey)?.kind == .syntax)
        let repeated = BinaryPlist.file([
            BinaryPlist.dictionary(keys: [1, 2], values: [3, 3]), BinaryPlist.ascii("a"), BinaryPlist.utf16([0x61]),
            [0x08],
        ])
        #expect(Self.failure(repeated)?.kind == .duplicateKey("a"))
    }

    @Test("objects outside the plist types, other versions and out-of-range integers are refused by name")
    func unsupported() throws {
        #expect(Self.failure(BinaryPlist.file([[0x00]]))?.kind == .unsupported)  // null
        #expect(Self.failure(BinaryPlist.file([[0x0F]]))?.kind == .unsupported)  // fill
        #expect(Self.failure(BinaryPlist.file([[0xC1, 0x01], [0x08]]))?.kind == .unsupported)  // set
        #expect(Self.failure(BinaryPlist.file([[0x70]]))?.kind == .syntax)  // not a bplist00 marker
        var v15 = BinaryPlist.file([[0x08]])
        v15[6] = UInt8(ascii: "1")
        v15[7] = UInt8(ascii: "5")
        #expect(Self.failure(v15)?.kind == .unsupported)
        let wide = BinaryPlist.file([[0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]])
        #expect(Self.failure(wide)?.kind == .unsupported)
        let negative = BinaryPlist.file([[0x14] + [UInt8](repeating: 0xFF, count: 16)])
        #expect(try Self.read(negative) == .integer(-1))
        let small = BinaryPlist.file([[0x14] + [UInt8](repeating: 0, count: 15) + [5]])
        #expect(try Self.read(small) == .integer(5))
        // A float32 real, a UID, a data object with a two-byte length.
        #expect(try Self.read(BinaryPlist.file([[0x22, 0x3F, 0xC0, 0, 0]])) == .real(1.5))
        #expect(try Self.read(BinaryPlist.file([[0x81, 0x01, 0x00]])) == .uid(256))
        let data = BinaryPlist.file([[0x4F, 0x11, 0x00, 0x10] + [UInt8](repeating: 7, count: 16)])
        #expect(try Self.read(data) == .data([UInt8](repeating: 7, count: 16)))
    }

    @Test("trailer fields are checked: sizes, count, top object, table position, wide references")
    func trailer() throws {
        let good = BinaryPlist.file([BinaryPlist.array([1]), [0x09]])
        #expect(try Self.read(good) == .array([.bool(true)]))
        #expect(Self.failure(BinaryPlist.file([BinaryPlist.array([1]), [0x09]], top: 2))?.kind == .outOfBounds)
        #expect(Self.failure(BinaryPlist.file([BinaryPlist.array([2]), [0x09]]))?.kind == .outOfBounds)
        // Eight-byte references and offsets read too.
        let wide = BinaryPlist.file([[0xA1, 0, 0, 0, 0, 0, 0, 0, 1], [0x08]], offsetSize: 8, refSize: 8)
        #expect(try Self.read(wide) == .array([.bool(false)]))
        var hugeCount = good
        hugeCount[hugeCount.count - 24] = 0x80
        #expect(Self.failure(hugeCount)?.kind == .limitExceeded)
        var hugeTable = good
        hugeTable[hugeTable.count - 8] = 0xFF
        #expect(Self.failure(hugeTable)?.kind == .outOfBounds)
        #expect(Self.failure(Array("bplist00".utf8))?.kind == .outOfBounds)
        #expect(Self.failure(good, limits: .init(maxBytes: good.count - 1))?.kind == .inputTooLarge)
    }

    static func base64(_ text: String) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 where byte != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: byte) else { continue }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output
    }
}
