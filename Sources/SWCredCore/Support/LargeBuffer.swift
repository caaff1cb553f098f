#if canImport(Glibc)
import Glibc
#endif

/// Memory advice for a large buffer that is about to be written whole: a store file read into
/// memory, a payload sealed into a new one.
///
/// A fresh allocation of several megabytes is mapped but not backed, and every 4 KiB page of it
/// then faults on its first write: at 100,000 items a store is 14 MB, 3,456 faults, and reading
/// it cost 8.3 ms in a fresh process where the same read into huge pages cost 3.3 ms (issue 22).
/// ``prepare(_:)`` asks the kernel for transparent huge pages over the buffer's page-aligned
/// interior (`MADV_HUGEPAGE`: honoured when transparent huge pages are set to `madvise`, the
/// usual default, or `always`; only whole 2 MB-aligned ranges of the buffer get them) and backs it
/// in one call (`MADV_POPULATE_WRITE`, Linux 5.14) instead of one fault per page. Both are
/// advice: a kernel without them, or with huge pages off, leaves the buffer as it was, and the
/// bytes never change.
package enum LargeBuffer {
    /// Buffers smaller than this are left alone: the advice would cost more than the faults it saves.
    package static let threshold = 256 * 1024

    /// `MADV_POPULATE_WRITE` (Linux's ABI value; older C headers do not name it).
    private static let populateWrite: Int32 = 23

    /// Advises the kernel about `buffer` before it is written (see ``LargeBuffer``).
    package static func prepare(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= threshold, let base = buffer.baseAddress else { return }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        let start = (UInt(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~(page - 1)
        guard end > start, let interior = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(interior, Int(end - start), MADV_HUGEPAGE)
        _ = madvise(interior, Int(end - start), populateWrite)
        #endif
    }
}
