import SWCredAssociation
import SWCredCore

extension FuzzHarness {
    /// The limits the `assetlinks` target reads under: small, so that the fuzzer reaches them.
    static let assetLinksLimits: AssetLinksStatementList.Limits = {
        var limits = AssetLinksStatementList.Limits()
        limits.maximumBytes = 1 << 16
        limits.maximumDepth = 12
        limits.maximumElements = 256
        return limits
    }()

    /// `assetlinks.json` bytes through the statement-list reader, both verifiers' readings of each
    /// element, and the linter (asset-links.md §1.1, DAL-S*).
    ///
    /// Promises: no trap; an accepted list respects the element limit; the linter reports an error
    /// exactly when the list does not read; every statement's web site and include URL reads back
    /// from its own text; every android_app fingerprint a statement keeps for Google is valid and
    /// has an apk-key-hash origin; a failed read is `malformedAssetLinks`.
    public static func assetLinks(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let findings = AssetLinksLinter(limits: assetLinksLimits).lint(bytes)
        switch AssetLinksStatementList.parseReportingRule(bytes, limits: assetLinksLimits) {
        case .failure(let failure):
            if failure.error.code.kind != .malformedAssetLinks {
                problems.append("a list that does not read failed with \(failure.error.code.name)")
            }
            if !findings.contains(where: { $0.severity == .error }) {
                problems.append("the list does not read, yet lint reports no error")
            }
        case .success(let list):
            if list.elements.count > assetLinksLimits.maximumElements {
                problems.append("\(list.elements.count) elements were accepted")
            }
            for element in list.elements {
                for verifier in AssetLinksVerifier.allCases {
                    problems += readingProblems(element.reading(verifier), verifier: verifier)
                }
            }
        }
        return problems
    }

    static func readingProblems(_ reading: AssetLinksElement.Reading, verifier: AssetLinksVerifier) -> [String] {
        switch reading {
        case .statement(let statement):
            switch statement.target {
            case .web(let site):
                guard case .success(let again) = AssetLinksSite.parse(site.description), again.site == site else {
                    return ["the site \(site) does not read back from its own text"]
                }
            case .androidApp(_, let fingerprints):
                if verifier == .google,
                    !fingerprints.allSatisfy({
                        AndroidAppIdentity.isValidFingerprint($0)
                            && AndroidAppIdentity.apkKeyHashOrigin(fingerprint: $0) != nil
                    })
                {
                    return ["Google's reading kept a fingerprint that is not upper-case colon hex"]
                }
            }
        case .include(let text):
            if case .success(let url) = AssetLinksURL.parse(text) {
                guard case .success(let again) = AssetLinksURL.parse(url.description), again == url else {
                    return ["the include \(url) does not read back from its own text"]
                }
            }
        case .skipped, .malformed:
            break
        }
        return []
    }

    /// The limits the `android-manifest` target's XML is read under.
    static let manifestXMLLimits: XMLElementReader.Limits = {
        var limits = XMLElementReader.Limits()
        limits.maximumBytes = 1 << 16
        limits.maximumDepth = 16
        limits.maximumElements = 512
        limits.maximumAttributes = 16
        return limits
    }()

    /// An `AndroidManifest.xml` and a `strings.xml` from one input (split at the first 0xFF;
    /// without one, the input is tried as both) through the bounded XML reader and the manifest
    /// reader (DAL-Q2, DAL-Q5), and the strings through aapt2's unescaping.
    ///
    /// Promises: no trap; every failure is `malformedInput`; an accepted tree respects the depth,
    /// element and attribute limits; the verified hosts come from verifiable filters only; a
    /// `*.` host's verification host has no `*.`; the asset_statements includes read back.
    public static func androidManifest(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let split = bytes.firstIndex(of: 0xFF)
        let manifest = split.map { Array(bytes[..<$0]) } ?? bytes
        let strings = split.map { Array(bytes[($0 + 1)...]) } ?? bytes
        for part in [manifest, strings] {
            do {
                let root = try XMLElementReader.read(part, what: "fuzz.xml", limits: manifestXMLLimits)
                var elements = 0
                var stack: [(MarkupElement, Int)] = [(root, 1)]
                while let (element, depth) = stack.popLast() {
                    elements += 1
                    if depth > manifestXMLLimits.maximumDepth { problems.append("an element at depth \(depth)") }
                    if element.attributes.count > manifestXMLLimits.maximumAttributes {
                        problems.append("\(element.attributes.count) attributes were accepted")
                    }
                    stack += element.children.map { ($0, depth + 1) }
                }
                if elements > manifestXMLLimits.maximumElements { problems.append("\(elements) elements were accepted") }
            } catch {
                if error.code.kind != .malformedInput { problems.append("the XML reader failed with \(error.code.name)") }
            }
        }
        do {
            let read = try AndroidManifest.parse(manifest, strings: strings)
            let verifiable = Set(read.webFilters.filter(\.isVerifiable).flatMap(\.hosts))
            if !read.verifiedHosts.allSatisfy(verifiable.contains) {
                problems.append("a verified host does not come from a verifiable filter")
            }
            if read.verifiedHosts.contains(where: { AndroidManifest.verificationHost($0).hasPrefix("*.") }) {
                problems.append("a *. host's verification host still starts with *.")
            }
            for url in read.assetStatementIncludes {
                guard case .success(let again) = AssetLinksURL.parse(url.description), again == url else {
                    return problems + ["the include \(url) does not read back"]
                }
            }
        } catch {
            if error.code.kind != .malformedInput { problems.append("the manifest reader failed with \(error.code.name)") }
        }
        // aapt2's unescaping never traps, whatever the text.
        _ = AndroidStringResources.unescape(String(decoding: strings.prefix(4_096), as: UTF8.self))
        return problems
    }
}
