package import SWCredCore

/// The line sources of a bulk run (``BulkMatcher``): a URL list or a sitemap, behind one face.
package protocol LinkListReading {
    /// The next entry, or `nil` at the end of the input.
    mutating func next() throws(SWCredError) -> LinkListEntry?
}

extension URLListReader: LinkListReading {}
extension SitemapReader: LinkListReading {}
