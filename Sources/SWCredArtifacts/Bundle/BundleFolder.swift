#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names a bundle's folder holds (`PlugIns`, `AppClips`), read with `opendir`/`readdir`.
enum BundleFolder {
    /// The entries of the folder at `path`, without `.` and `..`; empty when it cannot be read.
    /// At most `limit` names are returned (a folder of nested bundles is small).
    static func names(in path: String, limit: Int = 4_096) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
