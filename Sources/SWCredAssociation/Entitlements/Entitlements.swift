public import SWCredCore

/// The entitlements of an app that matter to associated domains, read from an `.entitlements`
/// file: an XML plist, a binary plist or a JSON object.
///
/// Keys read: `application-identifier`, `com.apple.developer.associated-domains`,
/// `get-task-allow` (development-signed) and `com.apple.developer.web-browser` (AD-6.6).
public struct Entitlements: Sendable, Hashable {
    /// Size and depth limits for entitlements files.
    public struct Limits: Sendable, Hashable {
        /// The largest file accepted, in bytes (default 1 MiB). Checked before parsing.
        public var maximumBytes: Int = 1 << 20
        /// The deepest nesting of arrays and dictionaries accepted (default 32), checked by the
        /// plist and JSON readers before each descent.
        public var maximumDepth: Int = 32
        /// The default limits.
        public init() {}
    }

    /// The `application-identifier` value, if present and a string.
    public var applicationIdentifier: String?
    /// Every entry of `com.apple.developer.associated-domains`, in file order. Empty when the
    /// entitlement is absent or not an array of strings (AD-2.1).
    public var entries: [EntitlementEntry]
    /// Why the associated-domains entitlement was treated as absent (AD-2.1), if it was.
    public var associatedDomainsProblem: String?
    /// `get-task-allow` is `true`: the app is development-signed.
    public var developmentSigned: Bool
    /// `com.apple.developer.web-browser` is `true`: applinks are unavailable (AD-6.6).
    public var webBrowser: Bool

    /// Creates entitlements from values.
    package init(
        applicationIdentifier: String?, associatedDomains: [String], developmentSigned: Bool = false,
        webBrowser: Bool = false
    ) {
        self.applicationIdentifier = applicationIdentifier
        self.entries = associatedDomains.map(EntitlementEntry.parse)
        self.associatedDomainsProblem = nil
        self.developmentSigned = developmentSigned
        self.webBrowser = webBrowser
    }

    /// Reads and parses an entitlements file.
    ///
    /// - Throws: `SWCredError` `.fileNotFound` (exit 66) when unreadable, `.malformedEntitlements`
    ///   (exit 65) when not a plist or JSON object, or over the limits.
    public static func load(path: String, limits: Limits = .init()) throws(SWCredError) -> Entitlements {
        let bytes = try FileInput.read(
            path: path, maximumBytes: limits.maximumBytes,
            tooLarge: .malformedEntitlements)
        return try parse(bytes, limits: limits)
    }

    /// Parses entitlements from bytes: binary plist (`bplist00`), JSON object (`{`), or XML plist.
    ///
    /// - Throws: `SWCredError.Code.malformedEntitlements` (exit 65).
    public static func parse(_ bytes: [UInt8], limits: Limits = .init()) throws(SWCredError) -> Entitlements {
        guard bytes.count <= limits.maximumBytes else {
            throw SWCredError(
                .malformedEntitlements, "the entitlements file is larger than \(limits.maximumBytes) bytes")
        }
        let root: PlistValue
        if let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") {
            do {
                let reader = JSONReader(limits: .depthOnly(limits.maximumDepth), duplicateKeys: .report)
                root = PlistValue(json: try reader.read(bytes).value)
            } catch {
                throw SWCredError(.malformedEntitlements, "the entitlements file is not valid JSON: \(error)")
            }
        } else {
            root = PlistValue(propertyList: try propertyList(bytes, limits: limits))
        }
        guard case .dictionary(let dictionary) = root else {
            throw SWCredError(.malformedEntitlements, "the entitlements file's top level is not a dictionary")
        }
        return from(dictionary: dictionary)
    }

    /// Entitlements from a property-list dictionary already read by another reader: a code
    /// signature's XML or DER entitlements blob (SWCredArtifacts), so that a signed binary gives
    /// the same value the source file does.
    package static func from(propertyList: PropertyListDictionary) -> Entitlements {
        // Keys are distinct: both readers refuse a repeated key.
        var dictionary: [String: PlistValue] = [:]
        for entry in propertyList.entries { dictionary[entry.key] = PlistValue(propertyList: entry.value) }
        return from(dictionary: dictionary)
    }

    static func from(dictionary: [String: PlistValue]) -> Entitlements {
        var result = Entitlements(applicationIdentifier: nil, associatedDomains: [])
        if case .string(let appID) = dictionary["application-identifier"] { result.applicationIdentifier = appID }
        if case .bool(true) = dictionary["get-task-allow"] { result.developmentSigned = true }
        if case .bool(true) = dictionary["com.apple.developer.web-browser"] { result.webBrowser = true }
        switch dictionary["com.apple.developer.associated-domains"] {
        case nil:
            break
        case .array(let elements)?:
            // AD-2.1: any non-string element makes the whole entitlement absent.
            var strings: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let string) = element else {
                    result.associatedDomainsProblem =
                        "com.apple.developer.associated-domains[\(index)] is "
                        + "\(element.typeName), not a string; the whole entitlement is ignored"
                    strings = []
                    break
                }
                strings.append(string)
            }
            result.entries = strings.map(EntitlementEntry.parse)
        case let other?:
            result.associatedDomainsProblem =
                "com.apple.developer.associated-domains is \(other.typeName), "
                + "not an array of strings; the whole entitlement is ignored"
        }
        return result
    }

    /// An XML or binary property list through SWCredCore's own ``PropertyListReader`` (issue 28:
    /// no decoder the project does not own sees the file's bytes).
    private static func propertyList(_ bytes: [UInt8], limits: Limits) throws(SWCredError) -> PropertyListValue {
        let reader = PropertyListReader(
            limits: PropertyListReader.Limits(maxBytes: limits.maximumBytes, maxDepth: limits.maximumDepth))
        do {
            return try reader.read(bytes)
        } catch {
            let format = PropertyListReader.format(of: bytes) == .binary ? "binary" : "XML"
            throw SWCredError(
                .malformedEntitlements, "the entitlements file is not a valid \(format) property list: \(error)")
        }
    }
}

/// A property-list value reduced to what entitlements need.
enum PlistValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case array([PlistValue])
    case dictionary([String: PlistValue])
    case other(String)

    var typeName: String {
        switch self {
        case .string: "a string"
        case .bool: "a Boolean"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .other(let name): name
        }
    }

    init(json: JSONValue) {
        switch json {
        case .string(let s): self = .string(s)
        case .bool(let b): self = .bool(b)
        case .array(let a): self = .array(a.map(PlistValue.init(json:)))
        case .object(let o):
            var d: [String: PlistValue] = [:]
            for member in o.effectiveMembers { d[member.key] = PlistValue(json: member.value) }
            self = .dictionary(d)
        case .number: self = .other("a number")
        case .null: self = .other("null")
        }
    }

    /// The value reduced: strings, Booleans and containers kept, other types named.
    init(propertyList: PropertyListValue) {
        switch propertyList {
        case .string(let s): self = .string(s)
        case .bool(let b): self = .bool(b)
        case .array(let a): self = .array(a.map(PlistValue.init(propertyList:)))
        case .dictionary(let d):
            // Keys are distinct: the reader refuses a repeated key.
            var dictionary: [String: PlistValue] = [:]
            for entry in d.entries { dictionary[entry.key] = PlistValue(propertyList: entry.value) }
            self = .dictionary(dictionary)
        case .integer, .unsignedInteger, .real, .date, .data, .uid: self = .other(propertyList.typeName)
        }
    }
}

extension Entitlements {
    /// Diagnostics about the entitlement as a whole: an ignored entitlement (AD-2.1) and more than
    /// 30 entries (AD-2.7, a warning only; there is no hard limit).
    package var fileDiagnostics: [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let problem = associatedDomainsProblem { diagnostics.append(.error(problem, id: "SWC107")) }
        if entries.count > 30 {
            diagnostics.append(
                .warning(
                    "\(entries.count) associated domains; limit this list to no more than about 20 to 30 domains",
                    id: "SWC104"))
        }
        return diagnostics
    }
}
