/// Joining and splitting file paths as text, the way the commands have always printed them
/// (Foundation's `NSString` path methods, which `FoundationEssentials` does not have): no
/// standardising, `..` and `.` kept, repeated slashes inside kept.
///
/// ```swift
/// PathText.appending("a.example/x", to: "sites")   // "sites/a.example/x"
/// PathText.appending("x", to: "sites/")            // "sites/x"
/// PathText.deletingLastComponent("dir/s.xml")      // "dir"
/// PathText.deletingLastComponent("s.xml")          // ""
/// PathText.deletingLastComponent("/s.xml")         // "/"
/// ```
package enum PathText {
    /// `base`, then a `/` unless `base` is empty or already ends with one, then `component`;
    /// `base` unchanged when `component` is empty.
    ///
    /// - Parameters:
    ///   - component: The relative path to add (added as is, even with a leading `/`).
    ///   - base: The folder.
    /// - Returns: The joined path.
    package static func appending(_ component: String, to base: String) -> String {
        if component.isEmpty { return base }
        if base.isEmpty { return component }
        if base.utf8.last == UInt8(ascii: "/") { return base + component }
        return base + "/" + component
    }

    /// The folder part of `path`: trailing slashes ignored, the last component and the slashes
    /// before it removed; `"/"` for a component right under the root, `""` when there is no
    /// folder part (a bare name, `..`, or slashes only).
    ///
    /// - Parameter path: A file path.
    /// - Returns: The path without its last component.
    package static func deletingLastComponent(_ path: String) -> String {
        let slash = UInt8(ascii: "/")
        let bytes = Array(path.utf8)
        if bytes == [slash] { return path }
        var end = bytes.count
        while end > 0, bytes[end - 1] == slash { end -= 1 }
        guard end > 0, let lastSlash = bytes[..<end].lastIndex(of: slash) else { return "" }
        var folderEnd = lastSlash
        while folderEnd > 0, bytes[folderEnd - 1] == slash { folderEnd -= 1 }
        if folderEnd == 0 { return "/" }
        return String(decoding: bytes[..<folderEnd], as: UTF8.self)
    }
}
