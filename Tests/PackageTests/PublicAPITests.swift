import Foundation
import Testing

/// What a library user can name and find (issue 29): every module a product's public API shows
/// comes with the product, and every public type is on its module's DocC page.
@Suite("Public API: nameable and documented")
struct PublicAPITests {
    struct Product: Sendable {
        let name: String
        let targets: [String]
    }

    /// The library products of the manifest (`swift package dump-package`).
    static func loadLibraryProducts() throws -> [Product] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swcred-products-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        process.arguments = [
            "swift", "package", "--package-path", DependencyGraphTests.packageRoot.path, "--scratch-path", scratch.path,
            "dump-package",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let products = manifest["products"] as? [[String: Any]]
        else { throw CocoaError(.propertyListReadCorrupt) }
        return products.compactMap { product in
            guard let name = product["name"] as? String, let targets = product["targets"] as? [String],
                let type = product["type"] as? [String: Any], type["library"] != nil
            else { return nil }
            return Product(name: name, targets: targets)
        }
    }

    /// The Swift files under `folder`, as (path, text).
    static func swiftFiles(under folder: URL) -> [(String, String)] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var files: [(String, String)] = []
        for case let file as URL in walker where file.pathExtension == "swift" {
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                files.append((file.lastPathComponent, text))
            }
        }
        return files
    }

    /// The modules named by import lines of `text` that carry all of `attributes`.
    static func imports(in text: String, with attributes: Set<String>) -> Set<String> {
        var found: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                attributes.isSubset(of: Set(words[..<index]))
            else { continue }
            found.insert(words[index + 1])
        }
        return found
    }

    @Test("every swcred module that a product's public API shows is re-exported by the product's module")
    func productsReexportWhatTheyShow() throws {
        let products = try Self.loadLibraryProducts()
        let targets = try DependencyGraphTests.loadTargets()
        let packageModules = Set(targets.map(\.name))
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var checked = 0
        for product in products {
            for name in product.targets {
                let target = try #require(byName[name])
                let files = Self.swiftFiles(under: DependencyGraphTests.packageRoot.appendingPathComponent(target.path))
                var shown: Set<String> = []
                var exported: Set<String> = []
                for (_, text) in files {
                    shown.formUnion(Self.imports(in: text, with: ["public"]).intersection(packageModules))
                    exported.formUnion(Self.imports(in: text, with: ["@_exported"]))
                }
                let missing = shown.subtracting(exported).sorted()
                #expect(
                    missing.isEmpty, "\(name) (product \(product.name)) shows \(missing) but does not re-export them")
                checked += 1
            }
        }
        #expect(checked >= 9)
    }

    @Test("every public type is listed on its module's DocC page; a product's module with public types has one")
    func publicTypesAreDocumented() throws {
        let targets = try DependencyGraphTests.loadTargets()
        let productTargets = Set(try Self.loadLibraryProducts().flatMap(\.targets))
        let declaration = /^public (?:final )?(?:struct|enum|class|protocol|typealias|actor) ([A-Za-z_][A-Za-z0-9_]*)/
        var checked = 0
        for target in targets where target.type == "regular" {
            let folder = DependencyGraphTests.packageRoot.appendingPathComponent(target.path)
            let catalogs =
                (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))?
                .filter { $0.pathExtension == "docc" } ?? []
            guard let catalog = catalogs.first else {
                let declares = Self.swiftFiles(under: folder).contains { _, text in
                    text.split(separator: "\n").contains { String($0).firstMatch(of: declaration) != nil }
                }
                #expect(
                    !(declares && productTargets.contains(target.name)),
                    "\(target.name) is in a product and declares public types, but has no DocC catalog")
                continue
            }
            let pages = (try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil))
                .filter { $0.pathExtension == "md" }
                .compactMap { try? String(contentsOf: $0, encoding: .utf8) }
                .joined(separator: "\n")
            for (file, text) in Self.swiftFiles(under: folder) {
                for line in text.split(separator: "\n") {
                    guard let match = String(line).firstMatch(of: declaration) else { continue }
                    let name = String(match.1)
                    #expect(
                        pages.contains("``\(name)``") || pages.contains("``\(name)/"),
                        "\(target.name): public \(name) (\(file)) is on no page of \(catalog.lastPathComponent)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }
}
