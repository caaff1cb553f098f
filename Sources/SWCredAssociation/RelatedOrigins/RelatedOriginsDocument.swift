package import SWCredCore

/// A parsed `/.well-known/webauthn` file (asset-links.md §2.1, ROR-S1): `{"origins": [...]}`,
/// every entry a string, read with swcred's one strict JSON reader under limits.
///
/// As the spec, Firefox and WebKit do, a document with a non-string entry is refused as a whole
/// (Chrome only fails when its walk reaches the entry). Each entry is kept as written, with its
/// reading as an origin (``RelatedOrigin``) or why it has none.
///
/// ```swift
/// let document = try RelatedOriginsDocument.parse(bytes).get()
/// document.entries.first?.origin  // .success(https://shop.example.de)
/// ```
package struct RelatedOriginsDocument: Sendable, Hashable {
    /// Limits applied before and while parsing.
    package struct Limits: Sendable, Hashable {
        /// The largest body read: 256 KiB, Chrome's `kRpIdMaxBodyBytes` (ROR-F3).
        package var maximumBytes: Int = 1 << 18
        /// The deepest JSON nesting (the document needs 2; other members may nest a little).
        package var maximumDepth: Int = 16
        /// The most entries in `origins`.
        package var maximumEntries: Int = 10_000
        /// The default limits.
        package init() {}
    }

    /// WebKit's body limit (ROR-F3's warning).
    package static let webKitMaximumBytes = 1 << 16

    /// One entry of `origins`.
    package struct Entry: Sendable, Hashable {
        /// Its index in `origins`.
        package let index: Int
        /// The text as written.
        package let text: String
        /// Its origin, or why it has none.
        package let origin: Result<RelatedOrigin, RelatedOrigin.Unusable>

        /// The JSON path (`origins[2]`).
        package var path: String { "origins[\(index)]" }
    }

    /// The entries in file order.
    package let entries: [Entry]
    /// Keys repeated in one object (refused by no client; lint warns).
    package let duplicateKeys: [JSONReader.DuplicateKey]
    /// The body's size in bytes.
    package let byteCount: Int

    /// Why a body is not a related-origins document.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// ROR-F3 (too large) or ROR-S1 (not JSON, not the shape).
        package let rule: RuleID
        /// What is wrong.
        package let message: String
        /// The JSON path of the offending value (`origins[3]`; `""` for the document).
        package let path: String

        /// `message (RULE)`.
        package var description: String { "\(message) (\(rule.rawValue))" }
    }

    /// Reads a document.
    package static func parse(_ bytes: [UInt8], limits: Limits = .init()) -> Result<Self, Failure> {
        guard bytes.count <= limits.maximumBytes else {
            return .failure(
                Failure(
                    rule: .rorF3,
                    message: "the file is \(bytes.count) bytes; clients read at most \(limits.maximumBytes)",
                    path: ""))
        }
        let reader = JSONReader(
            limits: .init(
                maxBytes: limits.maximumBytes, maxDepth: limits.maximumDepth, maxMembers: limits.maximumEntries),
            duplicateKeys: .report)
        let document: JSONReader.Document
        do {
            document = try reader.read(bytes)
        } catch {
            let html = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<")
            let why = html ? "the file is an HTML page, not JSON" : "the file is not strict JSON: \(error)"
            return .failure(Failure(rule: .rorS1, message: why, path: error.path))
        }
        guard let object = document.value.objectValue else {
            return .failure(
                Failure(rule: .rorS1, message: "the top level is \(document.value.typeName), not an object", path: ""))
        }
        guard let originsValue = object["origins"] else {
            return .failure(Failure(rule: .rorS1, message: "the object has no 'origins' member", path: ""))
        }
        guard let values = originsValue.arrayValue else {
            return .failure(
                Failure(rule: .rorS1, message: "'origins' is \(originsValue.typeName), not an array", path: "origins"))
        }
        var entries: [Entry] = []
        entries.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            guard let text = value.stringValue else {
                return .failure(
                    Failure(
                        rule: .rorS1,
                        message: "origins[\(index)] is \(value.typeName), not a string: the spec, Firefox and WebKit "
                            + "refuse the whole file", path: "origins[\(index)]"))
            }
            entries.append(Entry(index: index, text: text, origin: RelatedOrigin.parse(text)))
        }
        return .success(
            RelatedOriginsDocument(entries: entries, duplicateKeys: document.duplicateKeys, byteCount: bytes.count))
    }

    /// Whether `bytes` looks like a `/.well-known/webauthn` file rather than an AASA file: a JSON
    /// object whose members include `origins` and none of AASA's services (`swcred lint` detects
    /// the kind by content).
    package static func looksLikeRelatedOrigins(_ bytes: [UInt8]) -> Bool {
        guard let document = try? JSONReader(limits: .init(maxBytes: 1 << 20, maxDepth: 16), duplicateKeys: .report)
            .read(bytes),
            let object = document.value.objectValue
        else { return false }
        let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
        return object["origins"] != nil && !services.contains { object[$0] != nil }
    }
}
