/// A relation of a Digital Asset Links statement, `kind/detail`
/// (`delegate_permission/common.handle_all_urls`; asset-links.md §1.1, DAL-S3).
///
/// Both halves match `^[a-z0-9_.]+$`, the rule AOSP's `Relation.java` enforces and Google's
/// compatibility suite expects (2106–2125); unknown kinds and details are valid.
///
/// ```swift
/// let relation = try AssetLinksRelation.parse("delegate_permission/common.get_login_creds").get()
/// relation == .getLoginCreds  // true
/// ```
package struct AssetLinksRelation: Sendable, Hashable, CustomStringConvertible {
    /// The part before the slash (`delegate_permission`).
    package let kind: String
    /// The part after the slash (`common.handle_all_urls`).
    package let detail: String

    /// Why a relation string was refused; the descriptions are the words of Google's API.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not exactly one `/`.
        case notKindSlashDetail
        /// The kind is empty or has a character outside `[a-z0-9_.]`.
        case invalidKind
        /// The detail is empty or has a character outside `[a-z0-9_.]`.
        case invalidDetail

        package var description: String {
            switch self {
            case .notKindSlashDetail: "Invalid relation string (not kind/detail)"
            case .invalidKind: "Invalid 'kind' field in relation string (lower-case letters, digits, '_' and '.')"
            case .invalidDetail: "Invalid 'detail' field in relation string (lower-case letters, digits, '_' and '.')"
            }
        }
    }

    private init(kind: String, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// App Links: the app may open the site's URLs (also required for passkeys, DAL-Q4).
    package static let handleAllURLs = AssetLinksRelation(kind: "delegate_permission", detail: "common.handle_all_urls")
    /// Credential sharing: the target may use the source's sign-in credentials.
    package static let getLoginCreds = AssetLinksRelation(kind: "delegate_permission", detail: "common.get_login_creds")

    /// Parses `kind/detail`. Longer than 256 bytes is refused as not a relation.
    package static func parse(_ text: String) -> Result<AssetLinksRelation, Problem> {
        guard text.utf8.count <= 256 else { return .failure(.notKindSlashDetail) }
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .failure(.notKindSlashDetail) }
        guard isRelationPart(parts[0]) else { return .failure(.invalidKind) }
        guard isRelationPart(parts[1]) else { return .failure(.invalidDetail) }
        return .success(
            AssetLinksRelation(
                kind: String(decoding: parts[0], as: UTF8.self),
                detail: String(decoding: parts[1], as: UTF8.self)))
    }

    /// `^[a-z0-9_.]+$`.
    private static func isRelationPart(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_")
                    || $0 == UInt8(ascii: ".")
            }
    }

    /// `kind/detail`.
    package var description: String { "\(kind)/\(detail)" }
}
