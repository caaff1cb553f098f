// swift-tools-version:6.1
import PackageDescription

// An app team's test package, as issue 29 tried it: it depends on swcred by path and imports only
// swcred's products. `Tools/consumer-check/run` builds it with warnings as errors and runs it (CI).
//
// A path dependency's package identity is the name of its folder, not the `name:` in its manifest:
// a clone in `swcred/` is `swcred`, a worktree in `wt-api/` is `wt-api`. So that the products below
// resolve wherever swcred is checked out, the identity is read from the folder here; a package of
// your own would write `package: "swcred"` (or the folder's name) directly (README.md).
let swcredFolder = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "swcred"

func swcred(_ product: String) -> Target.Dependency {
    .product(name: product, package: swcredFolder)
}

let package = Package(
    name: "consumer-check",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        // Passwords: the light products only (no SwiftNIO, no swift-crypto; `run` checks it).
        .testTarget(
            name: "LoginFlowTests",
            dependencies: [
                swcred("SWCredKit"), swcred("SWCredTesting"), swcred("SWCredSecurity"), swcred("SWCredPasswords"),
            ]
        ),
        // Passkeys: SWCredPasskeyTesting brings swift-crypto (P-256).
        .testTarget(name: "PasskeyFlowTests", dependencies: [swcred("SWCredPasskeyTesting")]),
    ]
)

for target in package.targets {
    target.swiftSettings = [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
