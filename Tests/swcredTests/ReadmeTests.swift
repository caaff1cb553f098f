import Foundation
import Testing

/// The README's walk-throughs are run as written, so the README cannot rot.
///
/// Every fenced `sh` block that follows a `<!-- readme-test: NAME -->` line is run with
/// `bash -euo pipefail`, from the repository root, with the built `swcred` first on `PATH`, as a
/// reader runs it in a plain shell (issue 28): a fresh `HOME`, no `TMPDIR` and no `XDG_*`
/// variables set, and every block run a second time after the first pass (a reader runs a
/// walk-through again). Blocks of one README share that home, in order, as a reader following
/// along would.
@Suite("README walk-throughs")
struct ReadmeTests {
    struct Block: CustomTestStringConvertible, Sendable {
        let name: String
        let script: String
        var testDescription: String { name }
    }

    static let blocks: [Block] = {
        let url = CLI.repositoryRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var blocks: [Block] = []
        var pending: String?
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if var lines = current {
                if line.hasPrefix("```") {
                    blocks.append(Block(name: pending ?? "?", script: lines.joined(separator: "\n")))
                    current = nil
                    pending = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if let name = line.firstMatch(of: /<!-- readme-test: ([A-Za-z0-9 _.-]+) -->/)?.1 {
                pending = String(name)
            } else if pending != nil, line.hasPrefix("```sh") {
                current = []
            }
        }
        return blocks
    }()

    @Test("the README marks its walk-throughs for this test")
    func readmeHasWalkthroughs() {
        #expect(Self.blocks.count >= 3, "found \(Self.blocks.map(\.name))")
    }

    @Test("README walk-throughs run as written")
    func walkthroughsRun() throws {
        let home = try CLI.temporaryDirectory("swcred-readme")
        defer { try? FileManager.default.removeItem(at: home) }
        let binDir = CLI.binary.deletingLastPathComponent().path
        for pass in 1...2 {
        for block in Self.blocks {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["--noprofile", "--norc", "-euo", "pipefail", "-c", block.script]
            process.currentDirectoryURL = CLI.repositoryRoot
            process.environment = [
                "PATH": binDir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "HOME": home.path,
                "SWIFT_BACKTRACE": "enable=no",
                "NO_COLOR": "1",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0,
                    "README block '\(block.name)' (pass \(pass)) exited \(process.terminationStatus):\n\(String(decoding: data, as: UTF8.self))")
        }
        }
        // The walk-throughs use throw-away stores: nothing landed in the reader's default store.
        let defaultStore = home.appendingPathComponent(".local/share/swcred/keychain.swcred").path
        #expect(!FileManager.default.fileExists(atPath: defaultStore), "a README block wrote the default store")
    }

    @Test("the Swift walk-through in the README is the test file the suite runs")
    func swiftExampleMatchesTest() throws {
        let text = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = /<!-- readme-swift: ([^ ]+) -->\n```swift\n/
        let match = try #require(text.firstMatch(of: marker), "no readme-swift block")
        let rest = text[match.range.upperBound...]
        let end = try #require(rest.range(of: "```\n"))
        let shown = String(rest[..<end.lowerBound])
        let file = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent(String(match.1)), encoding: .utf8)
        #expect(shown == file, "README.md shows a different version of \(match.1)")
    }
}
