import Glibc
import SWCredCore
import Testing

/// Issue 22: ``LargeBuffer/prepare(_:)`` backs a large buffer in one call before it is written,
/// instead of one page fault per 4 KiB page, and never changes its bytes.
@Suite("LargeBuffer: memory advice for whole-store buffers")
struct LargeBufferTests {
    /// Minor page faults of the calling thread so far.
    static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (a _GNU_SOURCE name Swift does not import)
        return usage.ru_minflt
    }

    /// A fresh anonymous mapping of `count` bytes (never touched), unmapped by `body`'s end.
    static func withFreshMapping(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) throws {
        let raw = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let base = try #require(raw == MAP_FAILED ? nil : raw)
        defer { munmap(base, count) }
        body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// Whether this kernel knows `MADV_POPULATE_WRITE` (Linux 5.14 and later).
    static var kernelPopulates: Bool {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let raw = mmap(nil, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            raw != MAP_FAILED
        else { return false }
        defer { munmap(raw, page) }
        return madvise(raw, page, 23) == 0
    }

    @Test(
        "A prepared 8 MB buffer is written with a fraction of the faults of an unprepared one",
        .enabled(if: kernelPopulates, "the kernel has no MADV_POPULATE_WRITE (Linux < 5.14)"))
    func fewerFaults() throws {
        let count = 8 << 20
        var plain = 0
        var prepared = 0
        try Self.withFreshMapping(count) { buffer in
            let before = Self.minorFaults()
            for offset in stride(from: 0, to: count, by: 4096) { buffer[offset] = 1 }
            plain = Self.minorFaults() - before
        }
        try Self.withFreshMapping(count) { buffer in
            let before = Self.minorFaults()
            LargeBuffer.prepare(buffer)
            for offset in stride(from: 0, to: count, by: 4096) { buffer[offset] = 1 }
            prepared = Self.minorFaults() - before
        }
        // With transparent huge pages set to `always`, the plain mapping gets huge pages too and
        // there is nothing to compare; with `madvise` or `never` (Debian's default and CI's) it
        // faults once per page.
        guard plain >= count / 4096 / 2 else { return }
        #expect(prepared < plain / 4, "prepared: \(prepared) faults, plain: \(plain)")
    }

    @Test("Preparing never changes a buffer's bytes, large or small")
    func bytesUnchanged() {
        for count in [0, 100, LargeBuffer.threshold - 1, LargeBuffer.threshold, 3 << 20] {
            var bytes = [UInt8](repeating: 0, count: count)
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
            let copy = bytes
            bytes.withUnsafeMutableBytes { LargeBuffer.prepare($0) }
            #expect(bytes == copy)
        }
    }
}
