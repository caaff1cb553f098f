package import SWCredCore

/// Limits for ``CSVReader``, applied while reading (before anything is buffered per record).
package struct CSVLimits: Sendable, Hashable {
    /// Fields in one record. Default 64 (the widest export read here, Firefox's, has 9).
    package var maxFieldsPerRecord: Int = 64
    /// Bytes in one field, quotes included. Default 64 KiB (notes can be long; passwords are at
    /// most 4,096 bytes in the store anyway).
    package var maxFieldBytes: Int = 64 * 1024
    /// Records, the header included. Default 100,001.
    package var maxRecords: Int = 100_001

    /// The defaults.
    package init() {}
}

/// One field of a CSV record: where it is in the input and where it starts in the text.
///
/// The field's bytes are not copied: ``CSVReader/decode(_:in:into:)`` writes them unescaped into a
/// buffer the caller chooses (a password goes straight into guarded memory).
package struct CSVField: Sendable, Hashable {
    /// The first content byte (after an opening quote) in the input.
    package var start: Int
    /// One past the last content byte (before a closing quote).
    package var end: Int
    /// Whether the field holds doubled quotes (`""`) that decoding collapses.
    var hasEscapedQuotes: Bool
    /// The 1-based line where the field starts.
    package var line: Int
    /// The input offset where the field's line starts (for the column).
    package var lineStart: Int
    /// The input offset where the field starts (its opening quote, if any).
    var fieldStart: Int

    /// The decoded length is at most the raw length.
    package var rawCount: Int { end - start }
}

/// A strict RFC 4180 CSV reader over bytes.
///
/// What it accepts (RFC 4180 §2, steps named in the code):
/// - records end with CRLF or LF (a lone CR outside quotes is an error), the last record may end
///   without one; one UTF-8 byte-order mark at the very start is skipped;
/// - fields are separated by commas; a field is either unquoted (no `"`, CR or LF in it) or
///   quoted, where `""` stands for one quote and commas, CR and LF are data (so a field can span
///   lines); after a closing quote only a comma or the end of the record may follow;
/// - the whole input is valid UTF-8 (checked first, with the position of the first bad byte);
///   NUL bytes are refused anywhere;
/// - blank lines (a record that is one empty unquoted field) are skipped.
///
/// Every error is `malformedInput` and names the line and column (1-based; the column counts
/// characters, not bytes) and what was wrong, never a field's content: the input is usually a
/// password export.
///
/// **Decision: our own reader rather than a library.** swiftcsv/SwiftCSV 0.10.0 and
/// yaslab/CSV.swift 2.5.2 both hand out every field as a Swift `String` (so a password could not
/// go straight into guarded memory, and could not be wiped), offer no limit on field size or
/// record count, and (as far as their public API shows) report errors without a line and column.
/// This reader is ~250 lines, works on bytes in place, and has its
/// own fuzz target (`credential-import`, FuzzTesting/).
package enum CSVReader {
    /// Calls `body` with each record in order.
    ///
    /// - Parameters:
    ///   - bytes: the whole input.
    ///   - limits: field, record and size limits.
    ///   - body: receives the fields of one record; it may throw to stop.
    /// - Throws: `malformedInput` (syntax, UTF-8, NUL), `limitExceeded` (a limit of `limits`), or
    ///   what `body` throws.
    package static func forEachRecord(
        in bytes: UnsafeRawBufferPointer,
        limits: CSVLimits = CSVLimits(),
        _ body: ([CSVField]) throws(SWCredError) -> Void
    ) throws(SWCredError) {
        var i = bomLength(bytes)
        try UTF8Check.validate(bytes, from: i)
        let end = bytes.count
        var line = 1
        var lineStart = i
        var records = 0
        var fields: [CSVField] = []
        fields.reserveCapacity(16)

        func position(_ offset: Int, _ line: Int, _ lineStart: Int) -> String {
            "line \(line), column \(column(of: offset, lineStart: lineStart, in: bytes))"
        }
        func nulByte(_ offset: Int, _ line: Int, _ lineStart: Int) -> SWCredError {
            SWCredError(.malformedInput, "\(position(offset, line, lineStart)): a NUL byte")
        }
        func fieldTooLong(_ fieldStart: Int, _ line: Int, _ lineStart: Int) -> SWCredError {
            SWCredError(
                .limitExceeded,
                "\(position(fieldStart, line, lineStart)): a field is longer than \(limits.maxFieldBytes) bytes")
        }

        while i < end {
            fields.removeAll(keepingCapacity: true)
            var recordDone = false
            while !recordDone {
                let fieldStart = i
                let fieldLine = line
                let fieldLineStart = lineStart
                let field: CSVField
                if i < end, bytes[i] == quote {
                    // RFC 4180 §2.5–2.7: a quoted field; `""` is one quote, CR/LF/comma are data.
                    i += 1
                    let contentStart = i
                    var escaped = false
                    while true {
                        guard i < end else {
                            throw SWCredError(
                                .malformedInput,
                                "\(position(fieldStart, fieldLine, fieldLineStart)): a quoted field is never closed"
                            )
                        }
                        let b = bytes[i]
                        if b == quote {
                            if i + 1 < end, bytes[i + 1] == quote {
                                escaped = true
                                i += 2
                                continue
                            }
                            break
                        }
                        if b == 0 {
                            throw nulByte(i, line, lineStart)
                        }
                        if b == lf {
                            line += 1
                            lineStart = i + 1
                        }
                        i += 1
                        if i - contentStart > limits.maxFieldBytes {
                            throw fieldTooLong(fieldStart, fieldLine, fieldLineStart)
                        }
                    }
                    field = CSVField(
                        start: contentStart, end: i, hasEscapedQuotes: escaped, line: fieldLine,
                        lineStart: fieldLineStart, fieldStart: fieldStart)
                    i += 1  // the closing quote
                    // After the closing quote: a comma, the end of the record, or the end of input.
                    if i < end, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr {
                        throw SWCredError(
                            .malformedInput,
                            "\(position(i, line, lineStart)): only a comma or a line end may follow a closing quote"
                        )
                    }
                } else {
                    // RFC 4180 §2.4: an unquoted field runs to a comma or a line end; no quotes in it.
                    while i < end {
                        let b = bytes[i]
                        if b == comma || b == lf || b == cr { break }
                        if b == quote {
                            throw SWCredError(
                                .malformedInput,
                                "\(position(i, line, lineStart)): a quote inside an unquoted field (quote the whole field and double the quote)"
                            )
                        }
                        if b == 0 {
                            throw nulByte(i, line, lineStart)
                        }
                        i += 1
                    }
                    if i - fieldStart > limits.maxFieldBytes { throw fieldTooLong(fieldStart, line, lineStart) }
                    field = CSVField(
                        start: fieldStart, end: i, hasEscapedQuotes: false, line: fieldLine,
                        lineStart: fieldLineStart, fieldStart: fieldStart)
                }
                guard fields.count < limits.maxFieldsPerRecord else {
                    throw SWCredError(
                        .limitExceeded,
                        "\(position(fieldStart, fieldLine, fieldLineStart)): more than \(limits.maxFieldsPerRecord) fields in one record"
                    )
                }
                fields.append(field)
                // RFC 4180 §2.1–2.2, §2.4: what ends the field.
                if i >= end {
                    recordDone = true
                } else if bytes[i] == comma {
                    i += 1
                    if i >= end {
                        // A trailing comma at the end of input: one more, empty field.
                        fields.append(
                            CSVField(
                                start: i, end: i, hasEscapedQuotes: false, line: line, lineStart: lineStart,
                                fieldStart: i))
                        recordDone = true
                    }
                } else if bytes[i] == lf {
                    i += 1
                    line += 1
                    lineStart = i
                    recordDone = true
                } else {
                    // CR: only as CRLF.
                    guard i + 1 < end, bytes[i + 1] == lf else {
                        throw SWCredError(
                            .malformedInput,
                            "\(position(i, line, lineStart)): a carriage return without a line feed"
                        )
                    }
                    i += 2
                    line += 1
                    lineStart = i
                    recordDone = true
                }
            }
            // A blank line is no record.
            if fields.count == 1, fields[0].fieldStart == fields[0].end { continue }
            records += 1
            guard records <= limits.maxRecords else {
                throw SWCredError(.limitExceeded, "more than \(limits.maxRecords) records")
            }
            try body(fields)
        }
    }

    /// Writes the field's decoded bytes (doubled quotes collapsed) into `buffer`, which must hold
    /// at least ``CSVField/rawCount`` bytes, and returns how many were written.
    package static func decode(
        _ field: CSVField, in bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        precondition(buffer.count >= field.rawCount, "decode buffer too small")
        var out = 0
        var i = field.start
        while i < field.end {
            let b = bytes[i]
            buffer[out] = b
            out += 1
            i += (b == quote && field.hasEscapedQuotes && i + 1 < field.end && bytes[i + 1] == quote) ? 2 : 1
        }
        return out
    }

    /// The field's decoded text. Use for non-secret fields only.
    package static func string(_ field: CSVField, in bytes: UnsafeRawBufferPointer) -> String {
        if !field.hasEscapedQuotes {
            // Valid UTF-8: checked for the whole input before any record is read.
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[field.start..<field.end]), as: UTF8.self)
        }
        return String(
            unsafeUninitializedCapacity: field.rawCount,
            initializingUTF8With: { buffer in
                decode(field, in: bytes, into: UnsafeMutableRawBufferPointer(buffer))
            })
    }

    /// `line L, column C` of a field's start, for messages.
    package static func position(of field: CSVField, in bytes: UnsafeRawBufferPointer) -> String {
        "line \(field.line), column \(column(of: field.fieldStart, lineStart: field.lineStart, in: bytes))"
    }

    /// The 1-based character column of `offset` on the line starting at `lineStart`.
    static func column(of offset: Int, lineStart: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        var column = 1
        var i = lineStart
        while i < offset && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    /// 3 when the input starts with a UTF-8 byte-order mark, else 0.
    static func bomLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")
}

/// A UTF-8 validator that reports where the first bad byte is (Unicode 15 §3.9, Table 3-7:
/// no overlong forms, no surrogates, nothing above U+10FFFF).
enum UTF8Check {
    static func validate(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(SWCredError) {
        var i = start
        var line = 1
        var lineStart = start
        let end = bytes.count
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 {
                if b0 == 0x0A {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
                continue
            }
            var length = 0
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: length = 0
            }
            var valid = length > 0 && i + length <= end
            if valid {
                let b1 = bytes[i + 1]
                valid = b1 >= lower && b1 <= upper
                var k = 2
                while valid && k < length {
                    valid = bytes[i + k] & 0xC0 == 0x80
                    k += 1
                }
            }
            guard valid else {
                let column = CSVReader.column(of: i, lineStart: lineStart, in: bytes)
                throw SWCredError(.malformedInput, "line \(line), column \(column): the input is not valid UTF-8")
            }
            i += length
        }
    }
}
