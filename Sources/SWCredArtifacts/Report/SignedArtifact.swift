public import SWCredAssociation
public import SWCredCore

/// Any signed artifact a path can name: a Mach-O file, an `.app` folder, an `.ipa` or a
/// provisioning profile, recognised by its name (`.app`, `.ipa`, `.mobileprovision`,
/// `.provisionprofile`), as a folder (an app), or by its first bytes (Mach-O, zip, CMS).
///
/// ```swift
/// if let artifact = try SignedArtifact.load(path: path) {
///     let entitlements = artifact.signedEntitlements      // what the device enforces
///     let report = artifact.report                        // cli.md's "artifact" object
/// } else {
///     let entitlements = try Entitlements.load(path: path)  // a source .entitlements file
/// }
/// ```
public enum SignedArtifact: Sendable, Hashable {
    /// A bare Mach-O executable, thin or universal.
    case machO(MachOFile)
    /// An `.app` folder.
    case app(AppBundle)
    /// An `.ipa` archive.
    case ipa(AppArchive)
    /// An `embedded.mobileprovision` or `embedded.provisionprofile`.
    case profile(ProvisioningProfile)

    /// Reads the artifact at `path`, or returns nil when the path names none (an `.entitlements`
    /// file, for example, or a file that cannot be read: the caller's own reader reports that).
    ///
    /// - Throws: `SWCredError.Code.malformedArtifact` (exit 65) when the path names an artifact
    ///   that does not read, `.fileNotFound` (exit 66) when one of its files cannot be read.
    public static func load(path: String, limits: ArtifactLimits = .init()) throws(SWCredError) -> SignedArtifact? {
        // The one decision, shared with the `swcred` executable's hand-off (SignedArtifactSniff).
        switch SignedArtifactSniff.kind(path: path) {
        case .app?:
            var name = Substring(path)
            while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
            return .app(try AppBundle.load(path: String(name), limits: limits))
        case .ipa?: return .ipa(try AppArchive.load(path: path, limits: limits))
        case .profile?: return .profile(try ProvisioningProfile.load(path: path, limits: limits))
        case .machO?: return .machO(try MachOFile.load(path: path, limits: limits))
        case nil: return nil
        }
    }

    /// The executable's slices (none for a profile).
    public var slices: [MachOSlice] {
        switch self {
        case .machO(let file): file.slices
        case .app(let app): app.executable.slices
        case .ipa(let archive): archive.app.executable.slices
        case .profile: []
        }
    }

    /// The signed entitlements of the first slice that carries any: the value the source file
    /// path gives, read from what the device enforces. Nil for a profile (its entitlements are
    /// an allowlist, ``ProvisioningProfile/entitlements``) and for an unsigned executable.
    public var signedEntitlements: Entitlements? {
        slices.lazy.compactMap { $0.signature?.entitlements }.first
    }

    /// The app bundle of an `.app` or an `.ipa`.
    public var bundle: AppBundle? {
        switch self {
        case .app(let app): app
        case .ipa(let archive): archive.app
        case .machO, .profile: nil
        }
    }

    /// The profile: the artifact itself, or an app's embedded one.
    public var profile: ProvisioningProfile? {
        switch self {
        case .profile(let profile): profile
        case .app(let app): app.embeddedProfile
        case .ipa(let archive): archive.app.embeddedProfile
        case .machO: nil
        }
    }

    /// `CFBundleIdentifier`, for an app or an `.ipa`.
    public var bundleIdentifier: String? {
        switch self {
        case .app(let app): app.bundleIdentifier
        case .ipa(let archive): archive.app.bundleIdentifier
        case .machO, .profile: nil
        }
    }
}
