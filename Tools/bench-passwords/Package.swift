// swift-tools-version:6.1
// Release-mode benchmark of the password generators (legacy, strong, classic, rules, counting).
// A nested package, so that users of swcred never get it: its source folders are relative
// symlinks to the root package's modules. Run `Tools/bench-passwords/run`.
import PackageDescription

let package = Package(
    name: "bench-passwords",
    platforms: [.macOS(.v14)],
    targets: [
        .systemLibrary(name: "CSWCredSodium", path: "Sources/CSWCredSodium", pkgConfig: "libsodium"),
        .target(name: "SWCredCore", path: "Sources/SWCredCore"),
        .target(name: "SWCredSodium", dependencies: ["CSWCredSodium", "SWCredCore"], path: "Sources/SWCredSodium"),
        .target(
            name: "SWCredPasswords", dependencies: ["SWCredCore", "SWCredSodium"], path: "Sources/SWCredPasswords"
        ),
        .executableTarget(
            name: "BenchPasswords", dependencies: ["SWCredPasswords", "SWCredCore"], path: "Sources/BenchPasswords"
        ),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
