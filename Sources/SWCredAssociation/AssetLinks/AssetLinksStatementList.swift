package import SWCredCore

/// A parsed Digital Asset Links statement list: an `assetlinks.json` file, an include file, or
/// an app's `asset_statements` (asset-links.md §1.1).
///
/// Parsing uses swcred's one strict JSON reader under limits and keeps, for every element, how
/// each verifier reads it (``AssetLinksElement``). Only a list that cannot be read at all
/// throws; invalid elements are kept as readings with their problem, as both verifiers go on.
///
/// ```swift
/// let list = try AssetLinksStatementList.parse(bytes)
/// list.elements.first?.android  // .statement(…), .include(…), .skipped(…) or .malformed(…)
/// let resolution = await AssetLinksResolver(verifier: .android)
///     .resolve(.body(bytes), source: .web(site), includes: NoAssetLinksIncludes())
/// resolution.check(.handleAllURLs, app: app).linked
/// ```
package struct AssetLinksStatementList: Sendable, Hashable {
    /// Limits applied before and while parsing.
    package struct Limits: Sendable, Hashable {
        /// The largest body read: 1 MiB, the AOSP verifier's `Content-Length` bound (DAL-F3).
        package var maximumBytes: Int = 1 << 20
        /// The deepest JSON nesting (16: a statement needs 4, dynamic components 6).
        package var maximumDepth: Int = 16
        /// The most elements in the list (10,000).
        package var maximumElements: Int = 10_000
        /// The default limits.
        package init() {}
    }

    /// The elements in file order.
    package let elements: [AssetLinksElement]
    /// Keys repeated in one object (the last wins), for lint.
    package let duplicateKeys: [JSONReader.DuplicateKey]
    /// The top-level array as read, for lint.
    package let json: [JSONValue]

    /// Why a body is not a statement list, so that the linter can name the rule.
    package struct Failure: Error, Sendable, Hashable {
        /// The rule: DAL-F3 (size), DAL-F5 (an HTML page), DAL-S1 (not JSON, not an array).
        package let rule: RuleID
        /// The error (`malformedAssetLinks`).
        package let error: SWCredError
    }

    /// Parses a statement list.
    ///
    /// - Throws: `SWCredError.Code.malformedAssetLinks` (exit 65): larger than
    ///   ``Limits/maximumBytes``, not strict JSON (a byte-order mark included), deeper than
    ///   ``Limits/maximumDepth``, a top level that is not an array, more than
    ///   ``Limits/maximumElements`` elements.
    package static func parse(_ bytes: [UInt8], limits: Limits = .init()) throws(SWCredError) -> AssetLinksStatementList
    {
        switch parseReportingRule(bytes, limits: limits) {
        case .success(let list): return list
        case .failure(let failure): throw failure.error
        }
    }

    /// ``parse(_:limits:)``, telling which rule refused the body.
    package static func parseReportingRule(
        _ bytes: [UInt8], limits: Limits = .init()
    ) -> Result<AssetLinksStatementList, Failure> {
        func fail(_ rule: RuleID, _ message: String) -> Result<AssetLinksStatementList, Failure> {
            .failure(Failure(rule: rule, error: SWCredError(.malformedAssetLinks, "\(message) (\(rule.rawValue))")))
        }
        guard bytes.count <= limits.maximumBytes else {
            return fail(.dalF3, "the statement list is \(bytes.count) bytes; the limit is \(limits.maximumBytes)")
        }
        let document: JSONReader.Document
        do {
            let readerLimits = JSONReader.Limits(
                maxBytes: limits.maximumBytes, maxDepth: limits.maximumDepth, maxStringBytes: 64 * 1024,
                maxMembers: limits.maximumElements)
            document = try JSONReader(limits: readerLimits, duplicateKeys: .report).read(bytes)
        } catch {
            if let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") {
                return fail(
                    .dalF5,
                    "the statement list is an HTML page, not JSON: a catch-all rewrite (an SPA's index.html) "
                        + "answers /.well-known/assetlinks.json")
            }
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? " (it starts with a byte-order mark)" : ""
            return fail(.dalS1, "the statement list is not valid JSON\(bom): \(error)")
        }
        guard case .array(let values) = document.value else {
            return fail(
                .dalS1, "the statement list's top level is \(document.value.typeName); expected a single array")
        }
        let elements = values.enumerated().map { index, value in readElement(value, index: index) }
        return .success(
            AssetLinksStatementList(elements: elements, duplicateKeys: document.duplicateKeys, json: values))
    }
}
