internal import FoundationEssentials
package import SWCredCore

/// Reads a file (or stdin for `-`) in fixed chunks, so that a list of any size is read in bounded
/// memory.
struct ByteStream {
    private let file: FileBytes.OpenFile
    let path: String
    static let chunkSize = 1 << 20
    /// Bytes read so far.
    private(set) var total = 0

    init(path: String, standardInput: Int32 = 0) throws(SWCredError) {
        self.path = path
        if path == "-" {
            file = FileBytes.OpenFile(borrowing: standardInput)
            return
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory,
            let file = try? FileBytes.OpenFile(path: path)
        else {
            throw SWCredError(.fileNotFound, "cannot read \(path)")
        }
        self.file = file
    }

    /// The next chunk; empty at the end.
    mutating func read() throws(SWCredError) -> [UInt8] {
        do {
            let bytes = try file.read(upTo: Self.chunkSize)
            total += bytes.count
            return bytes
        } catch {
            throw SWCredError(.ioFailure, "cannot read \(path): \(error.foundationDescription)")
        }
    }

    func close() {
        file.close()
    }
}

/// One entry of a URL list or sitemap: the line it is on and its text, or why it is unusable.
package enum LinkListEntry: Sendable {
    /// A candidate URL (not yet parsed) and its line number.
    case url(line: Int, text: String)
    /// A line that cannot be a URL (too long, not UTF-8); the run goes on.
    case invalid(line: Int, error: SWCredError)
}

/// `--urls FILE|-`: one URL per line; blank lines and lines starting with `#` are skipped
/// (`spec/cli.md`). A line longer than ``LinkURL/maximumLength`` or not UTF-8 is reported and
/// skipped without being kept in memory.
package struct URLListReader {
    private var stream: ByteStream
    private var buffer: [UInt8] = []
    private var position = 0
    private var line = 0
    private var finished = false

    /// Opens `path` (`-` for `standardInput`, descriptor 0 unless given).
    ///
    /// - Throws: `.fileNotFound` (66) when the file cannot be opened.
    package init(path: String, standardInput: Int32 = 0) throws(SWCredError) {
        stream = try ByteStream(path: path, standardInput: standardInput)
    }

    /// The next entry, or `nil` at the end of the input.
    package mutating func next() throws(SWCredError) -> LinkListEntry? {
        while true {
            guard let (start, end, overlong) = try nextLine() else {
                stream.close()
                return nil
            }
            line += 1
            if overlong || end - start > LinkURL.maximumLength + 2 {
                return .invalid(
                    line: line,
                    error: SWCredError(.malformedInput, "line \(line) is longer than \(LinkURL.maximumLength) bytes"))
            }
            var lower = start
            var upper = end
            while lower < upper, buffer[lower] == 0x20 || buffer[lower] == 0x09 { lower += 1 }
            while upper > lower, buffer[upper - 1] == 0x20 || buffer[upper - 1] == 0x09 || buffer[upper - 1] == 0x0D {
                upper -= 1
            }
            if lower == upper || buffer[lower] == UInt8(ascii: "#") { continue }
            let bytes = buffer[lower..<upper]
            // ASCII (every usual URL) needs no validation beyond the NUL check.
            let text =
                bytes.contains(0)
                ? nil
                : bytes.allSatisfy { $0 < 0x80 }
                    ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
            guard let text else {
                return .invalid(line: line, error: SWCredError(.malformedInput, "line \(line) is not UTF-8 text"))
            }
            return .url(line: line, text: text)
        }
    }

    /// The bounds of the next line in `buffer` (without its newline), or overlong = skipped.
    private mutating func nextLine() throws(SWCredError) -> (Int, Int, Bool)? {
        var overlong = false
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let start = position
                position = newline + 1
                return (start, newline, overlong)
            }
            if finished {
                guard position < buffer.count else { return nil }
                let start = position
                position = buffer.count
                return (start, buffer.count, overlong)
            }
            if buffer.count - position > LinkURL.maximumLength + 2 {
                // Too long to be a URL: drop what is held and keep skipping to the newline.
                overlong = true
                buffer.removeAll(keepingCapacity: true)
                position = 0
            } else if position > 0 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            let chunk = try stream.read()
            if chunk.isEmpty {
                finished = true
                if overlong, position >= buffer.count { return (0, 0, true) }
            } else {
                buffer.append(contentsOf: chunk)
            }
        }
    }
}
