import SWCredCore

/// Counts the nesting of `<array>` / `<dict>` in an XML plist before Foundation parses it, so
/// that a hostile file cannot drive the (recursive) plist reader arbitrarily deep.
enum XMLPlistDepth {
    static func check(_ bytes: [UInt8], maximumDepth: Int) throws(SWCredError) {
        var depth = 0
        var index = 0
        let count = bytes.count
        func hasPrefix(_ text: String, at position: Int) -> Bool {
            let utf8 = Array(text.utf8)
            guard position + utf8.count <= count else { return false }
            for offset in 0..<utf8.count where bytes[position + offset] != utf8[offset] { return false }
            return true
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if hasPrefix("<!--", at: index) {
                // Skip a comment to its end.
                var end = index + 4
                while end < count, !hasPrefix("-->", at: end) { end += 1 }
                index = end + 3
                continue
            }
            let closing = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
            var nameEnd = index + (closing ? 2 : 1)
            let nameStart = nameEnd
            while nameEnd < count,
                ![UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameEnd])
            {
                nameEnd += 1
            }
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
            var tagEnd = nameEnd
            while tagEnd < count, bytes[tagEnd] != UInt8(ascii: ">") { tagEnd += 1 }
            let selfClosing = tagEnd > 0 && tagEnd < count && bytes[tagEnd - 1] == UInt8(ascii: "/")
            if name == "array" || name == "dict" {
                if closing {
                    depth -= 1
                } else if !selfClosing {
                    depth += 1
                    if depth > maximumDepth {
                        throw SWCredError(
                            .malformedEntitlements,
                            "the property list nests deeper than \(maximumDepth) levels")
                    }
                }
            }
            index = tagEnd + 1
        }
    }
}

/// Walks a binary plist's object graph without recursion (an explicit stack), checking nesting
/// depth, reference bounds and total work before Foundation parses it.
enum BinaryPlistDepth {
    static func check(_ bytes: [UInt8], maximumDepth: Int, maximumVisits: Int = 100_000) throws(SWCredError) {
        func fail(_ message: String) -> SWCredError {
            SWCredError(.malformedEntitlements, "the binary property list is malformed: \(message)")
        }
        // The header (8 bytes) and the trailer (32 bytes).
        guard bytes.count >= 8 + 32 else { throw fail("too short") }
        let trailer = bytes.count - 32
        func readUInt(_ offset: Int, _ size: Int) -> Int? {
            guard size >= 1, size <= 8, offset >= 0, offset + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
            return Int(exactly: value).flatMap { $0 <= Int(Int32.max) ? $0 : nil }
        }
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        guard let objectCount = readUInt(trailer + 8, 8), let top = readUInt(trailer + 16, 8),
            let tableOffset = readUInt(trailer + 24, 8), (1...8).contains(offsetSize), (1...8).contains(refSize),
            objectCount >= 1, top < objectCount, tableOffset >= 8,
            tableOffset + objectCount * offsetSize <= trailer
        else { throw fail("bad trailer") }
        func objectOffset(_ index: Int) throws(SWCredError) -> Int {
            guard let offset = readUInt(tableOffset + index * offsetSize, offsetSize), offset >= 8, offset < tableOffset
            else { throw fail("bad offset table") }
            return offset
        }
        var stack: [(object: Int, depth: Int)] = [(top, 1)]
        var visits = 0
        while let (object, depth) = stack.popLast() {
            visits += 1
            guard visits <= maximumVisits else { throw fail("too many objects") }
            let offset = try objectOffset(object)
            let marker = bytes[offset]
            let kind = marker >> 4
            // Only the object types an entitlements file uses reach Foundation's reader: sets,
            // UIDs and the newer string forms are refused here, because Foundation on Linux can
            // crash on crafted ones (a set of unhashable objects: found by the entitlements fuzz
            // target, FuzzTesting/FailCases/entitlements/crash-b0050d74…).
            switch kind {
            case 0x0:
                guard [0x00, 0x08, 0x09, 0x0F].contains(marker) else { throw fail("unknown object type") }
                continue
            case 0x1, 0x2, 0x3, 0x4, 0x5, 0x6:
                continue
            case 0xA, 0xD:
                break
            default:
                throw fail("unsupported object type 0x\(String(marker, radix: 16)) (sets, UIDs and others never appear in entitlements)")
            }
            guard depth <= maximumDepth else {
                throw SWCredError(.malformedEntitlements, "the property list nests deeper than \(maximumDepth) levels")
            }
            var count = Int(marker & 0x0F)
            var refsStart = offset + 1
            if count == 0x0F {
                guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { throw fail("bad count") }
                let size = 1 << Int(bytes[offset + 1] & 0x0F)
                guard let value = readUInt(offset + 2, size) else { throw fail("bad count") }
                count = value
                refsStart = offset + 2 + size
            }
            let refs = kind == 0xD ? count * 2 : count
            guard refs <= objectCount * 2, refsStart + refs * refSize <= tableOffset else {
                throw fail("bad references")
            }
            for i in 0..<refs {
                guard let child = readUInt(refsStart + i * refSize, refSize), child < objectCount else {
                    throw fail("bad reference")
                }
                if kind == 0xD && i < count {
                    // Dictionary keys must be strings.
                    let keyKind = bytes[try objectOffset(child)] >> 4
                    guard keyKind == 0x5 || keyKind == 0x6 else { throw fail("a dictionary key is not a string") }
                }
                stack.append((child, depth + 1))
            }
        }
    }
}
