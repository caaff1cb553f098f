/// A service named in an associated-domains entry or an association file (AD-2.2, AD-3.1).
///
/// Compared case-insensitively; the stored `rawValue` is lowercased.
public struct AssociationService: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The lowercased service name.
    public let rawValue: String

    /// Creates a service from its name, lowercased.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// Shared Web Credentials and password AutoFill.
    public static let webcredentials = Self(rawValue: "webcredentials")
    /// Universal links.
    public static let applinks = Self(rawValue: "applinks")
    /// Handoff.
    public static let activitycontinuation = Self(rawValue: "activitycontinuation")
    /// App Clips (never wildcards).
    public static let appclips = Self(rawValue: "appclips")
    /// Single sign-on extensions: accepted and recorded, no behaviour in swcred.
    public static let authsrv = Self(rawValue: "authsrv")

    /// The services swcred knows (AD-2.2 step 2).
    package static let known: [Self] = [.webcredentials, .applinks, .activitycontinuation, .appclips, .authsrv]

    /// Whether this is one of ``known``.
    package var isKnown: Bool { Self.known.contains(self) }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The `?mode=` tokens of an entry (AD-2.2 step 5).
public struct AssociationModes: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `developer`: fetched directly, only on a device in developer mode with a development-signed app.
    public static let developer = Self(rawValue: 1)
    /// `managed`: fetched directly, only on an MDM-managed device that allows it for the app.
    public static let managed = Self(rawValue: 2)

    /// The token names in a fixed order (`developer`, `managed`), for output.
    package var names: [String] {
        var names: [String] = []
        if contains(.developer) { names.append("developer") }
        if contains(.managed) { names.append("managed") }
        return names
    }
}
