#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A batch's input as groups of lines, read with `read(2)` so that it can tell whether another
/// line is available without blocking (`poll`), which decides where a group ends.
///
/// **Decision (issue 13, batch at scale):** a group is the lines already waiting, up to a limit;
/// only its first line is waited for, so that a caller who waits for each result before sending
/// the next line gets it at once. Lines end with LF (a CRLF loses its CR too); the last line may
/// lack one. A line longer than the limit is consumed whole and returned truncated, so that
/// decoding reports it as malformed without holding it in memory. Blank lines are skipped but
/// counted.
package final class BatchLineReader {
    /// The largest request line accepted by default.
    package static let defaultMaximumLineBytes = 64 * 1024

    private enum Next {
        case line(String)
        case wouldBlock
        case end
    }

    private let descriptor: Int32
    package let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var ended = false
    private var lineNumber = 0
    /// The kept start of an over-long line whose rest is being skipped.
    private var truncated: [UInt8]?

    /// Reads `descriptor` (not closed here).
    package init(descriptor: Int32, maximumLineBytes: Int = defaultMaximumLineBytes) {
        self.descriptor = descriptor
        self.maximumLineBytes = maximumLineBytes
    }

    /// The next group: the lines available now, up to `limit`, waiting only for the first; `nil`
    /// at the end of the input. A group may be empty when only blank lines came before the end.
    package func nextGroup(limit: Int) -> [(number: Int, text: String)]? {
        guard !ended else { return nil }
        var group: [(number: Int, text: String)] = []
        collect: while group.count < limit {
            switch next(wait: group.isEmpty) {
            case .line(let text):
                lineNumber += 1
                if !text.allSatisfy(\.isWhitespace) { group.append((lineNumber, text)) }
            case .wouldBlock:
                break collect
            case .end:
                ended = true
                break collect
            }
        }
        return group.isEmpty && ended ? nil : group
    }

    /// The next line; when `wait` is false and no whole line is buffered or readable now,
    /// `.wouldBlock` instead of waiting.
    private func next(wait: Bool) -> Next {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[start..<newline])
                start = newline + 1
                if let kept = truncated {
                    line = kept
                    truncated = nil
                }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(text(line))
            }
            // No newline buffered: keep the buffer bounded for an over-long line.
            if buffer.count - start > maximumLineBytes {
                if truncated == nil { truncated = Array(buffer[start..<(start + maximumLineBytes)]) }
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if atEnd {
                if let kept = truncated {
                    truncated = nil
                    return .line(text(kept))
                }
                guard start < buffer.count else { return .end }
                let line = Array(buffer[start...])
                start = buffer.count
                return .line(text(line))
            }
            if !wait && !readable() { return .wouldBlock }
            fill()
        }
    }

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(maximumLineBytes), as: UTF8.self)
    }

    /// Whether the descriptor has data (or end of file) now.
    private func readable() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    private func fill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0 && errno == EINTR { continue }
            atEnd = true
            return
        }
    }
}
