// swift-tools-version:6.1
// Release-mode benchmark of the keychain store (seal, open, one write at 1k/10k/100k items; KDF
// per preset). A nested package, so that users of swcred never get it: its source folders are
// relative symlinks to the root package's store modules. Run `Tools/bench-store/run`.
import PackageDescription

let package = Package(
    name: "bench-store",
    platforms: [.macOS(.v14)],
    targets: [
        .systemLibrary(name: "CSWCredSodium", path: "Sources/CSWCredSodium", pkgConfig: "libsodium"),
        .target(name: "CSWCredSys", path: "Sources/CSWCredSys"),
        .target(name: "SWCredCore", path: "Sources/SWCredCore"),
        .target(name: "SWCredSodium", dependencies: ["CSWCredSodium", "SWCredCore"], path: "Sources/SWCredSodium"),
        .target(
            name: "SWCredStore", dependencies: ["SWCredCore", "SWCredSodium", "CSWCredSys"], path: "Sources/SWCredStore",
            // So that the benchmark can time the codec and the AEAD apart (`@testable import`).
            swiftSettings: [.unsafeFlags(["-enable-testing"])]
        ),
        .executableTarget(
            name: "BenchStore", dependencies: ["SWCredStore", "SWCredSodium", "SWCredCore"], path: "Sources/BenchStore"
        ),
    ]
)

for target in package.targets where target.type != .system && target.name != "CSWCredSys" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
