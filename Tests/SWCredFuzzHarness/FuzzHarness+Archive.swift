import SWCredArtifacts
import SWCredCore

extension FuzzHarness {
    /// The limits the `ipa` and `profile` targets read under: small, so that the fuzzer reaches each.
    static let archiveLimits: ArtifactLimits = {
        var limits = machOLimits
        limits.maximumInfoPlistBytes = 1 << 16
        limits.maximumArchiveEntries = 64
        limits.maximumNestedBundles = 4
        // Deflated entries (issue 31): at most 4 MiB inflated from one archive.
        limits.maximumArchiveReadBytes = 4 << 20
        return limits
    }()

    /// Bytes as an `.ipa` (issue 31): the zip central directory, the one `Payload/*.app`, its
    /// Info.plist, executable, embedded profile and nested bundles, then the APP-n checks.
    ///
    /// Promises: no trap; a refusal is `malformedArtifact`; an accepted archive names its app under
    /// `Payload/`; the nested bundles respect the limits; the checks give only known ids, and never
    /// a finding without a message.
    public static func ipa(_ bytes: [UInt8]) -> [String] {
        let archive: AppArchive
        do {
            archive = try AppArchive.read(bytes, limits: archiveLimits)
        } catch {
            return error.code == .malformedArtifact ? [] : ["unexpected \(error.code.name): \(error.message)"]
        }
        var problems: [String] = []
        if !archive.appPath.hasPrefix("Payload/") || !archive.appPath.hasSuffix(".app") {
            problems.append("an app outside Payload/: \(archive.appPath)")
        }
        var count = 0
        var queue = archive.app.nested
        while let bundle = queue.popLast() {
            count += 1
            queue += bundle.nested
        }
        if count > archiveLimits.maximumNestedBundles { problems.append("\(count) nested bundles were read") }
        for finding in SignedAppCheck.evaluate(.ipa(archive), source: nil, now: 800_000_000) {
            if finding.message.isEmpty { problems.append("\(finding.id) without a message") }
        }
        _ = ArtifactReport(.ipa(archive))
        return problems
    }

    /// Bytes as a provisioning profile (CMS SignedData, DER or BER, around a property list).
    ///
    /// Promises: no trap; a refusal is `malformedArtifact`; an accepted profile's device count is
    /// not negative and its kind agrees with it (an App Store profile lists no device).
    public static func profile(_ bytes: [UInt8]) -> [String] {
        let profile: ProvisioningProfile
        do {
            profile = try ProvisioningProfile.read(bytes, limits: archiveLimits)
        } catch {
            return error.code == .malformedArtifact ? [] : ["unexpected \(error.code.name): \(error.message)"]
        }
        var problems: [String] = []
        if profile.deviceCount < 0 { problems.append("a negative device count") }
        if profile.kind == .appStore, profile.deviceCount > 0 { problems.append("an App Store profile with devices") }
        _ = ArtifactReport(.profile(profile))
        return problems
    }
}
