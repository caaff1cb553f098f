/// A bounded, non-recursive reader of the XML that Android resource files use
/// (`AndroidManifest.xml`, `res/values/strings.xml`): UTF-8, an optional `<?xml?>` declaration,
/// comments, processing instructions (skipped), CDATA, the five predefined entities and character
/// references. A `<!DOCTYPE>` is refused (no Android resource has one; no entity is ever
/// expanded), as is a compiled binary XML file (an APK's `AndroidManifest.xml`).
///
/// - Throws: `malformedInput` (exit 65) naming the byte offset: larger than
///   ``Limits/maximumBytes``, deeper than ``Limits/maximumDepth``, more than
///   ``Limits/maximumElements`` elements, not well-formed.
package enum XMLElementReader {
    /// What one read may hold.
    package struct Limits: Sendable, Hashable {
        /// The largest document (4 MiB).
        package var maximumBytes = 4 << 20
        /// The deepest element nesting (64).
        package var maximumDepth = 64
        /// The most elements (100,000).
        package var maximumElements = 100_000
        /// The most attributes on one element (256).
        package var maximumAttributes = 256

        /// The default limits.
        package init() {}
    }

    /// Reads the root element of `bytes`; `what` names the document in errors (`AndroidManifest.xml`).
    package static func read(_ bytes: [UInt8], what: String, limits: Limits = .init()) throws(SWCredError)
        -> MarkupElement
    {
        var scanner = XMLElementScanner(bytes: bytes, what: what, limits: limits)
        return try scanner.document()
    }
}
