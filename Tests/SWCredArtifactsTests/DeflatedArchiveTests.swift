import Foundation
import SWCredArtifacts
import SWCredCore
import Testing

/// Issue 31: deflated `.ipa` entries (zip method 8, as Xcode writes them), inflated by zlib in
/// memory. Python's `zipfile` and `zlib` write the archives at test time (an independent writer);
/// the hostile ones are a good archive with its headers patched.
@Suite("issue 31: deflated .ipa entries")
struct DeflatedArchiveTests {
    static let python = FixtureTools.find(["python3"])
    static let apps = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apps")
    static let entry = "Payload/A.app/Info.plist"

    /// Re-zips `source` with every entry deflated (`ZIP_DEFLATED`), or with data descriptors
    /// (Python writes them when its output cannot seek: a pipe).
    static func rezip(_ source: String, descriptors: Bool = false) throws -> [UInt8] {
        let python = try #require(Self.python)
        let script = "import sys, zipfile\n" + """
            out = sys.stdout.buffer if sys.argv[2] == '-' else open(sys.argv[2], 'wb')
            with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as dst:
                for info in src.infolist():
                    copy = zipfile.ZipInfo(info.filename, info.date_time)
                    copy.external_attr = info.external_attr
                    dst.writestr(copy, src.read(info), zipfile.ZIP_DEFLATED, 9)
            """
        if descriptors { return [UInt8](try FixtureTools.run(python, ["-c", script, source, "-"])) }
        let output = Fixtures.directory.appendingPathComponent("deflated-\(UUID().uuidString).ipa").path
        try FixtureTools.run(python, ["-c", script, source, output])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// A one-entry archive (`entry`) written by Python with `method` (0, 8 or 12): the content is
    /// `count` bytes of a short pattern, or of zeros.
    static func single(method: Int = 8, count: Int = 3_000, zeros: Bool = false) throws -> [UInt8] {
        let python = try #require(Self.python)
        let script = "import sys, zipfile\n" + """
            n = int(sys.argv[3])
            data = bytes(n) if sys.argv[4] == 'zeros' else (b'<plist><dict/></plist>' * n)[:n]
            with zipfile.ZipFile(open(sys.argv[1], 'wb'), 'w') as z:
                z.writestr(zipfile.ZipInfo(sys.argv[5], (2026, 1, 1, 0, 0, 0)), data, int(sys.argv[2]))
            """
        let output = Fixtures.directory.appendingPathComponent("single-\(UUID().uuidString).ipa").path
        try FixtureTools.run(
            python, ["-c", script, output, String(method), String(count), zeros ? "zeros" : "text", entry])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// The header fields a hostile archive changes, in the local header and the central directory.
    enum Field {
        case flags, method, crc, compressedSize, size
        var local: Int { [.flags: 6, .method: 8, .crc: 14, .compressedSize: 18, .size: 22][self] ?? 0 }
        var central: Int { [.flags: 8, .method: 10, .crc: 16, .compressedSize: 20, .size: 24][self] ?? 0 }
        var width: Int { self == .flags || self == .method ? 2 : 4 }
    }

    /// A field of the single entry, read from its local header.
    static func read(_ bytes: [UInt8], _ field: Field) -> Int {
        (0..<field.width).reduce(0) { $0 | Int(bytes[field.local + $1]) << (8 * $1) }
    }

    /// Sets a field of the single entry in its local header, its central directory entry, or both.
    static func patch(
        _ bytes: inout [UInt8], _ field: Field, _ value: Int, local: Bool = true, central: Bool = true
    ) {
        let end = bytes.count - 22
        let directory = (0..<4).reduce(0) { $0 | Int(bytes[end + 16 + $1]) << (8 * $1) }
        for (enabled, at) in [(local, field.local), (central, directory + field.central)] where enabled {
            for index in 0..<field.width { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
    }

    /// Reads `bytes` and expects a `malformedArtifact` (exit 65 from the command) whose message names the entry
    /// and holds `fragment`.
    static func expectRefused(
        _ bytes: [UInt8], _ fragment: String, limits: ArtifactLimits = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try AppArchive.read(bytes, limits: limits)
            Issue.record("the archive was read", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .malformedArtifact, sourceLocation: sourceLocation)
            #expect(error.message.contains(entry), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "issue 31: the app fixtures re-zipped deflated read as the stored ones (entitlements, app ID, profile)",
        .enabled(if: python != nil, "python3 is not installed"),
        arguments: ["TacoShop.ipa", "TacoShop-resigned.ipa", "TacoShop-profile-denies.ipa"])
    func fixturesDeflated(name: String) throws {
        let path = Self.apps.appendingPathComponent(name).path
        let stored = try AppArchive.load(path: path)
        for descriptors in [false, true] {
            let bytes = try Self.rezip(path, descriptors: descriptors)
            #expect(Self.read(bytes, .method) == 8)
            #expect((Self.read(bytes, .flags) & 0x8 != 0) == descriptors)
            let deflated = try AppArchive.read(bytes)
            #expect(deflated == stored, "descriptors: \(descriptors)")
            let signature = deflated.app.executable.slices.first?.signature
            let storedSignature = stored.app.executable.slices.first?.signature
            #expect(signature?.applicationIdentifier == storedSignature?.applicationIdentifier)
            #expect(signature?.entitlementsSealed == true)
            #expect(deflated.app.embeddedProfile == stored.app.embeddedProfile)
        }
    }

    @Test("issue 31: a good deflated entry inflates; the hostile headers below are checked against it",
          .enabled(if: python != nil, "python3 is not installed"))
    func control() throws {
        // The entry reads (no zip error): what fails is the plist being no app's Info.plist.
        let bytes = try Self.single()
        do {
            _ = try AppArchive.read(bytes)
        } catch {
            #expect(!error.message.contains(Self.entry), "\(error.message)")
        }
    }

    @Test("issue 31: hostile deflated entries are refused (65) naming the entry, nothing trapping",
          .enabled(if: python != nil, "python3 is not installed"))
    func hostile() throws {
        let good = try Self.single()
        let size = Self.read(good, .size)
        let compressed = Self.read(good, .compressedSize)
        let crc = Self.read(good, .crc)
        func patched(_ changes: [(Field, Int)], local: Bool = true, central: Bool = true) -> [UInt8] {
            var bytes = good
            for (field, value) in changes { Self.patch(&bytes, field, value, local: local, central: central) }
            return bytes
        }
        // A declared size smaller than the output; a larger one.
        Self.expectRefused(patched([(.size, size - 1)]), "more than the \(size - 1) bytes")
        Self.expectRefused(patched([(.size, size + 10)]), "inflates to \(size) bytes, not the \(size + 10)")
        // A bomb: a small entry declaring a huge size, under the default limits and under larger ones.
        Self.expectRefused(patched([(.size, 900 << 20)]), "at most")
        var roomy = ArtifactLimits()
        roomy.maximumInfoPlistBytes = 1 << 30
        Self.expectRefused(patched([(.size, 900 << 20)]), "zip bomb", limits: roomy)
        var tight = ArtifactLimits()
        tight.maximumArchiveReadBytes = 100
        Self.expectRefused(good, "bytes read from one .ipa", limits: tight)
        // A wrong CRC-32; a truncated stream; bytes after the stream; a corrupt stream.
        Self.expectRefused(patched([(.crc, crc ^ 1)]), "CRC-32")
        Self.expectRefused(patched([(.compressedSize, compressed - 3)]), "does not end")
        Self.expectRefused(patched([(.compressedSize, compressed + 4)]), "after the end of its deflate stream")
        var corrupt = good
        corrupt[30 + Self.entry.utf8.count] = 0xff
        Self.expectRefused(corrupt, "corrupt")
        // Encrypted; a data descriptor flag with no matching descriptor; headers that disagree.
        Self.expectRefused(patched([(.flags, 1)]), "encrypted")
        Self.expectRefused(patched([(.flags, 8)]), "data descriptor")
        Self.expectRefused(patched([(.compressedSize, compressed + 1)], central: false), "disagrees")
        Self.expectRefused(patched([(.method, 0)], central: false), "disagrees")
    }

    @Test("issue 31: an honest deflate bomb (8 MiB of zeros, about 1,030:1) is refused by the ratio cap",
          .enabled(if: python != nil, "python3 is not installed"))
    func honestBomb() throws {
        var roomy = ArtifactLimits()
        roomy.maximumInfoPlistBytes = 64 << 20
        Self.expectRefused(try Self.single(count: 8 << 20, zeros: true), "zip bomb", limits: roomy)
        // Under the threshold the ratio is not held against an entry: 512 KiB of zeros inflates.
        let small = try Self.single(count: 512 << 10, zeros: true)
        do {
            _ = try AppArchive.read(small, limits: roomy)
        } catch {
            #expect(!error.message.contains(Self.entry), "\(error.message)")
        }
    }

    @Test("issue 31: methods other than stored and deflated (bzip2, 12) are refused naming the method",
          .enabled(if: python != nil, "python3 is not installed"))
    func bzip2() throws {
        Self.expectRefused(try Self.single(method: 12), "method 12")
    }

    @Test("issue 31: a stored entry's CRC-32 is checked too", .enabled(if: python != nil, "python3 is not installed"))
    func storedCRC() throws {
        var bytes = try Self.single(method: 0)
        Self.patch(&bytes, .crc, Self.read(bytes, .crc) ^ 0x100)
        Self.expectRefused(bytes, "CRC-32")
    }
}
