import Crypto
import Foundation
import SWCredArtifacts
import SWCredAssociation
import SWCredCore
import Testing

/// The Mach-O and code-signature reader on binaries linked and signed at test time.
@Suite("MachOFile reads signed binaries")
struct MachOReaderTests {
    @Test(
        "the linker's own ad-hoc signature: identifier, no team, no entitlements, pages sealed",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func linkerSignature() throws {
        let file = try MachOFile.read(try Fixtures.linked(.arm64))
        #expect(!file.isUniversal)
        let slice = try #require(file.slices.first)
        #expect(slice.architecture == "arm64")
        let signature = try #require(slice.signature)
        #expect(signature.codeDirectory.identifier == "TacoShop")
        #expect(signature.codeDirectory.teamIdentifier == nil)
        #expect(signature.codeDirectory.isAdHoc)
        #expect(signature.codeDirectory.hashType == .sha256)
        #expect(signature.entitlements == nil)
        #expect(signature.entitlementsSealed)
        // lld hashed the pages with its own SHA-256: the reader finds the same hashes where the
        // CodeDirectory says they are.
        #expect(signature.codeSealed)
    }

    @Test(
        "a signature with XML and DER entitlements gives what the source file gives",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func entitlementsBothBlobs() throws {
        let file = try MachOFile.read(try Fixtures.signed())
        let signature = try #require(file.slices.first?.signature)
        #expect(signature.codeDirectory.identifier == Fixtures.bundleID)
        #expect(signature.codeDirectory.teamIdentifier == Fixtures.team)
        #expect(signature.codeDirectory.version == 0x20400)
        #expect(signature.applicationIdentifier == "ABCDE12345.com.example.TacoShop")
        #expect(signature.entitlementsSealed, "\(signature.sealProblems)")
        #expect(signature.codeSealed)
        #expect(signature.blobsDisagree == false)
        #expect(signature.hasCMSSignature == false)
        let source = try Entitlements.parse(Array(TestSigner.xmlPlist(Fixtures.entitlements).utf8))
        #expect(signature.entitlements == source)
        #expect(signature.entitlements?.entries.count == 3)
        #expect(signature.entitlements?.developmentSigned == true)
    }

    @Test(
        "either blob alone gives the same entitlements",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"),
        arguments: [(true, false), (false, true)])
    func oneBlob(xml: Bool, der: Bool) throws {
        let signature = try #require(
            try MachOFile.read(try Fixtures.signed(xml: xml, der: der)).slices.first?.signature)
        #expect((signature.xmlEntitlements != nil) == xml)
        #expect((signature.derEntitlements != nil) == der)
        #expect(signature.blobsDisagree == nil)
        #expect(signature.entitlementsSealed)
        let source = try Entitlements.parse(Array(TestSigner.xmlPlist(Fixtures.entitlements).utf8))
        #expect(signature.entitlements == source)
    }

    @Test(
        "an entitlements blob edited after signing is not sealed; an edited page is not",
        .enabled(if: FixtureTools.canLink, "clang or ld64.lld-14 is not installed"))
    func tampered() throws {
        var bytes = try Fixtures.signed()
        // Re-point the associated domain in both blobs: "example.com" becomes "exbmple.com".
        let needle = Array("applinks:example.com".utf8)
        var replaced = 0
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) {
                bytes[index + 11] = UInt8(ascii: "b")
                replaced += 1
            }
            index += 1
        }
        #expect(replaced == 2)
        let signature = try #require(try MachOFile.read(bytes).slices.first?.signature)
        #expect(!signature.entitlementsSealed)
        #expect(signature.sealProblems.count == 2)
        #expect(signature.entitlements?.entries.contains { $0.raw == "applinks:exbmple.com" } == true)

        var page = try Fixtures.signed()
        page[0x4000] ^= 0xff
        let pageSignature = try #require(try MachOFile.read(page).slices.first?.signature)
        #expect(pageSignature.entitlementsSealed)
        #expect(!pageSignature.codeSealed)
    }

    @Test(
        "a universal file: every slice, each with its own signature (FAT_MAGIC and FAT_MAGIC_64)",
        .enabled(if: FixtureTools.canLipo, "llvm-lipo-14 or the linker is not installed"),
        arguments: [false, true])
    func universal(fat64: Bool) throws {
        let file = try MachOFile.read(try Fixtures.universal(fat64: fat64))
        #expect(file.isUniversal)
        #expect(Set(file.slices.map(\.architecture)) == ["arm64", "x86_64"])
        let arm = try #require(file.slices.first { $0.architecture == "arm64" }?.signature)
        #expect(arm.codeDirectory.teamIdentifier == Fixtures.team)
        #expect(arm.entitlementsSealed && arm.codeSealed)
        let intel = try #require(file.slices.first { $0.architecture == "x86_64" })
        if let signature = intel.signature {
            #expect(signature.codeSealed)
            #expect(signature.entitlements == nil)
        }
    }

    @Test(
        "LIEF finds the same slices and LC_CODE_SIGNATURE offsets and sizes (thin and FAT_MAGIC)",
        .enabled(if: FixtureTools.hasLIEF && FixtureTools.canLipo, "LIEF (pip install lief) or llvm-lipo is missing"))
    func agreesWithLIEF() throws {
        let python = try #require(FixtureTools.liefPython)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Support/macho_lief.py")
        let fat = try Fixtures.universal()
        // LIEF 1.0 does not read FAT_MAGIC_64; the wide header must give exactly the slices the
        // narrow one gives, which LIEF checks.
        #expect(try MachOFile.read(try Fixtures.widen(fat)).slices == MachOFile.read(fat).slices)
        for (name, bytes) in [("signed", try Fixtures.signed()), ("fat", fat)] {
            let path = try Fixtures.write(bytes, "lief-\(name)")
            let output = try FixtureTools.run(python, [script.path, path.path])
            let lief = try JSONReader(limits: .depthOnly(8)).read([UInt8](output)).value
            let slices = try #require(lief.arrayValue)
            let ours = try MachOFile.read(bytes).slices
            #expect(slices.count == ours.count, "\(name)")
            for (theirs, mine) in zip(slices, ours) {
                let object = try #require(theirs.objectValue)
                func number(_ key: String) -> Int? {
                    object.members.first { $0.key == key }?.value.numberValue.flatMap { Int($0) }
                }
                #expect(number("cpu") == Int(mine.cpuType), "\(name)")
                #expect(number("offset") == mine.fileOffset, "\(name)")
                #expect(number("dataoff") == mine.signatureRange?.lowerBound, "\(name)")
                #expect(number("datasize") == mine.signatureRange?.count, "\(name)")
            }
        }
    }

    @Test("not a Mach-O: text, a Java class file's magic, a big-endian image")
    func notMachO() {
        let inputs: [[UInt8]] = [
            Array("<?xml version".utf8), [0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34],
            [0xfe, 0xed, 0xfa, 0xcf] + [UInt8](repeating: 0, count: 28), [],
        ]
        for input in inputs {
            #expect(throws: SWCredError(.malformedArtifact, "")) { try MachOFile.read(input) }
        }
    }
}
