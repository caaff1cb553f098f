import Foundation

/// The tools that build and check Mach-O fixtures at test time, found on `PATH`: the Swift
/// toolchain's `clang` (compiles an iOS arm64 object without an SDK), Debian's `ld64.lld-14`
/// (links it and writes a real ad-hoc linker signature), `llvm-lipo-14` (universal files) and
/// Python with LIEF (an independent Mach-O reader). Tests that need a missing tool skip.
enum FixtureTools {
    static func find(_ names: [String]) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for directory in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a tool and returns its standard output; throws with its standard error when it fails.
    @discardableResult
    static func run(_ executable: URL, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(
                description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")): "
                    + (String(data: messages, encoding: .utf8) ?? ""))
        }
        return data
    }

    static let clang = find(["clang"])
    static let lipo = find(["llvm-lipo-14", "llvm-lipo"])

    /// A linker that can write an iOS arm64 executable (the toolchain's own `ld64.lld` may have
    /// been built without Apple platforms, so each candidate is tried on a real link).
    static let linker: URL? = {
        guard let clang else { return nil }
        for candidate in ["ld64.lld-14", "ld64.lld"] {
            guard let linker = find([candidate]) else { continue }
            if (try? Fixtures.link(clang: clang, linker: linker, arch: .arm64, name: "probe")) != nil { return linker }
        }
        return nil
    }()

    /// `python3` when it can `import lief`.
    static let liefPython: URL? = {
        guard let python = find(["python3"]) else { return nil }
        return (try? run(python, ["-c", "import lief"])) != nil ? python : nil
    }()

    static var canLink: Bool { linker != nil }
    static var canLipo: Bool { linker != nil && lipo != nil }
    static var hasLIEF: Bool { linker != nil && liefPython != nil }
}
