package import SWCredAssociation
package import SWCredCore
import Synchronization

/// What the commands use of a signed artifact (`--app PATH`, `swcred entitlements PATH`), as
/// values of the light modules: the artifact readers themselves (SWCredArtifacts, swift-asn1)
/// are not linked into `swcred`.
package struct SignedAppReading: Sendable {
    /// The signed entitlements, what the device enforces: the app ID and the associated domains
    /// that `--app` gives, as `--entitlements` gives a source file's. For a profile, its
    /// application identifier and no entries (a profile's domains are an allowlist).
    package var entitlements: Entitlements
    /// Whether the artifact is an app (an executable, an `.app`, an `.ipa`), not a profile alone.
    package var isApp: Bool
    /// cli.md's `"artifact"` object.
    package var artifact: any Encodable & Sendable
    /// The artifact in a few text lines (never a device identifier or a name).
    package var summary: [String]
    /// The artifact checks (`APP-…`, rule-book entries), most serious first; each an error,
    /// a warning or a note.
    package var findings: [Diagnostic]

    /// Creates a reading.
    package init(
        entitlements: Entitlements, isApp: Bool, artifact: any Encodable & Sendable, summary: [String],
        findings: [Diagnostic]
    ) {
        self.entitlements = entitlements
        self.isApp = isApp
        self.artifact = artifact
        self.summary = summary
        self.findings = findings
    }
}

/// Reads signed artifacts for the commands: `SWCredArtifactsCLI`'s reader, installed by the
/// programs that link it (`swcred-fetch`, the tests).
package protocol SignedAppReader: Sendable {
    /// Reads the artifact at `path` and checks it, comparing with `source`, the source
    /// entitlements given beside it (`verify --app … --entitlements …`), when there are any.
    ///
    /// - Throws: `malformedArtifact` (65) when `path` names no artifact or one that does not
    ///   read, `fileNotFound` (66).
    func read(path: String, source: Entitlements?) throws(SWCredError) -> SignedAppReading
}

/// Where the commands find the artifact reader. `swcred` has none and hands a command line that
/// reads an artifact to `swcred-fetch` (``NetworkHandOff``), as it does one that fetches.
package enum SignedApps {
    private static let reader = Mutex<(any SignedAppReader)?>(nil)

    /// Makes `reader` the artifact reader of this program.
    package static func install(_ reader: any SignedAppReader) {
        Self.reader.withLock { $0 = reader }
    }

    /// Whether this program can read signed artifacts.
    package static var isInstalled: Bool { reader.withLock { $0 != nil } }

    /// Reads the artifact at `path` through the installed reader.
    ///
    /// - Throws: `internalError` when this program has no artifact reader; the reader's errors.
    package static func read(path: String, source: Entitlements? = nil) throws(SWCredError) -> SignedAppReading {
        guard let installed = reader.withLock({ $0 }) else {
            throw SWCredError(
                .internalError,
                "this program has no signed-artifact reader linked (SWCredArtifacts): "
                    + "artifacts are read in swcred-fetch")
        }
        return try installed.read(path: path, source: source)
    }
}

/// An artifact's `"artifact"` object in a document the CLI encodes.
struct ArtifactMember: Encodable {
    let artifact: (any Encodable & Sendable)?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        if let artifact { try container.encode(Box(artifact), forKey: .artifact) }
    }

    private enum Key: String, CodingKey { case artifact }

    private struct Box: Encodable {
        let value: any Encodable & Sendable
        init(_ value: any Encodable & Sendable) { self.value = value }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
}
