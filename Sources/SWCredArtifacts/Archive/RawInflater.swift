import CSWCredZlib
import SWCredCore

/// zlib's raw inflate (no zlib or gzip wrapper, as zip stores method 8) into a buffer of the size
/// the central directory declares, and zlib's CRC-32.
///
/// The output buffer is allocated once, one byte longer than declared, so a stream that inflates
/// to more than it declares is caught without growing anything; the stream is always ended
/// (`inflateEnd`), on every path.
enum RawInflater {
    /// The `declared` bytes `input` inflates to, refusing a corrupt stream, one that does not end
    /// within `input`, bytes after its end, and output longer or shorter than declared.
    static func inflate(_ input: ByteWindow, declared: Int, entry name: String) throws(SWCredError) -> [UInt8] {
        guard declared >= 0, declared < Int.max, let inputCount = UInt32(exactly: input.count) else {
            throw SWCredError(.malformedArtifact, "\(name): its sizes are out of range")
        }
        guard inputCount > 0 else {
            throw SWCredError(.malformedArtifact, "\(name): its deflate stream is empty (truncated)")
        }
        let capacity = declared + 1
        guard let outputCount = UInt32(exactly: capacity) else {
            throw SWCredError(.malformedArtifact, "\(name) declares \(declared) bytes, too many to inflate")
        }
        var output = [UInt8](repeating: 0, count: capacity)
        var stream = z_stream()
        let start = cswcred_inflate_init_raw(&stream)
        guard start == Z_OK else {
            throw SWCredError(
                .internalError,
                "zlib could not start inflating \(name) (status \(start))")
        }
        defer { inflateEnd(&stream) }
        let status: Int32 = input.bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return Z_BUF_ERROR }
                stream.next_in = UnsafeMutablePointer(mutating: from + input.start)
                stream.avail_in = inputCount
                stream.next_out = to
                stream.avail_out = outputCount
                let status = CSWCredZlib.inflate(&stream, Z_FINISH)
                // zlib's pointers must not outlive the buffers they point into.
                stream.next_in = nil
                stream.next_out = nil
                return status
            }
        }
        let produced = capacity - Int(stream.avail_out)
        switch status {
        case Z_STREAM_END:
            guard produced <= declared else {
                throw SWCredError(.malformedArtifact, "\(name) inflates to more than the \(declared) bytes it declares")
            }
            guard produced == declared else {
                throw SWCredError(
                    .malformedArtifact, "\(name) inflates to \(produced) bytes, not the \(declared) it declares")
            }
            guard stream.avail_in == 0 else {
                throw SWCredError(
                    .malformedArtifact, "\(name) has \(stream.avail_in) bytes after the end of its deflate stream")
            }
            output.removeLast()
            return output
        case Z_BUF_ERROR, Z_OK:
            if stream.avail_out == 0 {
                throw SWCredError(.malformedArtifact, "\(name) inflates to more than the \(declared) bytes it declares")
            }
            throw SWCredError(.malformedArtifact, "\(name): its deflate stream does not end (truncated)")
        case Z_MEM_ERROR:
            throw SWCredError(.internalError, "zlib ran out of memory inflating \(name)")
        default:
            throw SWCredError(.malformedArtifact, "\(name): its deflate stream is corrupt (zlib status \(status))")
        }
    }

    /// The CRC-32 of a window's bytes, as zip records it (zlib's `crc32_z`).
    static func crc32(_ window: ByteWindow) -> UInt32 {
        window.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, window.count > 0 else { return 0 }
            return UInt32(truncatingIfNeeded: crc32_z(0, base + window.start, z_size_t(window.count)))
        }
    }

    /// The CRC-32 of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 { crc32(ByteWindow(bytes, name: "")) }
}
