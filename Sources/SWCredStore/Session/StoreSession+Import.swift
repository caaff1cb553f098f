internal import FoundationEssentials
package import SWCredCore

extension StoreSession {
    /// Imports `file` in one transaction of the store (created on first write), or with `dryRun`
    /// counts what the import would do on a copy of the contents — an empty store when there is
    /// none — and writes nothing (cli.md `import --dry-run`).
    /// - Throws: as ``CredentialFile/apply(to:onConflict:at:)``; the store's errors.
    package func importing(_ file: CredentialFile, onConflict policy: ImportConflictPolicy, dryRun: Bool)
        throws(SWCredError) -> ImportSummary
    {
        guard dryRun else {
            return try modify(createIfMissing: true) {
                (contents: inout StoreContents, now: Date) throws(SWCredError) -> ImportSummary in
                try file.apply(to: &contents, onConflict: policy, at: now)
            }
        }
        var copy = storeExists ? try read().contents : StoreContents(creationDate: Date())
        return try file.apply(to: &copy, onConflict: policy, at: Date())
    }
}
