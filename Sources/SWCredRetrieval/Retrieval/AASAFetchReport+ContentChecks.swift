import SWCredCore
import SWCredAssociation

// The checks on a received body that only warn.
extension AASAFetchReport {
    /// Adds the warnings about a received body: AD-4.7 content type and AD-3.8 signed bodies.
    /// Neither refuses the file; a device does not check them, validators do.
    package mutating func addContentWarnings(body: [UInt8]) {
        let signed = CMSDetector.isSignedData(body)
        if signed {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the file is a signed CMS (PKCS#7) body: signing is deprecated since iOS 9; serve plain JSON",
                    rule: .ad3_8)
            )
        }
        let mediaType = contentType.map { MediaType.essence(of: $0) }
        let expected = signed ? ["application/pkcs7-mime", "application/json"] : ["application/json"]
        if let mediaType, expected.contains(mediaType) {
            pass(.ad4_7, "Content-Type \(mediaType)")
        } else {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "Content-Type is \(contentType.map { "'\($0.prefix(200))'" } ?? "missing"); serve the file as application/json (devices do not check, validators do)",
                    rule: .ad4_7)
            )
        }
    }
}
