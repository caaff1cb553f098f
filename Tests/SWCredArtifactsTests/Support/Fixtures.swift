import Foundation

/// Mach-O fixtures built at test time: a tiny C program compiled and linked for iOS arm64 (and
/// macOS x86_64), signed by the linker, then re-signed with entitlements by ``TestSigner``.
/// Fake identities only.
enum Fixtures {
    enum Arch: String {
        case arm64, x86_64

        var target: String { self == .arm64 ? "arm64-apple-ios15.0" : "x86_64-apple-macos12.0" }
        var platform: [String] { self == .arm64 ? ["ios", "15.0", "15.0"] : ["macos", "12.0", "12.0"] }
    }

    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swcred-artifacts-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let team = "ABCDE12345"
    static let bundleID = "com.example.TacoShop"
    static let domains = [
        "webcredentials:example.com", "applinks:example.com", "applinks:*.example.com?mode=developer",
    ]

    /// The entitlements the test signer embeds, as (key, value) in the order written.
    static let entitlements: [(String, TestSigner.Value)] = [
        ("application-identifier", .string("\(team).\(bundleID)")),
        ("com.apple.developer.associated-domains", .array(domains.map { .string($0) })),
        ("com.apple.developer.team-identifier", .string(team)),
        ("get-task-allow", .bool(true)),
        ("keychain-access-groups", .array([.string("\(team).*")])),
    ]

    /// Compiles and links `int main(void)` for `arch` with an ad-hoc linker signature.
    static func link(clang: URL, linker: URL, arch: Arch, name: String) throws -> [UInt8] {
        let source = directory.appendingPathComponent("main.c")
        if !FileManager.default.fileExists(atPath: source.path) {
            try Data("int main(void) { return 0; }\n".utf8).write(to: source)
        }
        let object = directory.appendingPathComponent("\(name)-\(arch).o")
        let output = directory.appendingPathComponent(name)
        try FixtureTools.run(clang, ["-target", arch.target, "-c", source.path, "-o", object.path])
        try FixtureTools.run(
            linker,
            ["-arch", arch.rawValue, "-platform_version"] + arch.platform + [
                "-adhoc_codesign", "-e", "_main", "-o", output.path, object.path,
            ])
        return [UInt8](try Data(contentsOf: output))
    }

    /// The linker's own output for `arch`, signed ad hoc with identifier `TacoShop`; linked once
    /// per test process (tests run in parallel and would otherwise share the output paths).
    static func linked(_ arch: Arch) throws -> [UInt8] {
        try (arch == .arm64 ? linkedARM : linkedIntel).get()
    }

    private static let linkedARM = Result { try linkOnce(.arm64) }
    private static let linkedIntel = Result { try linkOnce(.x86_64) }

    private static func linkOnce(_ arch: Arch) throws -> [UInt8] {
        guard let clang = FixtureTools.clang, let linker = FixtureTools.linker else {
            throw FixtureTools.Failed(description: "no clang or linker")
        }
        let folder = directory.appendingPathComponent(arch.rawValue)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try link(clang: clang, linker: linker, arch: arch, name: "\(arch.rawValue)/TacoShop")
    }

    /// The arm64 executable re-signed by the test signer with both entitlements blobs.
    static func signed(xml: Bool = true, der: Bool = true) throws -> [UInt8] {
        try TestSigner.sign(
            try linked(.arm64), identifier: bundleID, team: team, entitlements: entitlements, xml: xml, der: der)
    }

    /// Writes bytes to a file in the fixture directory and returns its path.
    static func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// A universal file of the signed arm64 image and the linker-signed x86_64 image, made by
    /// `llvm-lipo`; with `fat64`, its header rewritten as `FAT_MAGIC_64` (`llvm-lipo-14` has no `-fat64`).
    static func universal(fat64: Bool = false) throws -> [UInt8] {
        guard let lipo = FixtureTools.lipo else { throw FixtureTools.Failed(description: "no llvm-lipo") }
        let unique = UUID().uuidString
        let arm = try write(try signed(), "arm64-\(unique)")
        let intel = try write(try linked(.x86_64), "x86_64-\(unique)")
        let output = directory.appendingPathComponent("fat-\(unique)")
        try FixtureTools.run(lipo, ["-create", arm.path, intel.path, "-output", output.path])
        let bytes = [UInt8](try Data(contentsOf: output))
        return fat64 ? try widen(bytes) : bytes
    }

    /// Rewrites a `FAT_MAGIC` header (20-byte `fat_arch` entries) as `FAT_MAGIC_64` (32-byte
    /// `fat_arch_64`), leaving the slices where they are.
    static func widen(_ bytes: [UInt8]) throws -> [UInt8] {
        func be(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[at + $1]) } }
        let count = Int(be(4))
        var header = TestSigner.be32(0xcafe_babf) + TestSigner.be32(UInt32(count))
        for index in 0..<count {
            let entry = 8 + index * 20
            header += TestSigner.be32(be(entry)) + TestSigner.be32(be(entry + 4))
            header += TestSigner.be32(0) + TestSigner.be32(be(entry + 8))  // offset, 64-bit
            header += TestSigner.be32(0) + TestSigner.be32(be(entry + 12))  // size, 64-bit
            header += TestSigner.be32(be(entry + 16)) + TestSigner.be32(0)  // align, reserved
        }
        guard header.count <= Int(be(16)) else { throw FixtureTools.Failed(description: "no room for a wide header") }
        var wide = bytes
        wide.replaceSubrange(0..<header.count, with: header)
        return wide
    }
}
