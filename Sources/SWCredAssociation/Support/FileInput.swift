package import SWCredCore
internal import FoundationEssentials

/// Reads input files with a size cap applied while reading, never buffering more than the cap + 1.
package enum FileInput {
    /// Reads at most `maximumBytes` bytes of `path`.
    ///
    /// - Throws: `.fileNotFound` (exit 66) when the file is missing or unreadable (including a
    ///   directory), `tooLarge` when the file has more than `maximumBytes` bytes.
    package static func read(path: String, maximumBytes: Int, tooLarge: SWCredError.Code) throws(SWCredError) -> [UInt8]
    {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SWCredError(.fileNotFound, "no such file: \(path)")
        }
        guard !isDirectory else { throw SWCredError(.fileNotFound, "not a file: \(path)") }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, upTo: maximumBytes + 1)
        } catch {
            switch error.step {
            case .open: throw SWCredError(.fileNotFound, "cannot read \(path)")
            case .read: throw SWCredError(.fileNotFound, "cannot read \(path): \(error.foundationDescription)")
            }
        }
        guard bytes.count <= maximumBytes else {
            throw SWCredError(tooLarge, "\(path) is larger than \(maximumBytes) bytes")
        }
        return bytes
    }
}
