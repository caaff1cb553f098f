import SWCredAssociation
import SWCredCore

extension FuzzHarness {
    /// The Public Suffix List the `webauthn` target counts labels with: small and fixed.
    static let fuzzPublicSuffixes: PublicSuffixList? = try? PublicSuffixList(
        parsing: Array("com\nde\nuk\nco.uk\n*.ck\n!www.ck\nio\ngithub.io\n".utf8))

    /// `/.well-known/webauthn` bytes through the reader, the linter and the related-origins
    /// procedure (asset-links.md §2).
    ///
    /// Promises: no trap; lint reports an error exactly when the reader refuses the file; every
    /// entry has one reading; at most five labels are counted; the procedure allows a caller
    /// only through an entry that is that caller's origin, and allows every counted entry's own
    /// https origin.
    public static func webauthn(_ bytes: [UInt8]) -> [String] {
        guard let list = fuzzPublicSuffixes else { return ["the fixed Public Suffix List did not parse"] }
        var problems: [String] = []
        let findings = RelatedOriginsLinter(publicSuffixes: list).lint(bytes, rpID: "example.com")
        let document: RelatedOriginsDocument
        switch RelatedOriginsDocument.parse(bytes) {
        case .failure:
            if !findings.contains(where: { $0.severity == .error }) {
                problems.append("the file does not read, yet lint reports no error")
            }
            return problems
        case .success(let read): document = read
        }
        let matcher = RelatedOriginsMatcher(publicSuffixes: list)
        let readings = matcher.readings(of: document)
        if readings.count != document.entries.count { problems.append("an entry has no reading") }
        var labels: Set<String> = []
        for (entry, reading) in zip(document.entries, readings) {
            guard case .counted(let label, _) = reading, case .success(let origin) = entry.origin else { continue }
            if label.isEmpty { problems.append("an empty label was counted") }
            labels.insert(label)
            guard origin.scheme == "https" else { continue }
            let caller = RelatedOrigin(scheme: "https", host: origin.host, port: origin.port)
            if !matcher.match(caller: caller, in: document).isAllowed {
                problems.append("a counted https entry does not allow its own origin")
            }
        }
        if labels.count > RelatedOriginsMatcher.clientLabelLimit { problems.append("more than five labels counted") }
        for caller in ["https://example.com", "https://shop.example.de", "https://www.ck"] {
            guard case .success(let origin) = RelatedOrigin.parse(caller) else { continue }
            if case .allowed(let index, _) = matcher.match(caller: origin, in: document) {
                guard index < document.entries.count, case .success(let listed) = document.entries[index].origin,
                    listed.isSameOrigin(as: origin)
                else {
                    problems.append("a caller was allowed by an entry that is not its origin")
                    continue
                }
            }
        }
        return problems
    }

    /// Public Suffix List bytes through the list reader, then a few hosts.
    ///
    /// Promises: no trap; for every host, the public suffix is a suffix of the host on a label
    /// boundary, and the registrable domain, when there is one, is the public suffix with exactly
    /// one more label.
    public static func publicSuffixList(_ bytes: [UInt8]) -> [String] {
        guard let list = try? PublicSuffixList(parsing: bytes) else { return [] }
        var problems: [String] = []
        let hosts = ["com", "example.com", "a.b.example.co.uk", "www.ck", "x.y.ck", "xn--bcher-kva.de", "a.b.c.d.e.f.g"]
        for host in hosts {
            let suffix = list.publicSuffix(of: host)
            if !(suffix == host[...] || host.hasSuffix("." + suffix)) {
                problems.append("the public suffix of \(host) is not a label suffix")
            }
            if let domain = list.registrableDomain(of: host) {
                guard host == domain || host.hasSuffix("." + domain), domain.hasSuffix("." + suffix),
                    !domain.dropLast(suffix.count + 1).contains(".")
                else {
                    problems.append("the registrable domain of \(host) is not the suffix and one label")
                    continue
                }
            }
        }
        return problems
    }
}
