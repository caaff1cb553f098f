package import FoundationEssentials
package import SWCredCore

/// What an import does when an item with a row's key already exists, in the store or earlier in
/// the same file (cli.md `--on-conflict`).
package enum ImportConflictPolicy: String, Sendable, CaseIterable, Hashable {
    /// Fail with `duplicateItem` (45); nothing is written.
    case fail
    /// Keep the existing item; the row counts as `skipped`.
    case skip
    /// Replace the existing item's password; the row counts as `updated`.
    case update
}

/// The counts of an import (cli.md JSON `rows`, `added`, `updated`, `skipped`, `unchanged`).
/// `added + updated + skipped + unchanged == rows`.
package struct ImportSummary: Sendable, Hashable, Codable {
    /// Data rows read.
    package var rows: Int
    /// New items.
    package var added = 0
    /// Existing items whose password was replaced (`--on-conflict update`).
    package var updated = 0
    /// Rows not imported: not a login, not a web URL, or a conflict under `--on-conflict skip`.
    package var skipped = 0
    /// Rows whose item already exists with the same password.
    package var unchanged = 0

    /// Counts for `rows` rows, nothing done yet.
    package init(rows: Int) { self.rows = rows }
}

extension CredentialFile {
    /// The item a credential becomes: the attributes `swcred add` (the browser path) and the Shared
    /// Web Credentials layer write, so `request`, `show` and `list` find imported items: server =
    /// host, port, protocol, authentication type `form`, label `host (account)`, comment `default`,
    /// creator `swca`, access group `com.apple.cfnetwork`, synchronizable.
    package static func item(for credential: ImportedCredential, secret: [UInt8]?) -> InternetPasswordItem {
        .websitePassword(
            server: credential.site.host, account: credential.account, port: credential.site.port,
            protocolCode: credential.site.protocolCode, secret: secret)
    }

    /// Adds every credential to `contents` (inside one store transaction, or on a copy for a dry run).
    ///
    /// A row whose key exists (in the store, or from an earlier row of the file) with the same
    /// password is `unchanged`, whatever the policy: importing one file twice changes nothing. With
    /// a different password it is a conflict, decided by `policy`.
    ///
    /// **Decision:** a row for a server the device owner chose never to save passwords for (a
    /// "Passwords not saved" entry, ``StoreContents/passwordsAreNeverSaved(for:)``) is `skipped`:
    /// the same rule as `swcred add` and Safari's own save, whatever the policy.
    ///
    /// - Throws: `duplicateItem` (45) on a conflict under `fail`, naming the row's line and host;
    ///   `limitExceeded` (27) when the store would hold too many items; `invalidParameter` from
    ///   the store's own checks. `contents` may be partly changed on error: run this inside a
    ///   transaction (which then writes nothing) or on a copy.
    package func apply(
        to contents: inout StoreContents, onConflict policy: ImportConflictPolicy, at date: Date
    ) throws(SWCredError) -> ImportSummary {
        var summary = ImportSummary(rows: rows)
        summary.skipped = skipped.count
        var firstLine: [ItemKey: Int] = [:]
        for credential in credentials {
            // The store's model keeps secrets as [UInt8]; this copy becomes the item's (the store
            // wipes its own buffers when it seals the file).
            let secret = withPassword(of: credential) { [UInt8]($0) }
            let item = Self.item(for: credential, secret: secret)
            if contents.passwordsAreNeverSaved(for: item.server) {
                summary.skipped += 1
                continue
            }
            let key = item.key
            if let existing = contents.item(forKey: key) {
                if existing.secret == item.secret && !existing.isNegative {
                    summary.unchanged += 1
                    continue
                }
                switch policy {
                case .fail:
                    let origin = firstLine[key].map { "line \($0) of the file" } ?? "the store"
                    throw SWCredError(
                        .duplicateItem,
                        "line \(credential.line): an item for \(Self.display(credential.site)) and this user name is already in \(origin) with another password (--on-conflict skip or update)"
                    )
                case .skip:
                    summary.skipped += 1
                case .update:
                    try contents.update(matching: ItemQuery(key: key), with: ItemUpdate(secret: secret), at: date)
                    summary.updated += 1
                }
                continue
            }
            try contents.add(item, at: date)
            firstLine[key] = credential.line
            summary.added += 1
        }
        return summary
    }

    private static func display(_ site: ImportedSite) -> String {
        HostPort.format(host: site.host, port: Int(site.port))
    }
}
