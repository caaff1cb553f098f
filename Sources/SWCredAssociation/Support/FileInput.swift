package import SWCredCore
internal import Foundation

/// Reads input files with a size cap applied while reading, never buffering more than the cap + 1.
package enum FileInput {
    /// Reads at most `maximumBytes` bytes of `path`.
    ///
    /// - Throws: `.fileNotFound` (exit 66) when the file is missing or unreadable (including a
    ///   directory), `tooLarge` when the file has more than `maximumBytes` bytes.
    package static func read(path: String, maximumBytes: Int, tooLarge: SWCredError.Code) throws(SWCredError) -> [UInt8]
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SWCredError(.fileNotFound, "no such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw SWCredError(.fileNotFound, "not a file: \(path)") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SWCredError(.fileNotFound, "cannot read \(path)")
        }
        defer { try? handle.close() }
        let data: Data?
        do {
            data = try handle.read(upToCount: maximumBytes + 1)
        } catch {
            throw SWCredError(.fileNotFound, "cannot read \(path): \(error.localizedDescription)")
        }
        let bytes = [UInt8](data ?? Data())
        guard bytes.count <= maximumBytes else {
            throw SWCredError(tooLarge, "\(path) is larger than \(maximumBytes) bytes")
        }
        return bytes
    }
}
