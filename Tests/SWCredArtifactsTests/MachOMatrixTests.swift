import SWCredArtifacts
import SWCredCore
import Testing

/// Hostile input: every truncation and every out-of-range offset, length and count of a valid
/// signed fixture is refused with `malformedArtifact`, and no byte change traps.
@Suite("MachOFile refuses damaged files with a named error")
struct MachOMatrixTests {
    static let malformed = SWCredError(.malformedArtifact, "")

    @Test(
        "every truncation of a signed thin file",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func everyTruncation() throws {
        let bytes = try Fixtures.signed()
        _ = try MachOFile.read(bytes)
        for length in 0..<bytes.count {
            #expect(throws: Self.malformed, "\(length) bytes") { try MachOFile.read(Array(bytes[..<length])) }
        }
    }

    @Test(
        "every truncation of a universal file, in steps",
        .enabled(if: FixtureTools.canLipo, "llvm-lipo-14 or the linker is not installed"))
    func universalTruncations() throws {
        let bytes = try Fixtures.universal()
        _ = try MachOFile.read(bytes)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: Self.malformed, "\(length) bytes") { try MachOFile.read(Array(bytes[..<length])) }
        }
    }

    /// A 32-bit field of the fixture and the values that put it out of range.
    struct Field: CustomStringConvertible {
        let description: String
        let offset: Int
        let bigEndian: Bool
        let values: [UInt32]
    }

    /// Every offset, length and count field of the signed fixture, found by walking it as the
    /// format says (load commands little-endian, the signature big-endian).
    static func fields(_ bytes: [UInt8]) -> [Field] {
        func le(_ at: Int) -> Int { Int(TestSigner.le32(bytes, at)) }
        func be(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        let huge: [UInt32] = [0xffff_ffff, 0x8000_0000, 0x7fff_ffff]
        var fields = [
            Field(description: "ncmds", offset: 16, bigEndian: false, values: huge),
            Field(description: "sizeofcmds", offset: 20, bigEndian: false, values: huge + [UInt32(bytes.count)]),
        ]
        var offset = 32
        var signature = 0
        for index in 0..<le(16) {
            fields.append(
                Field(description: "cmdsize \(index)", offset: offset + 4, bigEndian: false, values: huge + [0, 3]))
            if le(offset) == 0x1d {
                signature = le(offset + 8)
                fields.append(
                    Field(
                        description: "dataoff", offset: offset + 8, bigEndian: false,
                        values: huge + [UInt32(bytes.count)]))
                fields.append(
                    Field(
                        description: "datasize", offset: offset + 12, bigEndian: false,
                        values: huge + [UInt32(bytes.count)]))
            }
            offset += le(offset + 4)
        }
        fields.append(
            Field(description: "SuperBlob length", offset: signature + 4, bigEndian: true, values: huge + [4]))
        fields.append(
            Field(description: "SuperBlob count", offset: signature + 8, bigEndian: true, values: huge + [100]))
        let superLength = UInt32(be(signature + 4))
        for index in 0..<be(signature + 8) {
            let entry = signature + 12 + index * 8
            fields.append(
                Field(
                    description: "blob \(index) offset", offset: entry + 4, bigEndian: true,
                    values: huge + [superLength, superLength - 4]))
            let blob = signature + be(entry + 4)
            fields.append(
                Field(
                    description: "blob \(index) length", offset: blob + 4, bigEndian: true,
                    values: huge + [superLength, 4]))
            if be(entry) == 0 {
                let cdLength = UInt32(be(blob + 4))
                fields += [
                    Field(
                        description: "hashOffset", offset: blob + 16, bigEndian: true,
                        values: huge + [cdLength + 1, 0]),
                    Field(description: "identOffset", offset: blob + 20, bigEndian: true, values: huge + [cdLength]),
                    Field(description: "nSpecialSlots", offset: blob + 24, bigEndian: true, values: huge + [1_000]),
                    Field(description: "nCodeSlots", offset: blob + 28, bigEndian: true, values: huge + [1_000]),
                    Field(
                        description: "codeLimit", offset: blob + 32, bigEndian: true,
                        values: huge + [UInt32(bytes.count + 1)]),
                    Field(description: "teamOffset", offset: blob + 48, bigEndian: true, values: huge + [cdLength]),
                ]
            }
        }
        return fields
    }

    @Test(
        "every offset, length and count set out of range",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func outOfRange() throws {
        let bytes = try Fixtures.signed()
        let fields = Self.fields(bytes)
        #expect(fields.count > 25)
        for field in fields {
            for value in field.values {
                var damaged = bytes
                for index in 0..<4 {
                    let shift = field.bigEndian ? 24 - 8 * index : 8 * index
                    damaged[field.offset + index] = UInt8(truncatingIfNeeded: value >> shift)
                }
                #expect(throws: Self.malformed, "\(field) = 0x\(String(value, radix: 16))") {
                    try MachOFile.read(damaged)
                }
            }
        }
    }

    @Test(
        "every byte of the headers and the signature changed: a result or malformedArtifact, never a trap",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func everyByte() throws {
        let bytes = try Fixtures.signed()
        let signature = try #require(try MachOFile.read(bytes).slices.first?.signatureRange)
        let positions = Array(0..<1_024) + Array(signature)
        for position in positions {
            for value: UInt8 in [0x00, 0xff, bytes[position] ^ 0x01] {
                var damaged = bytes
                damaged[position] = value
                do {
                    _ = try MachOFile.read(damaged)
                } catch {
                    #expect(error.code == .malformedArtifact)
                }
            }
        }
    }
}
