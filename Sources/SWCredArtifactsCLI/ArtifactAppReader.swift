// The glue between the commands (SWCredCLI) and the signed-artifact readers (SWCredArtifacts):
// linked by `swcred-fetch` and the tests, never by `swcred`, which hands a command line that
// reads an artifact to `swcred-fetch` (issue 31; issue 22's start-up budget).
package import SWCredAssociation
package import SWCredCLI
import SWCredArtifacts
import SWCredCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The commands' ``SignedAppReader``: ``SignedArtifact`` read, ``ArtifactReport`` as the
/// `"artifact"` object, ``SignedAppCheck``'s findings as diagnostics.
package struct ArtifactAppReader: SignedAppReader {
    /// The time the profile's dates are checked at, in seconds since 2001-01-01T00:00:00Z.
    package var now: @Sendable () -> Double

    /// A reader on the system's clock, or on `now` (tests).
    package init(now: @escaping @Sendable () -> Double = ArtifactAppReader.systemNow) {
        self.now = now
    }

    /// Makes this reader the commands' (``SignedApps``): what `swcred-fetch` calls at start.
    package static func install() {
        SignedApps.install(ArtifactAppReader())
    }

    package func read(path: String, source: Entitlements?) throws(SWCredError) -> SignedAppReading {
        guard let artifact = try SignedArtifact.load(path: path) else {
            throw SWCredError(
                .malformedArtifact,
                "\(path) is not a signed artifact (a Mach-O executable, an .app folder, an .ipa or a profile)")
        }
        let report = ArtifactReport(artifact)
        let entitlements: Entitlements
        if case .profile(let profile) = artifact {
            // A profile's entitlements are an allowlist: no entries; `artifact.profile` tells what it allows.
            entitlements = Entitlements(
                applicationIdentifier: profile.entitlements.applicationIdentifier, associatedDomains: [],
                developmentSigned: profile.entitlements.developmentSigned)
        } else {
            entitlements =
                artifact.signedEntitlements ?? Entitlements(applicationIdentifier: nil, associatedDomains: [])
        }
        var isApp = true
        if case .profile = artifact { isApp = false }
        return SignedAppReading(
            entitlements: entitlements, isApp: isApp, artifact: report, summary: Self.summary(report),
            findings: SignedAppCheck.evaluate(artifact, source: source, now: now()).map(\.diagnostic))
    }

    /// Text mode: one line for the artifact, one per slice, one for the profile. Never a device
    /// identifier or a name.
    static func summary(_ report: ArtifactReport) -> [String] {
        var lines = ["\(report.kind)\(report.bundleID.map { " \($0)" } ?? "")"]
        for slice in report.slices {
            guard let identifier = slice.identifier else {
                lines.append("  \(slice.arch): not signed")
                continue
            }
            let team = slice.teamID.map { "team \($0)" } ?? "ad hoc"
            let seal = slice.sealed ? "entitlements sealed" : "entitlements NOT sealed by the CodeDirectory"
            lines.append("  \(slice.arch): \(identifier), \(team), \(seal)")
        }
        if let profile = report.profile {
            let domains = profile.associatedDomains.map { $0 == ["*"] ? "*" : $0.joined(separator: " ") } ?? "none"
            lines.append(
                "  profile \(profile.kind), team \(profile.teamID ?? "?"), expires \(profile.expires ?? "?"), "
                    + "\(profile.devices) devices, associated domains allowed: \(domains) (signature not verified)")
        }
        return lines
    }

    /// The system's wall clock in seconds since 2001-01-01T00:00:00Z.
    package static let systemNow: @Sendable () -> Double = {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) - 978_307_200 + Double(time.tv_nsec) / 1e9
    }
}
