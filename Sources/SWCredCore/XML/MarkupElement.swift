/// One element of a document read by ``XMLElementReader``: its qualified name as written
/// (`intent-filter`, `android:name` stays prefixed in attributes), its attributes in document
/// order, its child elements, and the character data directly inside it.
package struct MarkupElement: Sendable, Hashable {
    /// The qualified name (`manifest`, `xliff:g`).
    package var name: String
    /// The attributes, `(qualified name, value)`, in document order, references resolved.
    package var attributes: [Attribute]
    /// The child elements, in document order.
    package var children: [MarkupElement]
    /// The character data directly inside (CDATA included), references resolved, children's left out.
    package var text: String

    /// One attribute.
    package struct Attribute: Sendable, Hashable {
        /// The qualified name (`android:autoVerify`).
        package var name: String
        /// The value.
        package var value: String
    }

    /// The value of the attribute with this qualified name.
    package subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The children named `name`.
    package func children(named name: String) -> [MarkupElement] { children.filter { $0.name == name } }
}
