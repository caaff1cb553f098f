public import SWCredCore

/// A parsed apple-app-site-association file (section 3).
///
/// Parsing keeps the whole JSON tree (for lint and for matching) and the diagnostics met on the
/// way: a skipped byte-order mark, duplicate keys, an unwrapped signed file.
///
/// ```swift
/// let file = try AssociationFile.parse(bytes)
/// file.lists(appID: "ABCDE12345.com.example.app", for: .webcredentials)
/// ```
public struct AssociationFile: Sendable, Hashable {
    /// Limits applied before and while parsing.
    public struct Limits: Sendable, Hashable {
        /// The largest body accepted: 131072 bytes (AD-4.6). Exactly this many is accepted.
        public var maximumBytes: Int = 131_072
        /// The deepest JSON nesting accepted (default 64).
        public var maximumDepth: Int = 64
        /// The default limits.
        public init() {}
    }

    /// The JSON text that was parsed (after removing a BOM or a signature wrapper).
    public let json: [UInt8]
    /// The top-level object.
    package let root: JSONObject
    /// Warnings from parsing (BOM, duplicate keys, signed file).
    public let diagnostics: [Diagnostic]
    /// Duplicate keys met, with their paths, for lint.
    package let duplicateKeys: [JSONReader.DuplicateKey]
    /// Whether the body was a PKCS#7 signed file (AD-3.8).
    public let wasSigned: Bool
    /// Whether a UTF-8 byte-order mark was skipped (AD-3.9).
    public let hadByteOrderMark: Bool
    /// The encoding the body was transcoded from when it was UTF-16 or UTF-32 (AD-3.9, Decision:
    /// read as Apple's JSON reader reads it); `nil` for UTF-8.
    public var transcodedFrom: OtherUnicodeEncoding? = nil

    /// The error message Apple's loader gives for an over-long body (AD-4.6).
    static func tooLargeMessage(_ limit: Int) -> String {
        "Data exceeded maximum length of \(limit) bytes. (NSURLErrorDomain -1103)"
    }

    /// Parses a file body.
    ///
    /// Steps: size cap (AD-4.6); BOM skipped with a warning (AD-3.9, Decision); a PKCS#7 signed
    /// body unwrapped with a "deprecated" warning (AD-3.8, signature not verified); strict JSON
    /// with a depth limit (AD-4.9); the top level must be an object (AD-3.1).
    ///
    /// - Throws: `SWCredError.Code.malformedAASA` (exit 65) with Apple's domain and code in the message.
    public static func parse(_ bytes: [UInt8], limits: Limits = .init()) throws(SWCredError) -> AssociationFile {
        switch parseReportingStep(bytes, limits: limits) {
        case .success(let file): return file
        case .failure(let failure): throw failure.error
        }
    }

    /// Which step of ``parse(_:limits:)`` refused a body, so that the linter can name it by its
    /// id without reading the message.
    struct ParseFailure: Error {
        enum Step { case size, json, topLevel }
        let step: Step
        let error: SWCredError
    }

    /// ``parse(_:limits:)``, telling which step refused the body.
    static func parseReportingStep(_ bytes: [UInt8], limits: Limits) -> Result<AssociationFile, ParseFailure> {
        guard bytes.count <= limits.maximumBytes else {
            return .failure(
                ParseFailure(step: .size, error: SWCredError(.malformedAASA, tooLargeMessage(limits.maximumBytes))))
        }
        var diagnostics: [Diagnostic] = []
        var body = bytes
        var signed = false
        if body.first == 0x30, let content = SignedDataUnwrapper.content(of: body) {
            body = content
            signed = true
            diagnostics.append(
                .warning(
                    "the file is signed (PKCS#7); signing is deprecated and the signature is not checked",
                    rule: .ad3_8, id: "SWC006"))
        }
        var transcodedFrom: OtherUnicodeEncoding?
        if let (encoding, markLength) = otherUnicodeEncoding(of: body) {
            guard let utf8 = transcodeToUTF8(body, from: encoding, markLength: markLength) else {
                return .failure(
                    ParseFailure(
                        step: .json,
                        error: SWCredError(
                            .malformedAASA,
                            "the file starts like \(encoding.rawValue) text but is not valid \(encoding.rawValue) "
                                + "(NSCocoaErrorDomain 3840)")))
            }
            body = utf8
            transcodedFrom = encoding
            diagnostics.append(
                .warning(
                    "the file is \(encoding.rawValue), not UTF-8; it was read as a device reads it, but whether "
                        + "Apple's CDN serves it unchanged is untested", rule: .ad3_9, id: "SWC118"))
        }
        var bom = false
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            body.removeFirst(3)
            bom = true
            diagnostics.append(
                .warning(
                    "the file starts with a UTF-8 byte-order mark, which was skipped", rule: .ad3_9, id: "SWC004"))
        }
        let parsed: JSONReader.Document
        do {
            // The size was checked before unwrapping: only the depth limit is left to the reader.
            parsed = try JSONReader(limits: .depthOnly(limits.maximumDepth), duplicateKeys: .report).read(body)
        } catch {
            return .failure(
                ParseFailure(
                    step: .json,
                    error: SWCredError(
                        .malformedAASA, "the file is not valid JSON: \(error) (NSCocoaErrorDomain 3840)")))
        }
        guard case .object(let root) = parsed.value else {
            return .failure(
                ParseFailure(
                    step: .topLevel,
                    error: SWCredError(
                        .malformedAASA,
                        "the file's top level is \(parsed.value.typeName), not an object (NSCocoaErrorDomain 3840)")))
        }
        for duplicate in parsed.duplicateKeys {
            let at = duplicate.path.isEmpty ? "the top level" : duplicate.path
            diagnostics.append(
                .warning(
                    "key '\(duplicate.key)' appears more than once in \(at); the last one wins", rule: .ad3_9,
                    id: "SWC005"))
        }
        var file = AssociationFile(
            json: body, root: root, diagnostics: diagnostics, duplicateKeys: parsed.duplicateKeys,
            wasSigned: signed, hadByteOrderMark: bom)
        file.transcodedFrom = transcodedFrom
        return .success(file)
    }

    /// The string app IDs of `service.apps` for `webcredentials`, `appclips`,
    /// `activitycontinuation` and other services (AD-3.2); non-string elements are skipped.
    /// `nil` when the section or its `apps` array is missing.
    public func apps(for service: AssociationService) -> [String]? {
        guard let section = root[service.rawValue]?.objectValue,
            let apps = section["apps"]?.arrayValue
        else { return nil }
        return apps.compactMap(\.stringValue)
    }

    /// The `applinks` section, read into details (AD-3.3, AD-3.4), or `nil` when absent or not an object.
    package var applinks: ApplinksSection? {
        guard let object = root["applinks"]?.objectValue else { return nil }
        return ApplinksSection(object)
    }

    /// Whether the file lists `appID` for `service` (AD-6.2): in `apps` for most services, in an
    /// applicable `details` entry for `applinks`. App IDs compare exactly (AD-6.4).
    public func lists(appID: String, for service: AssociationService) -> Bool {
        if service == .applinks {
            return applinks?.details.contains { $0.appIDs.contains(appID) } ?? false
        }
        return apps(for: service)?.contains(appID) ?? false
    }
}

extension AssociationFile: Codable {
    /// Decodes a file stored as its JSON text (re-parsed with default limits).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try AssociationFile.parse(Array(text.utf8))
    }

    /// Encodes the file as its JSON text, so that a stored snapshot re-parses to the same rules.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(decoding: json, as: UTF8.self))
    }
}

/// The `applinks` section: details in evaluation order, defaults, substitution variables.
package struct ApplinksSection: Sendable, Hashable {
    /// One detail entry (AD-3.4).
    package struct Detail: Sendable, Hashable {
        /// Index in `details` (array form) or position in key order (dictionary form).
        package var index: Int
        /// The JSON path of the detail (`applinks.details[0]` or `applinks.details["ID"]`).
        package var path: String
        /// The apps it applies to (AD-3.4).
        package var appIDs: [String]
        /// The detail object.
        package var object: JSONObject
        /// Whether it came from the legacy dictionary form (AD-3.3).
        var legacyDictionary: Bool
    }

    /// The section object.
    package var object: JSONObject
    /// Details in evaluation order: array order, or ascending code-point order of the keys for the
    /// legacy dictionary form (AD-3.3, Decision).
    package var details: [Detail]

    init(_ object: JSONObject) {
        self.object = object
        var details: [Detail] = []
        switch object["details"] {
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                guard let detail = element.objectValue else { continue }
                details.append(
                    Detail(
                        index: index, path: "applinks.details[\(index)]",
                        appIDs: Self.appIDs(of: detail), object: detail, legacyDictionary: false))
            }
        case .object(let dictionary)?:
            let members = dictionary.effectiveMembers.sorted {
                Array($0.key.unicodeScalars.map(\.value))
                    .lexicographicallyPrecedes($1.key.unicodeScalars.map(\.value))
            }
            for (index, member) in members.enumerated() {
                guard let detail = member.value.objectValue else { continue }
                details.append(
                    Detail(
                        index: index, path: JSONPath.child("applinks.details", member.key),
                        appIDs: [member.key], object: detail, legacyDictionary: true))
            }
        default:
            break
        }
        self.details = details
    }

    /// AD-3.4: `appIDs` (string elements) shadows `appID` even when empty or ill-typed.
    static func appIDs(of detail: JSONObject) -> [String] {
        if let appIDs = detail["appIDs"] {
            return appIDs.arrayValue?.compactMap(\.stringValue) ?? []
        }
        if let appID = detail["appID"]?.stringValue { return [appID] }
        return []
    }

    /// The details that apply to `appID`, in evaluation order.
    package func details(for appID: String) -> [Detail] { details.filter { $0.appIDs.contains(appID) } }

    /// Every app ID named by some detail, in evaluation order, without repeats.
    var allAppIDs: [String] {
        var seen = Set<String>()
        return details.flatMap(\.appIDs).filter { seen.insert($0).inserted }
    }
}
