/// One row of `swcred verify`'s `associations`: an iOS entitlement entry's verdict or an Android
/// app's verdict for one host and relation. Encoded as the verdict's own members plus
/// `"platform":"ios"` or `"platform":"android"` (cli.md).
package enum PlatformAssociation: Sendable, Hashable, Encodable {
    /// An entitlement entry of the iOS app (``AssociationVerdict``).
    case ios(AssociationVerdict)
    /// An Android app on one host, for one relation (``AndroidAssociationVerdict``).
    case android(AndroidAssociationVerdict)

    /// The row's verdict: for an Android row, the device's.
    package var trusted: Bool {
        switch self {
        case .ios(let verdict): verdict.trusted
        case .android(let verdict): verdict.trusted
        }
    }

    private enum CodingKeys: String, CodingKey {
        case platform
    }

    package func encode(to encoder: any Encoder) throws {
        let platform: String
        switch self {
        case .ios(let verdict):
            try verdict.encode(to: encoder)
            platform = "ios"
        case .android(let verdict):
            try verdict.encode(to: encoder)
            platform = "android"
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
    }
}
