public import SWCredCore

/// An `.ipa`: a zip archive holding one app under `Payload/`, read in memory from its central
/// directory (never extracted to paths).
///
/// Entries may be stored (`zip -0`) or deflated (as Xcode writes them); zlib inflates them into
/// buffers bounded by ``ArtifactLimits`` (each entry's declared size, the total read from one
/// archive, the compression ratio), and every entry read has its CRC-32 checked.
///
/// ```swift
/// let ipa = try AppArchive.load(path: "TacoShop.ipa")
/// print(ipa.appPath, ipa.app.bundleIdentifier ?? "?")
/// ```
public struct AppArchive: Sendable, Hashable {
    /// The app's folder in the archive, for example `Payload/TacoShop.app`.
    public var appPath: String
    /// The app, read through the archive's entries.
    public var app: AppBundle

    /// Reads an `.ipa` from bytes.
    ///
    /// - Throws: `SWCredError.Code.malformedArtifact` (exit 65): not a zip archive, a zip64 or
    ///   multi-disk one, an unsafe entry name, not exactly one `Payload/*.app`, an entry the app
    ///   needs that is encrypted, compressed with another method than deflate, over a limit, or
    ///   corrupt (bad stream, wrong size or CRC-32, headers that disagree), or an app that does not
    ///   read (``AppBundle``).
    public static func read(_ bytes: [UInt8], limits: ArtifactLimits = .init()) throws(SWCredError) -> AppArchive {
        guard bytes.count <= limits.maximumFileBytes else {
            throw SWCredError(.malformedArtifact, "the .ipa is larger than \(limits.maximumFileBytes) bytes")
        }
        let archive = try ZipArchive(bytes, limits: limits)
        var apps: Set<String> = []
        for name in archive.names {
            let components = name.split(separator: "/", omittingEmptySubsequences: false)
            if components.count >= 2, components[0] == "Payload", components[1].hasSuffix(".app") {
                apps.insert("Payload/" + components[1])
            }
        }
        guard apps.count == 1, let appPath = apps.first else {
            throw SWCredError(
                .malformedArtifact, "the .ipa holds \(apps.count) apps under Payload/ (exactly one expected)")
        }
        var budget = limits.maximumArchiveReadBytes
        let app = try AppBundle.read(
            limits: limits,
            file: { (relative, maximum) throws(SWCredError) -> [UInt8]? in
                try archive.contents(of: appPath + "/" + relative, maximum: maximum, budget: &budget)
            },
            list: { relative in
                // The first component after "<app>/<relative>/" of every entry below it.
                let folder = appPath + "/" + relative + "/"
                var names: Set<String> = []
                for name in archive.names where name.hasPrefix(folder) {
                    if let first = name.dropFirst(folder.count).split(separator: "/").first {
                        names.insert(String(first))
                    }
                }
                return Array(names)
            })
        return AppArchive(appPath: appPath, app: app)
    }

    /// Reads the `.ipa` at `path`, refusing a file over the limit before reading it.
    ///
    /// - Throws: `.fileNotFound` (exit 66) when unreadable, `.malformedArtifact` (exit 65).
    public static func load(path: String, limits: ArtifactLimits = .init()) throws(SWCredError) -> AppArchive {
        try read(
            try FileInput.read(path: path, maximumBytes: limits.maximumFileBytes, tooLarge: .malformedArtifact),
            limits: limits)
    }
}
