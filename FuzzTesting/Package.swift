// swift-tools-version:6.1
// libFuzzer targets for swcred, kept out of the main package so that users never build them.
// Build and run them with Tools/fuzz (release, -sanitize=fuzzer,address, lld).
import Foundation
import PackageDescription

// The harness calls entry points that are `package` in swcred (the reference matcher, the store
// reader, the strict JSON reader), so it joins the swcred package: SwiftPM names a package after
// its identity, the folder of the checkout ("swcred", or a worktree's name), with `_` for any
// character an identifier cannot hold.
let swcredFolder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent
let swcredPackageName = swcredFolder.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()

let targets = [
    "AASA", "Matcher", "Entitlements", "PasswordRules", "StoreReader", "PasskeyOptions", "CredentialImport", "JSON",
    "Plist", "MachO", "WebAuthn", "PublicSuffixList", "AssetLinks", "AndroidManifest", "IPA", "Profile",
]

let package = Package(
    name: "swcred-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "swcred", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        // The same source as the main package's test-only SWCredFuzzHarness (a symlink), so the
        // regression tests replay crash inputs through exactly what the fuzzer ran.
        .target(
            name: "SWCredFuzzHarness",
            dependencies: [
                .product(name: "SWCredAssociation", package: "swcred"),
                .product(name: "SWCredPasswords", package: "swcred"),
                .product(name: "SWCredStore", package: "swcred"),
                .product(name: "SWCredPasskeys", package: "swcred"),
                .product(name: "SWCredArtifacts", package: "swcred"),
            ],
            packageAccess: false,
            swiftSettings: [.unsafeFlags(["-package-name", swcredPackageName])]
        ),
    ] + targets.map { .executableTarget(name: "Fuzz\($0)", dependencies: ["FuzzDriver", "SWCredFuzzHarness"]) }
)
