public import SWCredCore

/// A Mach-O file as a device reads it: one thin image, or a universal (fat) file of several,
/// each slice with its own code signature.
///
/// Read from bytes in memory; nothing is mapped or executed. Every offset, length and count the
/// file gives is checked against its container with overflow-safe arithmetic before it is used,
/// and counts and sizes are capped by ``ArtifactLimits``.
///
/// ```swift
/// let file = try MachOFile.read(bytes)
/// for slice in file.slices {
///     print(slice.architecture, slice.signature?.codeDirectory.identifier ?? "unsigned")
/// }
/// ```
public struct MachOFile: Sendable, Hashable {
    /// Every slice, in file order: one for a thin file.
    public var slices: [MachOSlice]
    /// Whether the file is universal (`FAT_MAGIC` or `FAT_MAGIC_64`), even with one slice.
    public var isUniversal: Bool

    /// Whether `bytes` start like a Mach-O file (thin or universal), without reading further.
    public static func looksLikeMachO(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let window = ByteWindow(bytes, name: "file")
        let little = (try? window.uint32(at: 0, bigEndian: false, "magic")) ?? 0
        let big = (try? window.uint32(at: 0, bigEndian: true, "magic")) ?? 0
        return [MachOConstants.magic64, MachOConstants.magic32].contains(little)
            || [MachOConstants.fatMagic, MachOConstants.fatMagic64].contains(big)
    }

    /// Reads a Mach-O file from bytes.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - limits: size and count limits, checked before anything is walked.
    /// - Returns: every slice with its code signature, if it has one.
    /// - Throws: `SWCredError.Code.malformedArtifact` (exit 65) for anything truncated, out of
    ///   range, over a limit, or not a little-endian Mach-O.
    public static func read(_ bytes: [UInt8], limits: ArtifactLimits = .init()) throws(SWCredError) -> MachOFile {
        guard bytes.count <= limits.maximumFileBytes else {
            throw SWCredError(.malformedArtifact, "the Mach-O file is larger than \(limits.maximumFileBytes) bytes")
        }
        let file = ByteWindow(bytes, name: "Mach-O file")
        let big = try file.uint32(at: 0, bigEndian: true, "the magic number")
        switch big {
        case MachOConstants.fatMagic, MachOConstants.fatMagic64:
            return MachOFile(
                slices: try readUniversal(file, wide: big == MachOConstants.fatMagic64, limits: limits),
                isUniversal: true)
        default:
            return MachOFile(
                slices: [try MachOSlice.read(file, index: 0, expectedCPU: nil, limits: limits)], isUniversal: false)
        }
    }

    /// Reads and parses the Mach-O file at `path`, refusing a file over the limit before reading it.
    ///
    /// - Throws: `SWCredError.Code.fileNotFound` (exit 66) when unreadable, `.malformedArtifact` (exit 65).
    public static func load(path: String, limits: ArtifactLimits = .init()) throws(SWCredError) -> MachOFile {
        let bytes = try FileInput.read(path: path, maximumBytes: limits.maximumFileBytes, tooLarge: .malformedArtifact)
        return try read(bytes, limits: limits)
    }

    /// `fat_header` then `nfat_arch` × `fat_arch` (20 bytes) or `fat_arch_64` (32 bytes), all big-endian.
    private static func readUniversal(
        _ file: ByteWindow, wide: Bool, limits: ArtifactLimits
    ) throws(SWCredError) -> [MachOSlice] {
        let declared = try file.uint32(at: 4, bigEndian: true, "the universal header's slice count")
        // A Java class file starts with the same 0xcafebabe; its version makes a huge count.
        guard declared >= 1, declared <= limits.maximumSlices else {
            throw SWCredError(
                .malformedArtifact,
                "the universal header declares \(declared) slices (1 to \(limits.maximumSlices) accepted)")
        }
        let count = Int(declared)
        let entrySize = wide ? 32 : 20
        var slices: [MachOSlice] = []
        var ranges: [Range<UInt64>] = []
        for index in 0..<count {
            let entry = 8 + index * entrySize
            let cpuType = try file.uint32(at: entry, bigEndian: true, "slice \(index)'s CPU type")
            let offset: UInt64
            let size: UInt64
            if wide {
                offset = try file.uint64(at: entry + 8, bigEndian: true, "slice \(index)'s offset")
                size = try file.uint64(at: entry + 16, bigEndian: true, "slice \(index)'s size")
            } else {
                offset = UInt64(try file.uint32(at: entry + 8, bigEndian: true, "slice \(index)'s offset"))
                size = UInt64(try file.uint32(at: entry + 12, bigEndian: true, "slice \(index)'s size"))
            }
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, offset >= UInt64(8 + count * entrySize) else {
                throw SWCredError(.malformedArtifact, "slice \(index) overlaps the universal header or overflows")
            }
            guard !ranges.contains(where: { $0.overlaps(offset..<end) }) else {
                throw SWCredError(.malformedArtifact, "slice \(index) overlaps another slice")
            }
            ranges.append(offset..<end)
            let window = try file.window(at: offset, length: size, name: "slice \(index)")
            slices.append(try MachOSlice.read(window, index: index, expectedCPU: cpuType, limits: limits))
        }
        return slices
    }
}

/// The constants of `<mach-o/loader.h>`, `<mach-o/fat.h>` and `<mach/machine.h>` that the reader uses.
enum MachOConstants {
    static let magic64: UInt32 = 0xfeed_facf
    static let magic32: UInt32 = 0xfeed_face
    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf
    static let loadCodeSignature: UInt32 = 0x1d
    static let cpuArchABI64: UInt32 = 0x0100_0000
    static let cpuArchABI64_32: UInt32 = 0x0200_0000
    static let cpuTypeARM: UInt32 = 12
    static let cpuTypeX86: UInt32 = 7
}
