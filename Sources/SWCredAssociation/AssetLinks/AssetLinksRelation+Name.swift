extension AssetLinksRelation {
    /// The name `verify` prints for the two relations it checks (`handle_all_urls`,
    /// `get_login_creds`, cli.md); the whole `kind/detail` for any other.
    package var shortName: String {
        guard kind == "delegate_permission", detail.hasPrefix("common.") else { return description }
        return String(detail.dropFirst("common.".count))
    }
}
