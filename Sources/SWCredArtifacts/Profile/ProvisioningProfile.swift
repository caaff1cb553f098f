public import SWCredAssociation
import SWCredCore
import SwiftASN1

/// A provisioning profile (`embedded.mobileprovision`, `embedded.provisionprofile`): a CMS
/// SignedData, DER or BER, around an XML property list (TN3125).
///
/// Only what association checks need is kept: the allowed entitlements, the team, the App ID
/// prefixes, the dates, the kind and the number of provisioned devices. The device identifiers,
/// the developer certificates, the profile's and the team's names are read past and never
/// stored, so nothing can print them. The CMS signature is not verified: the content explains
/// what the device would allow, it does not prove who issued it.
public struct ProvisioningProfile: Sendable, Hashable {
    /// How a profile distributes an app, derived from its keys as a device reads them.
    public enum Kind: String, Sendable, Hashable {
        /// `ProvisionedDevices` and `get-task-allow` true.
        case development
        /// `ProvisionedDevices` and no `get-task-allow`.
        case adHoc = "ad-hoc"
        /// `ProvisionsAllDevices` true.
        case enterprise
        /// Neither devices nor all devices.
        case appStore = "app-store"
    }

    /// `UUID`.
    public var uuid: String?
    /// The derived kind.
    public var kind: Kind
    /// The first `TeamIdentifier`.
    public var teamIdentifier: String?
    /// `ApplicationIdentifierPrefix`.
    public var applicationIdentifierPrefixes: [String]
    /// `Platform` (for example `iOS`).
    public var platforms: [String]
    /// `CreationDate`, in seconds since 2001-01-01T00:00:00Z.
    public var creationDate: Double?
    /// `ExpirationDate`, in seconds since 2001-01-01T00:00:00Z.
    public var expirationDate: Double?
    /// How many devices `ProvisionedDevices` lists (their identifiers are not kept).
    public var deviceCount: Int
    /// `Entitlements`: what the profile allows, read as an app's entitlements (wildcards kept as written).
    public var entitlements: Entitlements
    /// The associated domains the profile allows as written: `["*"]` for a wildcard, nil when absent.
    public var allowedAssociatedDomains: [String]?
    /// The `com.apple.developer.team-identifier` the profile's entitlements give.
    public var entitlementsTeamIdentifier: String? = nil
    /// Whether the profile comes from a personal (free) team: `LocalProvision` true, or a team
    /// name ending in "(Personal Team)" (the name itself is not kept). Personal teams cannot use
    /// Associated Domains.
    public var isPersonalTeam: Bool = false

    /// Reads a profile from bytes.
    ///
    /// - Throws: `SWCredError.Code.malformedArtifact` (exit 65) when the bytes are not a CMS
    ///   SignedData with encapsulated content, or the content is not a property-list dictionary.
    public static func read(_ bytes: [UInt8], limits: ArtifactLimits = .init()) throws(SWCredError)
        -> ProvisioningProfile
    {
        guard bytes.count <= limits.maximumInfoPlistBytes else {
            throw SWCredError(.malformedArtifact, "the profile is larger than \(limits.maximumInfoPlistBytes) bytes")
        }
        let content = try encapsulatedContent(bytes)
        let reader = PropertyListReader(
            limits: PropertyListReader.Limits(maxBytes: limits.maximumInfoPlistBytes, maxDepth: limits.maximumDepth))
        let payload: PropertyListDictionary
        do {
            guard case .dictionary(let dictionary) = try reader.read(content) else {
                throw SWCredError(.malformedArtifact, "the profile's content is not a dictionary")
            }
            payload = dictionary
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.malformedArtifact, "the profile's content is not a property list: \(error)")
        }
        return from(payload)
    }

    /// Reads and parses the profile at `path`.
    ///
    /// - Throws: `.fileNotFound` (exit 66) when unreadable, `.malformedArtifact` (exit 65).
    public static func load(path: String, limits: ArtifactLimits = .init()) throws(SWCredError) -> ProvisioningProfile {
        try read(
            try FileInput.read(path: path, maximumBytes: limits.maximumInfoPlistBytes, tooLarge: .malformedArtifact),
            limits: limits)
    }

    /// The payload's keys, each kept only in the reduced form above.
    static func from(_ payload: PropertyListDictionary) -> ProvisioningProfile {
        func strings(_ key: String) -> [String] { payload[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        func date(_ key: String) -> Double? {
            if case .date(let seconds) = payload[key] { return seconds }
            return nil
        }
        let entitlementsDictionary = payload["Entitlements"]?.dictionaryValue ?? PropertyListDictionary()
        let devices = payload["ProvisionedDevices"]?.arrayValue
        let kind: Kind =
            if payload["ProvisionsAllDevices"]?.boolValue == true {
                .enterprise
            } else if devices != nil {
                entitlementsDictionary["get-task-allow"]?.boolValue == true ? .development : .adHoc
            } else {
                .appStore
            }
        var allowed: [String]?
        switch entitlementsDictionary["com.apple.developer.associated-domains"] {
        case .string(let text)?: allowed = [text]
        case .array(let elements)?: allowed = elements.compactMap(\.stringValue)
        default: allowed = nil
        }
        return ProvisioningProfile(
            uuid: payload["UUID"]?.stringValue, kind: kind, teamIdentifier: strings("TeamIdentifier").first,
            applicationIdentifierPrefixes: strings("ApplicationIdentifierPrefix"), platforms: strings("Platform"),
            creationDate: date("CreationDate"), expirationDate: date("ExpirationDate"),
            deviceCount: devices?.count ?? 0,
            entitlements: Entitlements.from(propertyList: entitlementsDictionary), allowedAssociatedDomains: allowed,
            entitlementsTeamIdentifier: entitlementsDictionary["com.apple.developer.team-identifier"]?.stringValue,
            isPersonalTeam: payload["LocalProvision"]?.boolValue == true
                || payload["TeamName"]?.stringValue?.hasSuffix("(Personal Team)") == true)
    }

    /// RFC 5652: `ContentInfo ::= SEQUENCE { contentType id-signedData, [0] EXPLICIT SignedData }`,
    /// `SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo, … }`,
    /// `EncapsulatedContentInfo ::= SEQUENCE { eContentType, [0] EXPLICIT OCTET STRING OPTIONAL }`.
    /// BER (as Apple writes profiles, indefinite lengths and constructed strings included) and DER.
    static func encapsulatedContent(_ bytes: [UInt8]) throws(SWCredError) -> [UInt8] {
        do {
            let root = try BER.parse(bytes)
            let contentInfo = try children(root, .sequence, count: 2...2, "ContentInfo")
            let type = try ASN1ObjectIdentifier(berEncoded: contentInfo[0])
            guard type == signedDataOID else { throw Problem("the content type is \(type), not signed data") }
            let explicit = try children(contentInfo[1], explicitZero, count: 1...1, "ContentInfo's [0]")
            let signedData = try children(explicit[0], .sequence, count: 4...6, "SignedData")
            let encapsulated = try children(signedData[2], .sequence, count: 1...2, "EncapsulatedContentInfo")
            guard encapsulated.count == 2 else {
                throw Problem("the signed data has no content (a detached signature)")
            }
            let wrapper = try children(encapsulated[1], explicitZero, count: 1...1, "eContent's [0]")
            return Array(try ASN1OctetString(berEncoded: wrapper[0]).bytes)
        } catch let problem as Problem {
            throw SWCredError(.malformedArtifact, "the profile is not a CMS signed profile: \(problem.message)")
        } catch {
            throw SWCredError(.malformedArtifact, "the profile is not CMS (DER or BER): \(error)")
        }
    }

    private struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// `1.2.840.113549.1.7.2`.
    private static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    private static let explicitZero = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)

    private static func children(
        _ node: ASN1Node, _ identifier: ASN1Identifier, count: ClosedRange<Int>, _ name: String
    ) throws -> [ASN1Node] {
        guard node.identifier == identifier, case .constructed(let collection) = node.content else {
            throw Problem("\(name) is not the expected \(identifier)")
        }
        let nodes = Array(collection)
        guard count.contains(nodes.count) else { throw Problem("\(name) has \(nodes.count) elements") }
        return nodes
    }
}
