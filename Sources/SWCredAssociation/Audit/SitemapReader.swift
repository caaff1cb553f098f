internal import FoundationEssentials
public import SWCredCore

extension SWCredError.Code {
    /// A `--sitemap` file that is not a sitemap or sitemap index swcred can read (exit 65).
    public static let malformedSitemap = Self(.malformedSitemap)
}

/// `--sitemap FILE`: the `<loc>` entries of a sitemap (`<urlset>`) or, for a sitemap index
/// (`<sitemapindex>`), of the child sitemaps it lists, read relative to the index's folder
/// (`spec/cli.md`).
///
/// The file is scanned in chunks, never held whole, and only the markup a sitemap uses is
/// understood: elements, comments, processing instructions, CDATA and the five predefined
/// entities and character references. A document type declaration is refused (entity expansion,
/// the "XML bomb", is never attempted), and so is text that is not UTF-8, a `<loc>` longer than a
/// URL may be, or a file that is not XML at all: each is `malformedSitemap` (exit 65). A sitemap
/// with more URLs or bytes than the protocol allows (50 000, 50 MB) is read anyway, with a warning.
package struct SitemapReader {
    /// The protocol's limits (sitemaps.org), past which a warning is given.
    static let protocolURLLimit = 50_000
    static let protocolByteLimit = 50 * 1024 * 1024
    /// Longest tag swcred reads.
    static let maximumTagBytes = 16_384
    /// Most child sitemaps an index may list.
    static let maximumChildren = 50_000

    /// Warnings gathered so far (limits exceeded, child sitemaps skipped).
    package private(set) var warnings: [String] = []

    private var pending: [String] = []
    private var current: Scanner?
    private let folder: String
    private var isIndex = false

    /// Opens `path`.
    ///
    /// - Throws: `.fileNotFound` (66) when it cannot be opened.
    package init(path: String) throws(SWCredError) {
        folder = PathText.deletingLastComponent(path)
        current = Scanner(try ByteStream(path: path), nested: false)
    }

    /// The next URL entry, or `nil` at the end.
    ///
    /// - Throws: `.malformedSitemap` (65) when the file (or a child sitemap) cannot be read as one.
    package mutating func next() throws(SWCredError) -> LinkListEntry? {
        while true {
            if var scanner = current {
                let entry = try scanner.nextLoc()
                current = scanner
                if let (line, text) = entry {
                    if scanner.root == "sitemapindex" {
                        guard !scanner.nested else {
                            throw SWCredError(
                                .malformedSitemap, "\(scanner.path): a sitemap index may not list another index")
                        }
                        isIndex = true
                        guard pending.count < Self.maximumChildren else {
                            throw SWCredError(
                                .malformedSitemap, "\(scanner.path) lists more than \(Self.maximumChildren) sitemaps")
                        }
                        pending.append(text)
                        continue
                    }
                    return .url(line: line, text: text)
                }
                warnings += scanner.warnings
                current = nil
                continue
            }
            guard !pending.isEmpty else { return nil }
            let child = pending.removeFirst()
            let path = localPath(child)
            guard FileManager.default.isReadableFile(atPath: path) else {
                warnings.append("child sitemap \(child) is not a local file (looked for \(path)); skipped")
                continue
            }
            current = Scanner(try ByteStream(path: path), nested: true)
        }
    }

    /// A child `<loc>`: a URL's last path component, or a path, relative to the index's folder.
    private func localPath(_ location: String) -> String {
        var name = location
        if let scheme = location.utf8.firstRange(of: "://".utf8) {
            let rest = location[scheme.upperBound...]
            let path = rest.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            name = path.split(separator: "/").last.map(String.init) ?? ""
        }
        if name.hasPrefix("/") { return name }
        return PathText.appending(name, to: folder.isEmpty ? "." : folder)
    }

    /// A streaming scanner of one file.
    struct Scanner {
        var stream: ByteStream
        let nested: Bool
        var path: String { stream.path }
        var buffer: [UInt8] = []
        var position = 0
        var finished = false
        var line = 1
        var root: String?
        var inLoc = false
        var locLine = 0
        var loc: [UInt8] = []
        var count = 0
        var warnings: [String] = []

        init(_ stream: ByteStream, nested: Bool) {
            self.stream = stream
            self.nested = nested
        }

        func error(_ message: String) -> SWCredError {
            SWCredError(.malformedSitemap, "\(path), line \(line): \(message)")
        }

        /// Makes sure `n` bytes from `position` are buffered (fewer only at the end).
        mutating func fill(_ n: Int) throws(SWCredError) -> Bool {
            while buffer.count - position < n, !finished {
                if position > 0 {
                    buffer.removeSubrange(0..<position)
                    position = 0
                }
                let chunk = try stream.read()
                if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
            }
            return buffer.count - position >= n
        }

        mutating func consume(_ n: Int) {
            for byte in buffer[position..<(position + n)] where byte == 0x0A { line += 1 }
            position += n
        }

        /// Consumes up to and including `terminator`; returns the bytes before it (kept only when `keep`).
        mutating func until(_ terminator: [UInt8], limit: Int?, keep: Bool) throws(SWCredError) -> [UInt8] {
            var kept: [UInt8] = []
            while true {
                _ = try fill(terminator.count)
                let available = buffer.count - position
                if available < terminator.count {
                    throw error("unterminated markup (expected '\(String(decoding: terminator, as: UTF8.self))')")
                }
                var i = position
                let last = buffer.count - terminator.count
                while i <= last {
                    if buffer[i] == terminator[0], buffer[i..<(i + terminator.count)].elementsEqual(terminator) { break }
                    i += 1
                }
                if i <= last {
                    if keep { kept.append(contentsOf: buffer[position..<i]) }
                    consume(i - position)
                    consume(terminator.count)
                    return kept
                }
                // Not found yet: keep all but a possible partial terminator, read on.
                let take = available - (terminator.count - 1)
                if keep { kept.append(contentsOf: buffer[position..<(position + take)]) }
                consume(take)
                if let limit, kept.count > limit { throw error("markup longer than \(limit) bytes") }
                if finished { throw error("unterminated markup") }
                if try !fill(buffer.count - position + 1) {
                    throw error("unterminated markup (expected '\(String(decoding: terminator, as: UTF8.self))')")
                }
            }
        }

        /// The next `<loc>` value and its line, or `nil` at the end of the file.
        mutating func nextLoc() throws(SWCredError) -> (Int, String)? {
            while true {
                guard try fill(1) else {
                    stream.close()
                    guard root != nil else { throw error("no <urlset> or <sitemapindex> element: not a sitemap") }
                    if inLoc { throw error("unterminated <loc>") }
                    if stream.total > SitemapReader.protocolByteLimit {
                        warnings.append("\(path) is larger than 50 MB (the sitemap protocol's limit); read anyway")
                    }
                    if count > SitemapReader.protocolURLLimit {
                        warnings.append("\(path) lists \(count) URLs, more than the protocol's 50 000; read anyway")
                    }
                    return nil
                }
                // Text up to the next '<'.
                var end = position
                while end < buffer.count, buffer[end] != UInt8(ascii: "<") { end += 1 }
                if end > position {
                    let text = buffer[position..<end]
                    if text.contains(0) { throw error("binary data (NUL byte): not a sitemap") }
                    if inLoc {
                        loc.append(contentsOf: text)
                        if loc.count > LinkURL.maximumLength * 6 + 64 {
                            throw error("a <loc> longer than \(LinkURL.maximumLength) bytes")
                        }
                    } else if root == nil, text.contains(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) {
                        throw error("text before the root element: not an XML sitemap")
                    }
                    consume(end - position)
                    continue
                }
                // Markup.
                _ = try fill(9)
                let head = buffer[position..<min(buffer.count, position + 9)]
                if head.starts(with: Array("<!--".utf8)) {
                    consume(4)
                    _ = try until(Array("-->".utf8), limit: nil, keep: false)
                    continue
                }
                if head.starts(with: Array("<![CDATA[".utf8)) {
                    consume(9)
                    let data = try until(Array("]]>".utf8), limit: LinkURL.maximumLength * 6, keep: inLoc)
                    if inLoc { loc.append(contentsOf: data.map { $0 == UInt8(ascii: "&") ? 0x01 : $0 }) }
                    continue
                }
                if head.starts(with: Array("<!".utf8)) {
                    throw error("document type declarations are not accepted (no entity expansion)")
                }
                if head.starts(with: Array("<?".utf8)) {
                    consume(2)
                    _ = try until(Array("?>".utf8), limit: SitemapReader.maximumTagBytes, keep: false)
                    continue
                }
                consume(1)
                let tag = try until([UInt8(ascii: ">")], limit: SitemapReader.maximumTagBytes, keep: true)
                if tag.count > SitemapReader.maximumTagBytes { throw error("a tag longer than 16 KB") }
                if let value = try element(tag) { return value }
            }
        }

        /// Handles one tag's text (between `<` and `>`); returns a finished `<loc>`.
        mutating func element(_ tag: [UInt8]) throws(SWCredError) -> (Int, String)? {
            let closing = tag.first == UInt8(ascii: "/")
            let selfClosing = tag.last == UInt8(ascii: "/")
            let nameBytes = tag.dropFirst(closing ? 1 : 0).prefix { ![0x20, 0x09, 0x0A, 0x0D, 0x2F].contains($0) }
            guard let fullName = String(validating: nameBytes, as: UTF8.self), !fullName.isEmpty else {
                throw error("a malformed tag")
            }
            let name = fullName.split(separator: ":").last.map(String.init) ?? fullName
            if root == nil {
                guard !closing, name == "urlset" || name == "sitemapindex" else {
                    let shown = fullName.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F } && fullName.count < 64
                    throw error("the root element is \(shown ? "<\(fullName)>" : "not readable"), not <urlset> or <sitemapindex>")
                }
                root = name
                return nil
            }
            guard name == "loc", !selfClosing else {
                if inLoc { throw error("markup inside <loc>") }
                return nil
            }
            if !closing {
                if inLoc { throw error("nested <loc>") }
                inLoc = true
                locLine = line
                loc.removeAll(keepingCapacity: true)
                return nil
            }
            guard inLoc else { throw error("</loc> without <loc>") }
            inLoc = false
            count += 1
            return (locLine, try decode(loc))
        }

        /// Entities and character references of a `<loc>` text, trimmed.
        func decode(_ bytes: [UInt8]) throws(SWCredError) -> String {
            guard let raw = String(validating: bytes, as: UTF8.self) else { throw error("a <loc> that is not UTF-8") }
            var output = ""
            var rest = Substring(raw)
            while let amp = rest.firstIndex(where: { $0 == "&" || $0 == "\u{01}" }) {
                output += rest[..<amp]
                if rest[amp] == "\u{01}" {  // '&' from CDATA: literal
                    output += "&"
                    rest = rest[rest.index(after: amp)...]
                    continue
                }
                guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                    throw error("a bare '&' in <loc> (write &amp;)")
                }
                let entity = rest[rest.index(after: amp)..<semicolon]
                switch entity {
                case "amp": output += "&"
                case "lt": output += "<"
                case "gt": output += ">"
                case "quot": output += "\""
                case "apos": output += "'"
                default:
                    var number: UInt32?
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        number = UInt32(entity.dropFirst(2), radix: 16)
                    } else if entity.hasPrefix("#") {
                        number = UInt32(entity.dropFirst(), radix: 10)
                    }
                    guard let number, let scalar = Unicode.Scalar(number), number != 0 else {
                        throw error("an undefined entity '&\(entity);' in <loc>")
                    }
                    output.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semicolon)...]
            }
            output += rest
            return output.trimmingWhitespaceAndNewlines()
        }
    }
}
