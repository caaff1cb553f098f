public import SWCredAssociation

/// One finding of ``SignedAppCheck`` on a signed app: an id of the rule book (`APP-1`…),
/// `swcred explain APP-n` prints what Apple does and how to fix it.
///
/// The set of kinds is closed: `verify --app` prints each as `{"id","severity","message"}`, and
/// an error makes its verdict not trusted. Messages name identifiers only (app IDs, team IDs,
/// bundle IDs, domains), never a device, a certificate, a person or a team name.
public struct SignedAppFinding: Sendable, Hashable {
    /// What was found; the raw value is the printed id.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The source entitlements and the signed ones differ (`--entitlements` beside `--app`).
        case sourceDrift = "APP-1"
        /// The signed app has no usable associated-domains entitlement.
        case noSignedDomains = "APP-2"
        /// The profile does not allow the signed associated domains.
        case domainsNotAllowed = "APP-3"
        /// The profile does not allow the signed application identifier.
        case appIDNotAllowed = "APP-4"
        /// `CFBundleIdentifier`, the CodeDirectory's identifier and the app ID's bundle part differ.
        case identityMismatch = "APP-5"
        /// The CodeDirectory's team, the signed team identifier and the profile's team differ.
        case teamMismatch = "APP-6"
        /// The App ID prefix is not the Team ID: the files must list the prefix form.
        case appIDPrefixNotTeam = "APP-7"
        /// `?mode=developer` entries in a distribution-signed app.
        case developerModeInDistribution = "APP-8"
        /// The profile has expired or is not valid yet.
        case profileDates = "APP-9"
        /// The profile belongs to a personal team, which cannot use Associated Domains.
        case personalTeam = "APP-10"
        /// A signed value that a signing tool should have expanded (`$(…)`, `*`).
        case unexpandedValue = "APP-11"
        /// The XML and DER entitlements blobs hold different entitlements.
        case blobsDisagree = "APP-12"
        /// The entitlements are not sealed by the CodeDirectory, or the executable is not signed.
        case notSealed = "APP-13"
        /// No embedded profile: the allowlist, the team and the dates cannot be checked.
        case noProfile = "APP-14"
    }

    /// What was found.
    public var kind: Kind
    /// How serious it is: an error is a reason the device would not use the association.
    public var severity: DiagnosticSeverity
    /// One sentence or two for a person.
    public var message: String

    /// The printed id (`APP-3`).
    public var id: String { kind.rawValue }

    /// Creates a finding.
    public init(_ kind: Kind, _ severity: DiagnosticSeverity, _ message: String) {
        self.kind = kind
        self.severity = severity
        self.message = message
    }

    /// The finding as the one diagnostic type (`id` set).
    public var diagnostic: Diagnostic { Diagnostic(severity, message, id: id) }
}
