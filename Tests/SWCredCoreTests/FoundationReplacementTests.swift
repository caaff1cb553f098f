import Foundation
import SWCredCore
import Testing

/// The small replacements of Foundation APIs that `FoundationEssentials` lacks (issue 22), each
/// checked against the Foundation call it replaces where Foundation gives an answer, and pinned
/// where it traps.
@Suite("Foundation replacements in SWCredCore")
struct FoundationReplacementTests {
    @Test("trimmingWhitespace and trimmingWhitespaceAndNewlines agree with Foundation's CharacterSets")
    func trimming() {
        // Every BMP scalar alone and around text, plus a few past the BMP.
        var scalars = (0x0...0xFFFF).compactMap(Unicode.Scalar.init(_:))
        scalars += [0x1F600, 0x10FFFD, 0xE0020].compactMap(Unicode.Scalar.init(_:))
        for scalar in scalars {
            let padded = "\(scalar)a\u{301} b\(scalar)\(scalar)"
            #expect(padded.trimmingWhitespace() == padded.trimmingCharacters(in: .whitespaces), "U+\(scalar.value)")
            #expect(
                padded.trimmingWhitespaceAndNewlines() == padded.trimmingCharacters(in: .whitespacesAndNewlines),
                "U+\(scalar.value)")
        }
        for text in ["", " ", " \t\n", " \u{301}x ", "x", "\u{3000}全角\u{3000}", "a\n", "\r\nb\u{2028}"] {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(Substring(text).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("padded(toLength:) agrees with Foundation's padding(toLength:withPad:startingAt:)")
    func padding() {
        for text in ["", "Domain:", "Site/Fmwk Approval:", "AD-2.1", "exactly-twenty-chars", "much longer than the width", "é", "ﬁ𝄞x"] {
            for length in [0, 1, 3, 20, 24] {
                #expect(
                    text.padded(toLength: length) == text.padding(toLength: length, withPad: " ", startingAt: 0),
                    "\(text) \(length)")
            }
        }
    }

    @Test("PathText.appending agrees with NSString.appendingPathComponent")
    func appending() {
        let bases = ["", "/", "a", "a/", "a//", "/a/b", "./x", "a//b", "~", "sites/"]
        let components = ["x", "/x", "x/", "x//y", "", "tacos.example:8443/.well-known/apple-app-site-association", "../z"]
        for base in bases {
            for component in components {
                #expect(
                    PathText.appending(component, to: base) == (base as NSString).appendingPathComponent(component),
                    "\(base) + \(component)")
            }
        }
    }

    /// Foundation's `deletingLastPathComponent` on Linux traps on some inputs (one-character
    /// strings such as `-` or `a`, and `a/`: `swcred match --sitemap -` trapped there), so the
    /// values are pinned; where it answers, they agree with it.
    @Test(
        "PathText.deletingLastComponent: the folder of a path",
        arguments: [
            ("/", "/"), ("ab", ""), ("/a/b", "/a"), ("./x", "."), ("a//b", "a"), ("a/./b/", "a/."), ("//", ""),
            ("a/b", "a"), ("/a", "/"), ("a/b/", "a"), ("a/b//", "a"), ("/a//b", "/a"), ("s.xml", ""),
            ("dir/s.xml", "dir"), ("/s.xml", "/"), ("./s.xml", "."), ("a/../b", "a/.."), ("~/x", "~"), ("///", ""),
            ("/ab/", "/"), ("ab//", ""), ("..", ""), ("../x", ".."), ("x/.", "x"), ("//ab", "/"), ("/ab//cd/", "/ab"),
            // Where Foundation traps:
            ("-", ""), ("a", ""), ("a/", ""), ("a//", ""), ("./", ""), ("", ""),
        ])
    func deletingLastComponent(path: String, folder: String) {
        #expect(PathText.deletingLastComponent(path) == folder)
    }

    @Test("FileBytes reads a file up to a limit; open and read failures carry their errno")
    func fileBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-filebytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f").path
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(content).write(to: URL(fileURLWithPath: path))

        #expect(try FileBytes.read(path: path, upTo: 10) == Array(content[..<10]))
        #expect(try FileBytes.read(path: path, upTo: 200_001) == content)
        #expect(try FileBytes.read(path: path, upTo: 0) == [])
        let file = try FileBytes.OpenFile(path: path)
        var pieces: [UInt8] = []
        while true {
            let piece = try file.read(upTo: 65_537)
            if piece.isEmpty { break }
            pieces += piece
        }
        file.close()
        #expect(pieces == content)
        #expect(try file.read(upTo: 10) == [])

        #expect(throws: FileBytes.Failure(step: .open, errno: ENOENT)) {
            try FileBytes.read(path: directory.appendingPathComponent("missing").path, upTo: 10)
        }
        #expect(throws: FileBytes.Failure(step: .read, errno: EISDIR)) {
            try FileBytes.read(path: directory.path, upTo: 10)
        }
    }

    /// The texts `FileHandle`'s errors gave as `localizedDescription` on Linux, which the
    /// commands print after "cannot read PATH:" (e.g. `swcred match --urls - < /`).
    @Test("FileBytes.Failure words a read error as Foundation's FileHandle did")
    func failureText() {
        #expect(
            FileBytes.Failure(step: .read, errno: EISDIR).foundationDescription
                == "The operation could not be completed. (NSCocoaErrorDomain error 256.)")
        #expect(
            FileBytes.Failure(step: .read, errno: EACCES).foundationDescription
                == "The operation could not be completed. (NSCocoaErrorDomain error 257.)")
        #expect(
            FileBytes.Failure(step: .read, errno: EIO).foundationDescription
                == "The operation could not be completed. (NSCocoaErrorDomain error 256.)")
    }

    @Test("FileBytes.write writes everything to a descriptor")
    func write() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let bytes = Array("swcred\n".utf8)
        FileBytes.write(bytes, to: descriptors[1])
        close(descriptors[1])
        #expect(try FileBytes.read(descriptor: descriptors[0], upTo: 100) == bytes)
        close(descriptors[0])
    }
}
