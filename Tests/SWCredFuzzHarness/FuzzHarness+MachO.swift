import SWCredArtifacts
import SWCredCore

extension FuzzHarness {
    /// The limits the `macho` target reads under: small, so that the fuzzer reaches each of them.
    static let machOLimits: ArtifactLimits = {
        var limits = ArtifactLimits()
        limits.maximumFileBytes = 1 << 20
        limits.maximumSlices = 4
        limits.maximumLoadCommands = 64
        limits.maximumSignatureBytes = 1 << 16
        limits.maximumBlobs = 8
        limits.maximumEntitlementsBytes = 1 << 14
        limits.maximumSpecialSlots = 8
        limits.maximumDepth = 8
        return limits
    }()

    /// Bytes as a Mach-O file (thin or universal) with its code signatures (issue 31).
    ///
    /// Promises: no trap; a refusal is `malformedArtifact`; an accepted file's slices lie inside
    /// the file without overlapping, each signature inside its slice; the counts respect the
    /// limits; `entitlementsSealed` is true exactly when no seal problem was found; signed
    /// entitlements come with one of the two blobs.
    public static func machO(_ bytes: [UInt8]) -> [String] {
        let file: MachOFile
        do {
            file = try MachOFile.read(bytes, limits: machOLimits)
        } catch {
            return error.code == .malformedArtifact ? [] : ["unexpected \(error.code.name): \(error.message)"]
        }
        var problems: [String] = []
        if file.slices.isEmpty || file.slices.count > machOLimits.maximumSlices {
            problems.append("\(file.slices.count) slices were accepted")
        }
        var ranges: [Range<Int>] = []
        for slice in file.slices {
            let range = slice.fileOffset..<(slice.fileOffset + slice.size)
            if range.upperBound > bytes.count { problems.append("a slice past the end of the file") }
            if ranges.contains(where: { $0.overlaps(range) }) { problems.append("overlapping slices") }
            ranges.append(range)
            if let signatureRange = slice.signatureRange, signatureRange.upperBound > slice.size {
                problems.append("a signature past the end of its slice")
            }
            guard let signature = slice.signature else { continue }
            if signature.entitlementsSealed != signature.sealProblems.isEmpty {
                problems.append("entitlementsSealed disagrees with the seal problems")
            }
            if signature.entitlements != nil, signature.xmlEntitlements == nil, signature.derEntitlements == nil {
                problems.append("entitlements without an entitlements blob")
            }
            if (signature.blobsDisagree != nil)
                != (signature.xmlEntitlements != nil && signature.derEntitlements != nil)
            {
                problems.append("blobsDisagree set without both blobs")
            }
            if signature.codeDirectory.specialSlotHashes.count > machOLimits.maximumSpecialSlots {
                problems.append("more special slots than the limit")
            }
        }
        return problems
    }
}
