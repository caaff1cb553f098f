import Foundation
import SWCredCore
import SWCredSodium
import Testing
@testable import SWCredStore

/// The strict RFC 4180 reader behind `swcred import`.
@Suite("CSV reader (RFC 4180, strict)")
struct CSVReaderTests {
    /// Every record of `text` as decoded strings.
    static func records(_ text: String, limits: CSVLimits = CSVLimits()) throws -> [[String]] {
        try records(Array(text.utf8), limits: limits)
    }

    static func records(_ bytes: [UInt8], limits: CSVLimits = CSVLimits()) throws -> [[String]] {
        var out: [[String]] = []
        let input = try SecureBytes(copying: bytes)
        try input.withUnsafeBytes { (raw) throws(SWCredError) in
            try CSVReader.forEachRecord(in: raw, limits: limits) { (fields) throws(SWCredError) in
                out.append(fields.map { CSVReader.string($0, in: raw) })
            }
        }
        return out
    }

    static func failure(_ text: String, limits: CSVLimits = CSVLimits()) -> SWCredError? {
        failure(Array(text.utf8), limits: limits)
    }

    static func failure(_ bytes: [UInt8], limits: CSVLimits = CSVLimits()) -> SWCredError? {
        do {
            _ = try records(bytes, limits: limits)
            return nil
        } catch { return error as? SWCredError }
    }

    @Test("plain records, LF and CRLF, last line with or without a line end")
    func plain() throws {
        #expect(try Self.records("a,b\n1,2\n") == [["a", "b"], ["1", "2"]])
        #expect(try Self.records("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]])
        #expect(try Self.records("a,b\r\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try Self.records("a,,\n") == [["a", "", ""]])
        #expect(try Self.records("a,") == [["a", ""]])
    }

    @Test("quoted fields: commas, doubled quotes, embedded CRLF and LF")
    func quoted() throws {
        #expect(try Self.records("\"a,b\",\"say \"\"hi\"\"\"\n") == [["a,b", "say \"hi\""]])
        #expect(
            try Self.records("x,\"two\r\nlines\",y\r\nz,\"\",w\r\n") == [["x", "two\r\nlines", "y"], ["z", "", "w"]])
        #expect(try Self.records("\"\"\"\"") == [["\""]])
    }

    @Test("a UTF-8 byte-order mark at the start is skipped; blank lines are no records")
    func bomAndBlankLines() throws {
        #expect(try Self.records([0xEF, 0xBB, 0xBF] + Array("a,b\n\n1,2\n\n".utf8)) == [["a", "b"], ["1", "2"]])
    }

    @Test(
        "errors name line and column, never content",
        arguments: [
            ("a,b\n1,x\"y\n", "line 2, column 4", "a quote inside an unquoted field"),
            ("a,b\n\"abc\"d,2\n", "line 2, column 6", "only a comma or a line end"),
            ("a,b\n1,\"secret-pass\n", "line 2, column 3", "never closed"),
            ("a,b\r1,2\n", "line 1, column 4", "carriage return"),
            ("a,b\n\"x\ny\",\"é\u{0}\"\n", "line 3, column 6", "NUL"),
        ])
    func errors(_ input: String, _ position: String, _ reason: String) throws {
        let error = try #require(Self.failure(input))
        #expect(error.code == .malformedInput)
        #expect(error.message.contains(position), "\(error.message)")
        #expect(error.message.contains(reason), "\(error.message)")
        #expect(!error.message.contains("secret-pass"))
    }

    @Test("invalid UTF-8 is refused with its position")
    func invalidUTF8() throws {
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            let error = try #require(Self.failure(Array("a,b\nxy,".utf8) + bad + [0x0A]), "accepted \(bad)")
            #expect(error.code == .malformedInput)
            #expect(error.message.contains("line 2, column 4"), "\(error.message)")
        }
        // Columns count characters: é is one.
        let error = try #require(Self.failure("a,b\né,\"x\"y\n"))
        #expect(error.message.contains("line 2, column 6"), "\(error.message)")
    }

    @Test("limits: fields per record, field size, records")
    func limits() throws {
        var limits = CSVLimits()
        limits.maxFieldsPerRecord = 3
        #expect(Self.failure("a,b,c,d\n", limits: limits)?.code == .limitExceeded)
        #expect(try Self.records("a,b,c\n", limits: limits).count == 1)
        limits = CSVLimits()
        limits.maxFieldBytes = 8
        #expect(Self.failure("123456789,b\n", limits: limits)?.code == .limitExceeded)
        #expect(Self.failure("\"123456789\",b\n", limits: limits)?.code == .limitExceeded)
        #expect(try Self.records("12345678,b\n", limits: limits).count == 1)
        limits = CSVLimits()
        limits.maxRecords = 2
        #expect(Self.failure("a\nb\nc\n", limits: limits)?.code == .limitExceeded)
    }

    @Test("decode writes the unescaped bytes into the caller's buffer")
    func decodeIntoBuffer() throws {
        let bytes = try SecureBytes(copying: Array("\"p\"\"w,1\"".utf8))
        var decoded: [UInt8] = []
        try bytes.withUnsafeBytes { (raw) throws(SWCredError) in
            try CSVReader.forEachRecord(in: raw) { (fields) throws(SWCredError) in
                var buffer = [UInt8](repeating: 0, count: fields[0].rawCount)
                let n = buffer.withUnsafeMutableBytes { CSVReader.decode(fields[0], in: raw, into: $0) }
                decoded = Array(buffer.prefix(n))
            }
        }
        #expect(decoded == Array("p\"w,1".utf8))
    }

    @Test("random inputs never trap: the reader accepts or throws a named error")
    func randomInputs() throws {
        var generator = SeededGenerator(seed: 0x5EED_C5F)
        let alphabet: [UInt8] = Array("ab,\"\r\n é".utf8) + [0x00, 0xFF, 0xC3]
        for _ in 0..<3000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let input = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            if let error = Self.failure(input) {
                #expect(error.code == .malformedInput || error.code == .limitExceeded)
            }
        }
    }
}
