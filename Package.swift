// swift-tools-version:6.1
import PackageDescription

// Module map (each module's imports tell its place):
//   SWCredCore         the shared error type, the one strict JSON reader and the rule book (swcred explain);
//                      no dependencies
//   CSWCredSodium      system libsodium (pkg-config); imported only by SWCredSodium
//   CSWCredZlib        system zlib (pkg-config); imported only by SWCredArtifacts (raw inflate of `.ipa`
//                      entries), so only `swcred-fetch` links it
//   CSWCredSys         prctl / renameat2 wrappers that Glibc hides from Swift
//   SWCredSodium       the thin Swift layer over libsodium (secure bytes, Argon2id, XChaCha20-Poly1305, random)
//   SWCredAssociation  entitlements, AASA files, applinks matching, trust, lint; no crypto, no network
//   SWCredPasswords    legacy / strong passwords and Apple's Password Rules language
//   SWCredStore        the encrypted keychain file
//   SWCredRetrieval    AASA retrieval's rules, reports and sources, without network code
//   SWCredRetrievalLive  the HTTPS fetcher (async-http-client, SwiftNIO, BoringSSL), installed by
//                      programs that fetch (LiveRetrieval.installHTTPS())
//   SWCredDaemon       the emulated association daemon: per (service, app, domain) records and rechecks
//   SWCredKit          the Shared Web Credentials API (no network: live retrieval is injected by the CLI)
//   SWCredSecurity     Apple-source-compatible names (SecAddSharedWebCredential, kSecAttrServer, ...)
//   SWCredTesting      an in-memory keychain and a prompt recorder for users' tests
//   SWCredPasskeys     passkeys (WebAuthn) through the webcredentials association; P-256 via swift-crypto
//   SWCredPasskeyTesting  an in-memory passkey keychain and passkey ceremonies for users' tests
//   SWCredArtifacts    signed artifacts: Mach-O files, code signatures, DER entitlements, .app, .ipa (stored or
//                      deflated), provisioning profiles, the APP-n checks (swift-asn1; swift-crypto for
//                      the CodeDirectory's hashes; zlib for inflate and CRC-32)
//   SWCredCLI          the command-line tool's commands (Sources/swcred), run by two executables; it reads
//                      signed artifacts only through SignedApps, a reader a program installs
//   SWCredArtifactsCLI the reader SWCredCLI's SignedApps uses (ArtifactAppReader.install()), over SWCredArtifacts
//   swcred             every command, no network code, no artifact readers; hands the commands that fetch
//                      or read a signed app (--app PATH, entitlements PATH on an artifact) to
//   swcred-fetch       the same commands with SWCredRetrievalLive and SWCredArtifactsCLI installed
let package = Package(
    name: "swcred",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "swcred", targets: ["swcred"]),
        .executable(name: "swcred-fetch", targets: ["swcred-fetch"]),
        .library(name: "SWCredAssociation", targets: ["SWCredAssociation"]),
        .library(name: "SWCredStore", targets: ["SWCredStore"]),
        .library(name: "SWCredPasswords", targets: ["SWCredPasswords"]),
        .library(name: "SWCredRetrieval", targets: ["SWCredRetrieval", "SWCredRetrievalLive"]),
        .library(name: "SWCredKit", targets: ["SWCredKit"]),
        .library(name: "SWCredSecurity", targets: ["SWCredSecurity"]),
        .library(name: "SWCredTesting", targets: ["SWCredTesting"]),
        .library(name: "SWCredPasskeys", targets: ["SWCredPasskeys"]),
        .library(name: "SWCredPasskeyTesting", targets: ["SWCredPasskeyTesting"]),
        .library(name: "SWCredArtifacts", targets: ["SWCredArtifacts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Documentation only (`swift package generate-documentation`); nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: C modules
        .systemLibrary(
            name: "CSWCredSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .systemLibrary(
            name: "CSWCredZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "CSWCredSys"),

        // MARK: Library
        .target(name: "SWCredCore"),
        .target(name: "SWCredSodium", dependencies: ["CSWCredSodium", "SWCredCore"]),
        .target(name: "SWCredAssociation", dependencies: ["SWCredCore"]),
        .target(name: "SWCredPasswords", dependencies: ["SWCredCore", "SWCredSodium"]),
        .target(name: "SWCredStore", dependencies: ["SWCredCore", "SWCredSodium", "CSWCredSys"]),
        .target(name: "SWCredRetrieval", dependencies: ["SWCredCore", "SWCredAssociation"]),
        .target(
            name: "SWCredRetrievalLive",
            dependencies: [
                "SWCredCore",
                "SWCredAssociation",
                "SWCredRetrieval",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        .target(name: "SWCredDaemon", dependencies: ["SWCredCore", "SWCredAssociation", "SWCredStore"]),
        .target(
            name: "SWCredKit",
            dependencies: ["SWCredCore", "SWCredAssociation", "SWCredPasswords", "SWCredStore", "SWCredDaemon"]
        ),
        .target(name: "SWCredSecurity", dependencies: ["SWCredKit", "SWCredCore"]),
        .target(name: "SWCredTesting", dependencies: ["SWCredKit", "SWCredCore", "SWCredStore"]),
        // Passkeys (issue 14): P-256 needs swift-crypto, so it stays out of SWCredKit and SWCredTesting.
        .target(
            name: "SWCredPasskeys",
            dependencies: [
                // SWCredAssociation: an Android app's passkeys are gated by assetlinks.json (DAL-Q4).
                "SWCredCore", "SWCredSodium", "SWCredStore", "SWCredKit", "SWCredAssociation",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SWCredPasskeyTesting",
            dependencies: [
                "SWCredPasskeys", "SWCredKit", "SWCredCore", "SWCredSodium", "SWCredStore",
                // The one prompt recorder (PasskeyPromptRecorder is SWCPromptRecorder); light: Kit and Store.
                "SWCredTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Signed artifacts (issue 31): the Mach-O and code-signature reader. swift-asn1 reads the DER
        // entitlements; swift-crypto hashes what the CodeDirectory seals (SHA-1, SHA-256, SHA-384);
        // zlib inflates deflated `.ipa` entries and checks every entry's CRC-32.
        .target(
            name: "SWCredArtifacts",
            dependencies: [
                "SWCredCore", "SWCredAssociation", "CSWCredZlib",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: Command
        // The commands live in Sources/swcred as a library target, run by two executables (issue
        // 22): `swcred` links no network code, so the commands that never fetch do not load,
        // relocate and register SwiftNIO, BoringSSL and async-http-client at every start; it hands
        // the command lines that fetch to `swcred-fetch`, found beside it.
        .target(
            name: "SWCredCLI",
            dependencies: [
                "SWCredCore", "SWCredAssociation", "SWCredPasswords", "SWCredStore", "SWCredRetrieval", "SWCredDaemon",
                "SWCredKit", "SWCredSodium",
                "SWCredPasskeys",
                // Signed artifacts (issue 31) are read through `SignedApps`, installed by
                // `swcred-fetch` (SWCredArtifactsCLI): SWCredArtifacts and swift-asn1 are not linked
                // into `swcred`, so a command that reads none does not pay for them at start.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/swcred"
        ),
        .target(
            name: "SWCredArtifactsCLI",
            dependencies: ["SWCredCLI", "SWCredArtifacts", "SWCredAssociation", "SWCredCore"]
        ),
        .executableTarget(name: "swcred", dependencies: ["SWCredCLI"], path: "Sources/swcredMain"),
        .executableTarget(
            name: "swcred-fetch",
            dependencies: ["SWCredCLI", "SWCredRetrieval", "SWCredRetrievalLive", "SWCredArtifactsCLI"]),

        // MARK: Tests
        // A real HTTPS server on 127.0.0.1 with a CA made at test time; used by tests only, in no product.
        .target(
            name: "SWCredTLSTestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/SWCredTLSTestServer"
        ),
        // What each fuzz target does with one input; FuzzTesting/ links the same source (symlink).
        .target(
            name: "SWCredFuzzHarness",
            dependencies: ["SWCredAssociation", "SWCredPasswords", "SWCredStore", "SWCredCore",
                           "SWCredPasskeys", "SWCredArtifacts"],
            path: "Tests/SWCredFuzzHarness"
        ),
        .testTarget(name: "SWCredFuzzRegressionTests", dependencies: ["SWCredFuzzHarness"]),
        // Support/plist_oracle.py: Python plistlib as the property-list reader's independent oracle.
        .testTarget(name: "SWCredCoreTests", dependencies: ["SWCredCore"], exclude: ["Support/plist_oracle.py"]),
        .testTarget(
            name: "SWCredAssociationTests",
            dependencies: ["SWCredAssociation", "SWCredCore"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "SWCredDaemonTests", dependencies: ["SWCredDaemon", "SWCredStore", "SWCredAssociation", "SWCredCore"]),
        .testTarget(name: "SWCredStoreTests", dependencies: ["SWCredStore", "SWCredSodium", "SWCredCore"]),
        .testTarget(name: "SWCredPasswordsTests", dependencies: ["SWCredPasswords", "SWCredCore"]),
        .testTarget(
            name: "SWCredRetrievalTests",
            dependencies: [
                "SWCredRetrieval", "SWCredRetrievalLive", "SWCredAssociation", "SWCredCore", "SWCredTLSTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        .testTarget(
            name: "SWCredKitTests",
            dependencies: [
                "SWCredKit", "SWCredSecurity", "SWCredTesting", "SWCredAssociation", "SWCredCore", "SWCredStore",
            ]
        ),
        // The dependency graph against the import graph (reads the manifest through `swift package`).
        .testTarget(name: "PackageTests"),
        .testTarget(
            name: "SWCredPasskeysTests",
            dependencies: [
                "SWCredPasskeys", "SWCredPasskeyTesting", "SWCredKit", "SWCredStore", "SWCredCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Support/verify_webauthn.py"]
        ),
        // Mach-O fixtures linked at test time (clang, ld64.lld-14, llvm-lipo-14) and checked by LIEF
        // (Support/macho_lief.py); each test skips where its tool is missing.
        .testTarget(
            name: "SWCredArtifactsTests",
            dependencies: [
                "SWCredArtifacts", "SWCredAssociation", "SWCredCore",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Support/macho_lief.py"]
        ),
        .testTarget(
            name: "swcredTests",
            dependencies: [
                // SWCredStore and SWCredSodium: to read back, through the library, the private
                // keys a process stored, and look for them in what it printed (T10 for passkeys).
                "SWCredTLSTestServer", "SWCredStore", "SWCredSodium",
                // The in-process tests of the command's own types (`@testable import SWCredCLI`),
                // with HTTPS retrieval installed as in `swcred-fetch` (`LiveRetrieval.installHTTPS()`).
                "SWCredCLI", "SWCredCore", "SWCredRetrieval", "SWCredRetrievalLive",
                // The signed-artifact reader installed as in `swcred-fetch` (`ArtifactAppReader.install()`).
                "SWCredArtifactsCLI",
                // Parsing command lines in process to check which ones hand off (issue 28).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The two executables the spawned-process tests run, built with the tests.
                "swcred", "swcred-fetch",
            ]
        ),
    ]
)

// Upcoming language features for every Swift target (as apple/swift-log does).
for target in package.targets where target.type != .system && target.name != "CSWCredSys" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
