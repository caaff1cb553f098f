import SWCredAssociation
import SWCredCore

extension VerifyCommand {
    /// The largest manifest or strings file read (4 MiB, the XML reader's limit).
    static let maximumManifestBytes = 4 << 20

    /// `--android-manifest FILE [--android-strings FILE]`, read and checked against the
    /// `--android-app` packages; `nil` without a manifest.
    ///
    /// - Throws: `fileNotFound` (66) for a file that cannot be read; `malformedInput` (65) for one
    ///   that is not a manifest or strings file; `usage` (64) when the manifest's package has no
    ///   `--android-app`.
    func readManifest(packages: [String]) throws(SWCredError) -> AndroidManifest? {
        guard let androidManifest else { return nil }
        func read(_ path: String, _ what: String) throws(SWCredError) -> [UInt8] {
            do {
                return try FileBytes.read(path: path, upTo: Self.maximumManifestBytes + 1)
            } catch {
                throw SWCredError(.fileNotFound, "cannot read the \(what) \(path)")
            }
        }
        let manifest = try AndroidManifest.parse(
            read(androidManifest, "manifest"),
            strings: try androidStrings.map { path throws(SWCredError) in
                try read(path, "strings file")
            })
        if let package = manifest.packageName, !packages.contains(package) {
            throw SWCredError(
                .usage,
                "the manifest's package is \(package); give its signing fingerprints with --android-app \(package)=FP")
        }
        return manifest
    }

    /// Text: the manifest's hosts and includes, then one line per finding.
    static func printManifest(_ manifest: AndroidManifestReport, _ console: Console) {
        console.out("")
        console.out(
            "Android manifest\(manifest.package.map { " (\($0))" } ?? ""): verified hosts "
                + (manifest.verifiedHosts.isEmpty ? "none" : manifest.verifiedHosts.joined(separator: ", ")))
        if !manifest.includes.isEmpty {
            console.out("  asset_statements includes \(manifest.includes.joined(separator: ", "))")
        }
        for finding in manifest.findings {
            console.out("  \(finding.severity.rawValue): \(finding.message) (\(finding.rule?.rawValue ?? ""))")
        }
    }
}
