import SWCredCore

/// One image of a Mach-O file: a thin file's only image or one slice of a universal file.
public struct MachOSlice: Sendable, Hashable {
    /// The architecture's usual name: `arm64`, `arm64e`, `x86_64`, `arm64_32`, `armv7`, `i386`,
    /// or `cpu-0x…` for another CPU type.
    public var architecture: String
    /// `cputype` from the Mach-O header.
    public var cpuType: UInt32
    /// `cpusubtype` from the Mach-O header, capability bits removed.
    public var cpuSubtype: UInt32
    /// Where the slice starts in the file (0 for a thin file).
    public var fileOffset: Int
    /// The slice's size in bytes.
    public var size: Int
    /// `LC_CODE_SIGNATURE`'s `dataoff` and `datasize`, relative to the slice, when the slice has one.
    public var signatureRange: Range<Int>?
    /// The code signature, when the slice has `LC_CODE_SIGNATURE`.
    public var signature: CodeSignature?

    /// `mach_header(_64)` then `ncmds` load commands in `sizeofcmds` bytes, little-endian.
    static func read(
        _ slice: ByteWindow, index: Int, expectedCPU: UInt32?, limits: ArtifactLimits
    ) throws(SWCredError) -> MachOSlice {
        let magic = try slice.uint32(at: 0, bigEndian: false, "the Mach-O magic number")
        let headerSize: Int
        switch magic {
        case MachOConstants.magic64: headerSize = 32
        case MachOConstants.magic32: headerSize = 28
        case MachOConstants.fatMagic.byteSwapped, MachOConstants.fatMagic64.byteSwapped, MachOConstants.fatMagic,
            MachOConstants.fatMagic64:
            throw SWCredError(.malformedArtifact, "\(slice.name): a universal file inside a universal file")
        case MachOConstants.magic64.byteSwapped, MachOConstants.magic32.byteSwapped:
            throw SWCredError(
                .malformedArtifact, "\(slice.name): a big-endian Mach-O image, which no Apple device runs")
        default:
            throw SWCredError(.malformedArtifact, "\(slice.name): not a Mach-O image (magic 0x\(hex(magic)))")
        }
        let cpuType = try slice.uint32(at: 4, bigEndian: false, "the CPU type")
        let cpuSubtype = try slice.uint32(at: 8, bigEndian: false, "the CPU subtype") & 0x00ff_ffff
        if let expectedCPU, expectedCPU != cpuType {
            throw SWCredError(
                .malformedArtifact,
                "\(slice.name): the universal header says CPU type 0x\(hex(expectedCPU)), the image 0x\(hex(cpuType))")
        }
        let commandCount = try slice.uint32(at: 16, bigEndian: false, "the load command count")
        let commandBytes = try slice.uint32(at: 20, bigEndian: false, "the load commands' size")
        guard commandCount <= limits.maximumLoadCommands else {
            throw SWCredError(
                .malformedArtifact,
                "\(slice.name): \(commandCount) load commands (at most \(limits.maximumLoadCommands) accepted)")
        }
        let commands = try slice.window(at: headerSize, length: commandBytes, name: "\(slice.name)'s load commands")
        let signatureRange = try findCodeSignature(commands, count: Int(commandCount), in: slice)
        var signature: CodeSignature?
        if let signatureRange {
            guard signatureRange.count <= limits.maximumSignatureBytes else {
                throw SWCredError(
                    .malformedArtifact,
                    "\(slice.name): a code signature of \(signatureRange.count) bytes "
                        + "(at most \(limits.maximumSignatureBytes) accepted)")
            }
            let window = try slice.window(
                at: signatureRange.lowerBound, length: signatureRange.count, name: "\(slice.name)'s code signature")
            signature = try CodeSignature.read(window, image: slice, limits: limits)
        }
        return MachOSlice(
            architecture: architectureName(cpuType: cpuType, cpuSubtype: cpuSubtype), cpuType: cpuType,
            cpuSubtype: cpuSubtype, fileOffset: slice.start, size: slice.count, signatureRange: signatureRange,
            signature: signature)
    }

    /// Walks the load commands (`cmd`, `cmdsize`, each inside `sizeofcmds`) for the one
    /// `LC_CODE_SIGNATURE` (`linkedit_data_command`: `dataoff`, `datasize`).
    private static func findCodeSignature(
        _ commands: ByteWindow, count: Int, in slice: ByteWindow
    ) throws(SWCredError) -> Range<Int>? {
        var offset = 0
        var found: Range<Int>?
        for index in 0..<count {
            let command = try commands.uint32(at: offset, bigEndian: false, "load command \(index)")
            let size = try commands.uint32(at: offset + 4, bigEndian: false, "load command \(index)'s size")
            guard size >= 8, size % 4 == 0, let step = Int(exactly: size) else {
                throw SWCredError(.malformedArtifact, "\(slice.name): load command \(index) has size \(size)")
            }
            _ = try commands.check(offset, step, "load command \(index)")
            if command == MachOConstants.loadCodeSignature {
                guard found == nil else {
                    throw SWCredError(.malformedArtifact, "\(slice.name): two LC_CODE_SIGNATURE load commands")
                }
                guard size == 16 else {
                    throw SWCredError(.malformedArtifact, "\(slice.name): LC_CODE_SIGNATURE has size \(size), not 16")
                }
                let dataOffset = try commands.uint32(at: offset + 8, bigEndian: false, "LC_CODE_SIGNATURE's dataoff")
                let dataSize = try commands.uint32(at: offset + 12, bigEndian: false, "LC_CODE_SIGNATURE's datasize")
                let start = Int(dataOffset)
                let length = Int(dataSize)
                _ = try slice.check(start, length, "the code signature LC_CODE_SIGNATURE points to")
                found = start..<(start + length)
            }
            offset += step
        }
        return found
    }

    /// The name `lipo` and Xcode give the CPU type.
    static func architectureName(cpuType: UInt32, cpuSubtype: UInt32) -> String {
        switch cpuType {
        case MachOConstants.cpuTypeARM | MachOConstants.cpuArchABI64: cpuSubtype == 2 ? "arm64e" : "arm64"
        case MachOConstants.cpuTypeARM | MachOConstants.cpuArchABI64_32: "arm64_32"
        case MachOConstants.cpuTypeX86 | MachOConstants.cpuArchABI64: cpuSubtype == 8 ? "x86_64h" : "x86_64"
        case MachOConstants.cpuTypeARM: cpuSubtype == 11 ? "armv7s" : cpuSubtype == 12 ? "armv7k" : "armv7"
        case MachOConstants.cpuTypeX86: "i386"
        default: "cpu-0x\(hex(cpuType))"
        }
    }
}

/// Lowercase hexadecimal, for messages.
func hex<Value: BinaryInteger>(_ value: Value) -> String { String(value, radix: 16) }
