import Foundation
import Testing

/// The dependency graph is the import graph: every target declares exactly the modules its
/// files import. A declared dependency nobody imports makes every user of the target build it
/// for nothing (SWCredKit once pulled in SwiftNIO, NIOSSL and async-http-client that way); an
/// import that is not declared builds only by accident of what else is in the graph.
@Suite("Package dependency graph")
struct DependencyGraphTests {
    /// Modules of the toolchain and the platform; no target declares them.
    static let systemModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "CoreFoundation", "Dispatch", "Glibc",
        "Darwin", "Musl", "Android", "WinSDK", "Synchronization", "XCTest", "Testing", "_Concurrency", "os",
        "_StringProcessing", "RegexBuilder",
    ]

    struct Target: Sendable {
        let name: String
        let type: String
        let path: String
        let dependencies: Set<String>
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The manifest as SwiftPM reads it (`swift package dump-package`), so that the test sees
    /// what the build sees, loops and conditions included.
    static func loadTargets() throws -> [Target] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own: the running `swift test` holds the lock of `.build`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swcred-dump-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        process.arguments = [
            "swift", "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path, "dump-package",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift package dump-package failed")
        guard let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = manifest["targets"] as? [[String: Any]]
        else { throw CocoaError(.propertyListReadCorrupt) }
        return targets.compactMap { target in
            guard let name = target["name"] as? String, let type = target["type"] as? String else { return nil }
            let defaultFolder = type == "test" ? "Tests" : "Sources"
            let path = target["path"] as? String ?? "\(defaultFolder)/\(name)"
            var dependencies: Set<String> = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                for key in ["byName", "target", "product"] {
                    if let parts = dependency[key] as? [Any], let first = parts.first as? String {
                        dependencies.insert(first)
                    }
                }
            }
            return Target(name: name, type: type, path: path, dependencies: dependencies)
        }
    }

    /// The modules imported by the Swift files under `folder` (any access level, `@testable`,
    /// `@preconcurrency`, and `import struct M.T` forms), system modules left out unless
    /// `includingSystem`.
    static func imports(under folder: URL, includingSystem: Bool = false) -> Set<String> {
        var found: Set<String> = []
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return found
        }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
        let importModifiers: Set<String> = [
            "@testable", "@preconcurrency", "@_exported", "@_implementationOnly", "public", "internal", "package",
            "private", "fileprivate",
        ]
        for case let file as URL in walker where file.pathExtension == "swift" {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                // Only the attributes and access levels an import declaration can carry
                // (`@Suite("… import and …")` is not one).
                while let first = words.first, importModifiers.contains(first) || first.hasPrefix("@_spi(") {
                    words.removeFirst()
                }
                guard words.first == "import", words.count >= 2 else { continue }
                var module = words[1]
                if kinds.contains(module), words.count >= 3 { module = words[2] }
                module = String(module.split(separator: ".").first ?? "")
                if !module.isEmpty, includingSystem || !systemModules.contains(module) { found.insert(module) }
            }
        }
        return found
    }

    @Test("every declared dependency is imported, and every import is declared")
    func dependenciesAreImports() throws {
        let targets = try Self.loadTargets()
        #expect(targets.count > 10)
        let executables = Set(targets.filter { $0.type == "executable" }.map(\.name))
        for target in targets where target.type != "system" {
            let folder = Self.packageRoot.appendingPathComponent(target.path)
            let imported = Self.imports(under: folder)
            // A test target may depend on an executable only to have it built (spawned-process
            // tests), or also import it (`@testable import swcred`, in-process tests).
            let declared = target.dependencies
            let unused = declared.subtracting(executables).subtracting(imported).sorted()
            let undeclared = imported.subtracting(declared).sorted()
            #expect(unused.isEmpty, "\(target.name) declares but never imports: \(unused)")
            #expect(undeclared.isEmpty, "\(target.name) imports but does not declare: \(undeclared)")
        }
    }

    /// Issue 22: the `swcred` executable links no network stack (its commands that fetch run in
    /// `swcred-fetch`), so the commands that never fetch do not load it at every start.
    @Test("the swcred executable reaches no NIO, TLS or HTTP client; swcred-fetch does")
    func commandPathIsLight() throws {
        let targets = try Self.loadTargets()
        func reached(from root: String) -> Set<String> { Self.reached(from: root, in: targets) }
        let network: Set<String> = ["AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOSSL", "NIOHTTP1", "SWCredRetrievalLive"]
        #expect(reached(from: "swcred").intersection(network).isEmpty)
        #expect(reached(from: "swcred-fetch").isSuperset(of: network))
    }

    /// Issue 31: the signed-artifact readers run in `swcred-fetch` (`--app`, `entitlements PATH`
    /// on an artifact); SWCredCLI reaches them only through `SignedApps`, which that program installs.
    /// Issue 31 (deflated `.ipa` entries): zlib's module, CSWCredZlib, is the artifact reader's alone.
    @Test("the swcred executable reaches no artifact reader (SWCredArtifacts, swift-asn1, zlib); swcred-fetch does")
    func artifactReadersOnlyInTheSibling() throws {
        let targets = try Self.loadTargets()
        let readers: Set<String> = ["SWCredArtifacts", "SWCredArtifactsCLI", "SwiftASN1", "CSWCredZlib"]
        #expect(Self.reached(from: "swcred", in: targets).intersection(readers).isEmpty)
        #expect(Self.reached(from: "SWCredCLI", in: targets).intersection(readers).isEmpty)
        #expect(Self.reached(from: "swcred-fetch", in: targets).isSuperset(of: ["SWCredArtifacts", "SWCredArtifactsCLI", "CSWCredZlib"]))
    }

    /// The targets `root` depends on, directly or not, and `root` itself.
    static func reached(from root: String, in targets: [Target]) -> Set<String> {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var queue = [root]
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let target = byName[name] else { continue }
            queue += target.dependencies
        }
        return seen
    }

    /// Issue 22: `swcred` links `FoundationEssentials` only, not Foundation (swift-corelibs),
    /// FoundationInternationalization or ICU's data (half the binary, and their conformance
    /// records, which every argument parse scans). A module of this package that `swcred`
    /// reaches imports `FoundationEssentials`; the few Foundation APIs it lacks have
    /// replacements in SWCredCore (`FileBytes`, `PathText`, `trimmingWhitespace`, `padded`).
    @Test("no module the swcred executable reaches imports Foundation (FoundationEssentials only)")
    func commandPathHasNoFoundation() throws {
        let targets = try Self.loadTargets()
        let reached = Self.reached(from: "swcred", in: targets)
        let foundation: Set<String> = ["Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML"]
        var checked = 0
        for target in targets where reached.contains(target.name) && target.type != "system" {
            let imported = Self.imports(under: Self.packageRoot.appendingPathComponent(target.path), includingSystem: true)
            #expect(imported.intersection(foundation).isEmpty, "\(target.name) imports \(imported.intersection(foundation).sorted())")
            checked += 1
        }
        #expect(checked >= 10)
        #expect(reached.isSuperset(of: ["SWCredCore", "SWCredStore", "SWCredKit", "SWCredPasskeys", "SWCredCLI"]))
    }

    /// The password-only library path of a team's login-flow tests builds no network stack and
    /// no elliptic-curve library.
    @Test("SWCredKit, SWCredSecurity and SWCredTesting need no NIO, TLS, HTTP client or swift-crypto")
    func testingPathIsLight() throws {
        let targets = try Self.loadTargets()
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let heavy: Set<String> = [
            "AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOSSL", "NIOHTTP1", "NIOHTTPCompression", "X509", "Crypto",
            "_CryptoExtras", "SwiftASN1",
        ]
        for root in ["SWCredKit", "SWCredSecurity", "SWCredTesting"] {
            #expect(byName[root] != nil, "\(root) is missing")
            var seen: Set<String> = []
            var queue = [root]
            while let name = queue.popLast() {
                guard seen.insert(name).inserted, let target = byName[name] else { continue }
                queue += target.dependencies
            }
            let reached = seen.intersection(heavy).sorted()
            #expect(reached.isEmpty, "\(root) reaches \(reached)")
        }
    }
}
