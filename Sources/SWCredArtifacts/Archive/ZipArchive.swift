import SWCredCore

/// A zip archive read from its central directory, in memory: nothing is extracted to a path.
///
/// Entries are looked up by name and their bytes read on demand: stored ones (method 0) sliced out,
/// deflated ones (method 8, as Xcode writes them) inflated by zlib into a buffer of the size the
/// central directory declares, after that size passed the caller's limit, the archive's read
/// budget and the compression-ratio cap (``ArtifactLimits``). Every entry read has its CRC-32
/// checked and its local header (or data descriptor) compared with the central directory.
/// Other methods, multi-disk archives, zip64, encrypted entries, and names that are absolute,
/// hold `..`, a backslash or a NUL are refused (zip-slip names, even though nothing is written).
struct ZipArchive: Sendable {
    struct Entry: Sendable {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc: UInt32
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int
    }

    let file: ByteWindow
    let entries: [String: Entry]
    let names: [String]
    let limits: ArtifactLimits

    /// Step 1: the end-of-central-directory record (the last `PK\5\6` within 65,557 bytes of the end).
    /// Step 2: the central directory it points to, entry by entry.
    init(_ bytes: [UInt8], limits: ArtifactLimits) throws(SWCredError) {
        let file = ByteWindow(bytes, name: "the .ipa archive")
        guard bytes.count >= 22 else {
            throw SWCredError(.malformedArtifact, "the .ipa is \(bytes.count) bytes, too short for a zip archive")
        }
        var end: Int?
        var position = bytes.count - 22
        while position >= max(0, bytes.count - 22 - 65_535) {
            if try file.uint32(at: position, bigEndian: false, "a signature") == 0x0605_4b50 {
                let commentLength = Int(try file.uint16(at: position + 20, "the archive comment's length"))
                if position + 22 + commentLength == bytes.count {
                    end = position
                    break
                }
            }
            position -= 1
        }
        guard let end else {
            throw SWCredError(.malformedArtifact, "the .ipa has no zip end-of-central-directory record")
        }
        let disk = try file.uint16(at: end + 4, "the disk number")
        let directoryDisk = try file.uint16(at: end + 6, "the central directory's disk")
        let diskEntries = try file.uint16(at: end + 8, "the entries on this disk")
        let totalEntries = try file.uint16(at: end + 10, "the entry count")
        let directorySize = try file.uint32(at: end + 12, bigEndian: false, "the central directory's size")
        let directoryOffset = try file.uint32(at: end + 16, bigEndian: false, "the central directory's offset")
        guard disk == 0, directoryDisk == 0, diskEntries == totalEntries else {
            throw SWCredError(.malformedArtifact, "the .ipa is a multi-disk zip archive")
        }
        guard totalEntries != 0xffff, directorySize != 0xffff_ffff, directoryOffset != 0xffff_ffff else {
            throw SWCredError(.malformedArtifact, "the .ipa is a zip64 archive, which swcred does not read yet")
        }
        guard Int(totalEntries) <= limits.maximumArchiveEntries else {
            throw SWCredError(.malformedArtifact, "the .ipa lists \(totalEntries) entries")
        }
        let directory = try file.window(at: directoryOffset, length: directorySize, name: "the central directory")
        guard directory.start + directory.count <= end else {
            throw SWCredError(.malformedArtifact, "the central directory overlaps its end record")
        }
        var entries: [String: Entry] = [:]
        var names: [String] = []
        var offset = 0
        for index in 0..<Int(totalEntries) {
            guard try directory.uint32(at: offset, bigEndian: false, "entry \(index)") == 0x0201_4b50 else {
                throw SWCredError(.malformedArtifact, "central directory entry \(index) has no PK\\1\\2 signature")
            }
            let flags = try directory.uint16(at: offset + 8, "entry \(index)'s flags")
            let method = try directory.uint16(at: offset + 10, "entry \(index)'s method")
            let crc = try directory.uint32(at: offset + 16, bigEndian: false, "entry \(index)'s CRC-32")
            let compressed = try directory.uint32(at: offset + 20, bigEndian: false, "entry \(index)'s size")
            let uncompressed = try directory.uint32(at: offset + 24, bigEndian: false, "entry \(index)'s full size")
            let nameLength = Int(try directory.uint16(at: offset + 28, "entry \(index)'s name length"))
            let extraLength = Int(try directory.uint16(at: offset + 30, "entry \(index)'s extra length"))
            let commentLength = Int(try directory.uint16(at: offset + 32, "entry \(index)'s comment length"))
            let local = try directory.uint32(at: offset + 42, bigEndian: false, "entry \(index)'s local header offset")
            let nameBytes = try directory.slice(at: offset + 46, length: nameLength, "entry \(index)'s name")
            guard let name = String(validating: nameBytes, as: UTF8.self), Self.isSafe(name) else {
                throw SWCredError(
                    .malformedArtifact, "entry \(index)'s name is not a safe relative path (zip slip refused)")
            }
            guard compressed != 0xffff_ffff, uncompressed != 0xffff_ffff, local != 0xffff_ffff else {
                throw SWCredError(.malformedArtifact, "entry \(index) is a zip64 entry, which swcred does not read yet")
            }
            guard entries[name] == nil else {
                throw SWCredError(.malformedArtifact, "the .ipa lists \(name.debugDescription) twice")
            }
            entries[name] = Entry(
                name: name, method: method, flags: flags, crc: crc, compressedSize: Int(compressed),
                uncompressedSize: Int(uncompressed), localHeaderOffset: Int(local))
            names.append(name)
            offset += 46 + nameLength + extraLength + commentLength
        }
        self.file = file
        self.entries = entries
        self.names = names
        self.limits = limits
    }

    /// The bytes of the entry `name`, at most `maximum`; nil when there is no such entry.
    ///
    /// `budget` is what is left of ``ArtifactLimits/maximumArchiveReadBytes`` for this archive:
    /// the entry's declared size is taken from it before anything is inflated.
    func contents(of name: String, maximum: Int, budget: inout Int) throws(SWCredError) -> [UInt8]? {
        guard let entry = entries[name] else { return nil }
        guard entry.flags & 0x41 == 0 else { throw SWCredError(.malformedArtifact, "\(name) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw SWCredError(
                .malformedArtifact,
                "\(name) is compressed with method \(entry.method); swcred reads stored (0) and deflated (8) entries")
        }
        guard entry.uncompressedSize <= maximum else {
            throw SWCredError(.malformedArtifact, "\(name) is \(entry.uncompressedSize) bytes (at most \(maximum))")
        }
        guard entry.uncompressedSize <= budget else {
            throw SWCredError(
                .malformedArtifact,
                "\(name) is \(entry.uncompressedSize) bytes, past the \(limits.maximumArchiveReadBytes) bytes read "
                    + "from one .ipa")
        }
        budget -= entry.uncompressedSize
        if entry.method == 0, entry.compressedSize != entry.uncompressedSize {
            throw SWCredError(.malformedArtifact, "\(name) is stored with two different sizes")
        }
        if entry.method == 8, entry.uncompressedSize > limits.compressionRatioThreshold {
            let (bound, overflow) = entry.compressedSize.multipliedReportingOverflow(by: limits.maximumCompressionRatio)
            guard !overflow, entry.uncompressedSize <= bound else {
                throw SWCredError(
                    .malformedArtifact,
                    "\(name) declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed "
                        + "(more than \(limits.maximumCompressionRatio):1; a zip bomb is refused)")
            }
        }
        let data = try localData(of: entry)
        let bytes: [UInt8]
        if entry.method == 8 {
            bytes = try RawInflater.inflate(data, declared: entry.uncompressedSize, entry: name)
        } else {
            bytes = data.contents
        }
        guard RawInflater.crc32(bytes) == entry.crc else {
            throw SWCredError(.malformedArtifact, "\(name) does not match its CRC-32")
        }
        return bytes
    }

    /// The entry's compressed bytes, after its local header, which must agree with the central
    /// directory (name, flags, method, and CRC-32 and sizes, or a data descriptor that does).
    private func localData(of entry: Entry) throws(SWCredError) -> ByteWindow {
        let name = entry.name
        let local = entry.localHeaderOffset
        guard try file.uint32(at: local, bigEndian: false, "\(name)'s local header") == 0x0403_4b50 else {
            throw SWCredError(.malformedArtifact, "\(name)'s local header has no PK\\3\\4 signature")
        }
        let flags = try file.uint16(at: local + 6, "\(name)'s local flags")
        let method = try file.uint16(at: local + 8, "\(name)'s local method")
        let crc = try file.uint32(at: local + 14, bigEndian: false, "\(name)'s local CRC-32")
        let compressed = Int(try file.uint32(at: local + 18, bigEndian: false, "\(name)'s local size"))
        let uncompressed = Int(try file.uint32(at: local + 22, bigEndian: false, "\(name)'s local full size"))
        let nameLength = Int(try file.uint16(at: local + 26, "\(name)'s local name length"))
        let extraLength = Int(try file.uint16(at: local + 28, "\(name)'s local extra length"))
        let localName = try file.slice(at: local + 30, length: nameLength, "\(name)'s local name")
        guard localName.elementsEqual(name.utf8) else {
            throw SWCredError(.malformedArtifact, "\(name)'s local header names another file")
        }
        guard flags & 0x49 == entry.flags & 0x49, method == entry.method else {
            throw SWCredError(.malformedArtifact, "\(name)'s local header disagrees with the central directory")
        }
        let dataOffset = local + 30 + nameLength + extraLength
        let data = try file.window(at: dataOffset, length: entry.compressedSize, name: "\(name)'s data")
        let recorded = (crc, compressed, uncompressed)
        if flags & 0x8 == 0 {
            guard recorded == (entry.crc, entry.compressedSize, entry.uncompressedSize) else {
                throw SWCredError(
                    .malformedArtifact,
                    "\(name)'s local header disagrees with the central directory on its CRC or sizes")
            }
        } else {
            // A data descriptor (bit 3) follows the data: an optional PK\7\8, then CRC-32 and sizes.
            guard recorded == (0, 0, 0) || recorded == (entry.crc, entry.compressedSize, entry.uncompressedSize) else {
                throw SWCredError(.malformedArtifact, "\(name)'s local header disagrees with the central directory")
            }
            var at = dataOffset + entry.compressedSize
            if try file.uint32(at: at, bigEndian: false, "\(name)'s data descriptor") == 0x0807_4b50 { at += 4 }
            let described = (
                try file.uint32(at: at, bigEndian: false, "\(name)'s data descriptor"),
                Int(try file.uint32(at: at + 4, bigEndian: false, "\(name)'s data descriptor")),
                Int(try file.uint32(at: at + 8, bigEndian: false, "\(name)'s data descriptor")))
            guard described == (entry.crc, entry.compressedSize, entry.uncompressedSize) else {
                throw SWCredError(
                    .malformedArtifact, "\(name)'s data descriptor disagrees with the central directory")
            }
        }
        return data
    }

    /// A relative path with no empty, `.` or `..` component, no backslash and no NUL.
    static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\0" })
        else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        return !components.dropLast().contains { $0.isEmpty || $0 == "." || $0 == ".." }
            && components.last != "." && components.last != ".."
    }
}
