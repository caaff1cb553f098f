/// The `"artifact"` object of `swcred entitlements PATH` (cli.md, "Signed artifacts"), with its
/// field names: a library value so that the contract is tested where the data is read.
///
/// Never holds device identifiers, certificate subjects or team names: a profile's devices are a
/// count.
public struct ArtifactReport: Sendable, Hashable, Encodable {
    /// One slice: `{"arch","identifier","teamID","appID","associatedDomains":[…],"sealed":bool}`.
    public struct Slice: Sendable, Hashable, Encodable {
        /// The `lipo` name of the architecture.
        public var arch: String
        /// The CodeDirectory's identifier; null for an unsigned slice.
        public var identifier: String?
        /// The CodeDirectory's team identifier; null for an ad-hoc signature.
        public var teamID: String?
        /// The signed `application-identifier`.
        public var appID: String?
        /// The signed associated domains, as written.
        public var associatedDomains: [String]
        /// The entitlements blobs match the CodeDirectories' hashes (false for an unsigned slice).
        public var sealed: Bool

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(arch, forKey: .arch)
            try container.encode(identifier, forKey: .identifier)
            try container.encode(teamID, forKey: .teamID)
            try container.encode(appID, forKey: .appID)
            try container.encode(associatedDomains, forKey: .associatedDomains)
            try container.encode(sealed, forKey: .sealed)
        }

        private enum CodingKeys: String, CodingKey {
            case arch, identifier, teamID, appID, associatedDomains, sealed
        }
    }

    /// `{"uuid","kind","teamID","appIDPrefixes":[…],"expires","associatedDomains":"*"|[…]|null,"devices":N}`.
    public struct Profile: Sendable, Hashable, Encodable {
        /// `UUID`.
        public var uuid: String?
        /// `development`, `ad-hoc`, `enterprise` or `app-store`.
        public var kind: String
        /// The first `TeamIdentifier`.
        public var teamID: String?
        /// `ApplicationIdentifierPrefix`.
        public var appIDPrefixes: [String]
        /// `ExpirationDate` as `YYYY-MM-DDThh:mm:ssZ`.
        public var expires: String?
        /// The allowed associated domains: `["*"]` is written as the string `"*"`; nil as null.
        public var associatedDomains: [String]?
        /// How many devices the profile provisions.
        public var devices: Int

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uuid, forKey: .uuid)
            try container.encode(kind, forKey: .kind)
            try container.encode(teamID, forKey: .teamID)
            try container.encode(appIDPrefixes, forKey: .appIDPrefixes)
            try container.encode(expires, forKey: .expires)
            if associatedDomains == ["*"] {
                try container.encode("*", forKey: .associatedDomains)
            } else {
                try container.encode(associatedDomains, forKey: .associatedDomains)
            }
            try container.encode(devices, forKey: .devices)
        }

        private enum CodingKeys: String, CodingKey {
            case uuid, kind, teamID, appIDPrefixes, expires, associatedDomains, devices
        }
    }

    /// `macho`, `app`, `ipa` or `profile`; a nested bundle is `appex` or `app`.
    public var kind: String
    /// A nested bundle's path inside its app (`PlugIns/Share.appex`); nil (absent) at the top.
    public var path: String?
    /// `CFBundleIdentifier`, for an app or an `.ipa`.
    public var bundleID: String?
    /// Every slice of the executable.
    public var slices: [Slice]
    /// The profile: the artifact itself, or an app's embedded one.
    public var profile: Profile?
    /// Nested bundles (`PlugIns/*.appex`, `AppClips/*.app`), each in the same shape.
    public var nested: [ArtifactReport]

    /// The report of an artifact.
    public init(_ artifact: SignedArtifact) {
        switch artifact {
        case .machO: kind = "macho"
        case .app: kind = "app"
        case .ipa: kind = "ipa"
        case .profile: kind = "profile"
        }
        path = nil
        bundleID = artifact.bundleIdentifier
        slices = Self.slices(artifact.slices)
        profile = artifact.profile.map(Self.profile)
        nested = artifact.bundle?.nested.map(ArtifactReport.init(nested:)) ?? []
    }

    /// The report of a nested bundle: kind `appex` or `app`, with its path.
    init(nested bundle: AppBundle) {
        kind = bundle.nestedPath.hasSuffix(".appex") ? "appex" : "app"
        path = bundle.nestedPath
        bundleID = bundle.bundleIdentifier
        slices = Self.slices(bundle.executable.slices)
        profile = bundle.embeddedProfile.map(Self.profile)
        nested = bundle.nested.map(ArtifactReport.init(nested:))
    }

    private static func slices(_ slices: [MachOSlice]) -> [Slice] {
        slices.map { slice in
            let signature = slice.signature
            return Slice(
                arch: slice.architecture, identifier: signature?.codeDirectory.identifier,
                teamID: signature?.codeDirectory.teamIdentifier, appID: signature?.applicationIdentifier,
                associatedDomains: signature?.entitlements?.entries.map(\.raw) ?? [],
                sealed: signature?.entitlementsSealed ?? false)
        }
    }

    private static func profile(_ profile: ProvisioningProfile) -> Profile {
        Profile(
            uuid: profile.uuid, kind: profile.kind.rawValue, teamID: profile.teamIdentifier,
            appIDPrefixes: profile.applicationIdentifierPrefixes,
            expires: profile.expirationDate.map(Self.iso8601), associatedDomains: profile.allowedAssociatedDomains,
            devices: profile.deviceCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(path, forKey: .path)
        try container.encode(bundleID, forKey: .bundleID)
        try container.encode(slices, forKey: .slices)
        try container.encode(profile, forKey: .profile)
        try container.encode(nested, forKey: .nested)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, path, bundleID, slices, profile, nested
    }

    /// ``iso8601(_:)`` for tests.
    package static func iso8601ForTesting(_ seconds: Double) -> String { iso8601(seconds) }

    /// Seconds since 2001-01-01T00:00:00Z as `YYYY-MM-DDThh:mm:ssZ` (whole seconds, proleptic
    /// Gregorian calendar), without Foundation.
    static func iso8601(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "invalid" }
        let total = Int((seconds + 978_307_200).rounded(.down))  // to the Unix epoch
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm, in eras of 400 years).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):"
            + "\(two(secondOfDay % 60))Z"
    }
}
