package import SWCredCore

/// A URL split into byte ranges of its own text, for matching many URLs fast (AD-7.1).
///
/// The common URL — printable ASCII, `scheme://host[:port]/path?query#fragment`, no user info,
/// no IPv6 literal — is split on its UTF-8 bytes without building any string but the host. Any
/// other text goes through ``LinkURL`` itself, so both give the same components, the same
/// normalisation (AD-7.12) and the same errors.
package struct LinkURLView: Sendable {
    enum Storage: Sendable {
        /// Offsets into `text.utf8`; `query`/`fragment` exclude their `?`/`#`; `nil` = absent.
        case bytes(path: Range<Int>, query: Range<Int>?, fragment: Range<Int>?)
        case parsed(LinkURL)
    }

    /// The text parsed.
    package let text: String
    /// The host, lowercase ASCII, one trailing dot removed (as ``LinkURL/host``).
    package let host: String
    /// Whether the URL names a port other than its scheme's default (such URLs never match).
    package let hasNonDefaultPort: Bool
    let storage: Storage

    /// Parses an `http` or `https` URL.
    ///
    /// - Throws: `SWCredError.Code.invalidURL` (exit 64), exactly as ``LinkURL/init(_:)``.
    package init(_ text: String) throws(SWCredError) {
        var copy = text
        let split = copy.withUTF8 { bytes in Self.scan(bytes).flatMap { scan in scan.host(bytes).map { (scan, $0) } } }
        self.text = copy
        if let (scan, host) = split {
            self.host = host
            hasNonDefaultPort = scan.nonDefaultPort
            storage = .bytes(
                path: scan.pathStart..<scan.pathEnd, query: scan.queryStart < 0 ? nil : scan.queryStart..<scan.queryEnd,
                fragment: scan.fragmentStart < 0 ? nil : scan.fragmentStart..<scan.count)
        } else {
            let url = try LinkURL(text)
            host = url.host
            hasNonDefaultPort = url.hasNonDefaultPort
            storage = .parsed(url)
        }
    }

    /// The byte offsets of the common form's components, found in one pass over the text.
    struct Scan {
        var count: Int
        var hostStart: Int
        var hostEnd: Int
        var nonDefaultPort: Bool
        var pathStart: Int
        var pathEnd: Int
        /// -1: no `?`.
        var queryStart: Int
        var queryEnd: Int
        /// -1: no `#`; the fragment runs to the end.
        var fragmentStart: Int

        /// The host as ``LinkURL/host`` has it (``scan(_:)`` checked it already).
        func host(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            try? HostName(utf8: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), syntax: .linkURLHost).text
        }
    }

    /// Whether `byte` is printable ASCII (0x21…0x7E): nothing for `LinkURL.encodeUnsafe` to escape.
    @inline(__always)
    private static func printable(_ byte: UInt8) -> Bool { byte &- 0x21 < 0x5E }

    /// The index of the first byte from `index` on that is `a`, `b` or not printable ASCII; `count` if none.
    /// Eight bytes at a time while none of them is.
    @inline(__always)
    private static func firstStop(
        _ base: UnsafePointer<UInt8>, from index: Int, to count: Int, _ a: UInt8, _ b: UInt8
    ) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let aa = ones &* UInt64(a)
        let bb = ones &* UInt64(b)
        var i = index
        while i &+ 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // A byte < 0x21, a byte > 0x7E, a byte equal to a, a byte equal to b (exact for "any").
            let below = (word &- ones &* 0x21) & ~word & highs
            let above = ((word &+ ones) | word) & highs
            let xa = word ^ aa
            let xb = word ^ bb
            let isA = (xa &- ones) & ~xa & highs
            let isB = (xb &- ones) & ~xb & highs
            if below | above | isA | isB != 0 { break }
            i &+= 8
        }
        while i < count {
            let byte = base[i]
            if !printable(byte) || byte == a || byte == b { return i }
            i &+= 1
        }
        return count
    }

    /// The split of the common form (printable ASCII, `http(s)://host[:port]…`, no user info, no
    /// IPv6 literal); `nil` sends the text to ``LinkURL``, which decides (and reports errors).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan? {
        let count = bytes.count
        guard count <= LinkURL.maximumLength, count >= 8, let base = bytes.baseAddress else { return nil }
        // The scheme: "http" then "://" or "s://" (the first "://" of the text, as LinkURL finds it).
        guard base[0] | 0x20 == UInt8(ascii: "h"), base[1] | 0x20 == UInt8(ascii: "t"),
            base[2] | 0x20 == UInt8(ascii: "t"), base[3] | 0x20 == UInt8(ascii: "p")
        else { return nil }
        let https: Bool
        let restStart: Int
        if base[4] == UInt8(ascii: ":"), base[5] == UInt8(ascii: "/"), base[6] == UInt8(ascii: "/") {
            https = false
            restStart = 7
        } else if base[4] | 0x20 == UInt8(ascii: "s"), base[5] == UInt8(ascii: ":"), base[6] == UInt8(ascii: "/"),
            base[7] == UInt8(ascii: "/")
        {
            https = true
            restStart = 8
        } else {
            return nil
        }
        // Authority: up to the first '/', '?' or '#'.
        var i = restStart
        var colon = -1
        while i < count {
            let byte = base[i]
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): break
            case UInt8(ascii: ":"):
                colon = i
                i &+= 1
                continue
            default:
                guard printable(byte) else { return nil }
                i &+= 1
                continue
            }
            break
        }
        let authorityEnd = i
        // Path: from '/' up to the first '?' or '#'.
        let pathStart = i
        if i < count, base[i] == UInt8(ascii: "/") {
            i = firstStop(base, from: i &+ 1, to: count, UInt8(ascii: "?"), UInt8(ascii: "#"))
            if i < count, !printable(base[i]) { return nil }
        }
        let pathEnd = i
        var queryStart = -1
        var queryEnd = -1
        if i < count, base[i] == UInt8(ascii: "?") {
            queryStart = i &+ 1
            i = firstStop(base, from: queryStart, to: count, UInt8(ascii: "#"), UInt8(ascii: "#"))
            if i < count, !printable(base[i]) { return nil }
            queryEnd = i
        }
        var fragmentStart = -1
        if i < count {
            // Only '#' can stop the query or path here.
            fragmentStart = i &+ 1
            // 0x20 is never printable: the scan stops only on what is not printable.
            i = firstStop(base, from: fragmentStart, to: count, 0x20, 0x20)
            if i < count { return nil }
        }
        // Host and port.
        var hostEnd = authorityEnd
        var nonDefaultPort = false
        if colon >= 0 {
            hostEnd = colon
            let digits = (colon + 1)..<authorityEnd
            if !digits.isEmpty {
                guard let value = Port.number(utf8: UnsafeBufferPointer(rebasing: bytes[digits])) else { return nil }
                nonDefaultPort = value != (https ? 443 : 80)
            }
        }
        // '@', '[', anything but a plain host: LinkURL decides.
        let hostBytes = UnsafeBufferPointer(rebasing: bytes[restStart..<hostEnd])
        guard case .none = HostName.problem(utf8: hostBytes, syntax: .linkURLHost) else { return nil }
        return Scan(
            count: count, hostStart: restStart, hostEnd: hostEnd, nonDefaultPort: nonDefaultPort,
            pathStart: pathStart, pathEnd: pathEnd, queryStart: queryStart, queryEnd: queryEnd,
            fragmentStart: fragmentStart)
    }
}
