/// One statement of a statement list: relations granted by the list's source to a target
/// (asset-links.md §1.1).
package struct AssetLinksStatement: Sendable, Hashable {
    /// The element's index in its list.
    package let index: Int
    /// The URL of the list it came from (the root list or an include).
    package var origin: String
    /// The relations, in file order.
    package let relations: [AssetLinksRelation]
    /// The target.
    package let target: AssetLinksTarget
    /// Android 15+ dynamic App Link components of `handle_all_urls`, when the statement has them.
    package let dynamicComponents: [AssetLinksDynamicComponent]

    /// Creates a statement.
    package init(
        index: Int, origin: String = "", relations: [AssetLinksRelation], target: AssetLinksTarget,
        dynamicComponents: [AssetLinksDynamicComponent] = []
    ) {
        self.index = index
        self.origin = origin
        self.relations = relations
        self.target = target
        self.dynamicComponents = dynamicComponents
    }
}
