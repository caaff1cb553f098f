import SWCredAssociation
import SWCredCore

/// `verify --app`'s members beside the report: `"artifact"` and `"findings"` (cli.md, "Signed artifacts").
struct SignedAppMembers: Encodable {
    let artifact: ArtifactMember
    let findings: [Diagnostic]

    func encode(to encoder: any Encoder) throws {
        try artifact.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(findings.map(Finding.init), forKey: .findings)
    }

    private enum Key: String, CodingKey { case findings }

    /// `{"id","severity","message"}`.
    private struct Finding: Encodable {
        let id: String
        let severity: String
        let message: String

        init(_ diagnostic: Diagnostic) {
            id = diagnostic.id ?? ""
            severity = diagnostic.severity.rawValue
            message = diagnostic.message
        }
    }
}

extension VerifyCommand {
    /// Text mode after the verdict: the artifact, its findings, why they changed the verdict,
    /// and what a trusted verdict does not cover.
    static func printSignedApp(
        _ signed: SignedAppReading, trusted: Bool, associationsTrusted: Bool, _ console: Console
    ) {
        console.out("")
        console.out("Signed app:")
        for line in signed.summary { console.out("  \(line)") }
        if signed.findings.isEmpty {
            console.out("  no findings")
        } else {
            for finding in signed.findings { console.out("  \(finding)") }
        }
        let errors = signed.findings.filter { $0.severity == .error }.compactMap(\.id)
        if associationsTrusted, !errors.isEmpty {
            console.out(
                "not trusted: the files allow the app, but the signed app fails \(errors.joined(separator: ", ")) "
                    + "(swcred explain \(errors[0]))")
        }
        if trusted {
            console.out("")
            for line in notCovered { console.out(line) }
        }
    }

    /// What a trusted verdict does not cover (issue 31, item 4): a fixed paragraph, text mode only.
    static let notCovered = [
        "A trusted verdict covers the association between this signed app and its domains. It does not",
        "cover: links tapped inside web views (WKWebView) or in-app browsers (SFSafariViewController),",
        "which may load the page instead of opening the app; the Simulator, whose builds are not checked",
        "against a provisioning profile; and the app opening a link to its own domain, which iOS opens in",
        "Safari rather than back in the app. Test those paths on a device.",
    ]
}
