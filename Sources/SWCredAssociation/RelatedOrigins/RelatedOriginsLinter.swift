import SWCredCore

/// Validates a `/.well-known/webauthn` file and reports every ROR-S and ROR-L rule it breaks, and
/// ROR-F3 (its size), as lint findings: the id is the rule's lint id (`SWC251`, ``RuleID/lintID``)
/// and `rule` the rule (`ROR-L1`) (`swcred lint --kind webauthn`, asset-links.md §2.4).
///
/// Label counting needs the Public Suffix List, which the caller loads; the linter never throws:
/// a body that does not parse gives one error finding.
///
/// ```swift
/// let findings = RelatedOriginsLinter(publicSuffixes: list).lint(bytes, rpID: "example.com")
/// findings.first?.rule  // .rorL1
/// ```
package struct RelatedOriginsLinter: Sendable {
    /// The list used to count registrable origin labels.
    package let publicSuffixes: PublicSuffixList

    /// Creates a linter.
    package init(publicSuffixes: PublicSuffixList) { self.publicSuffixes = publicSuffixes }

    /// WebKit's `maxCandidates`: valid entries examined (ROR-L2).
    package static let webKitMaximumCandidates = 100

    private typealias Collector = RuleFindingCollector

    /// Lints a file as served; `rpID` (lint's `--host`) enables ROR-L3.
    package func lint(_ bytes: [UInt8], rpID: String? = nil) -> [LintFinding] {
        var c = Collector()
        let document: RelatedOriginsDocument
        switch RelatedOriginsDocument.parse(bytes) {
        case .success(let parsed): document = parsed
        case .failure(let failure):
            let help =
                failure.rule == .rorF3
                ? "keep the file under 64 KiB: it needs a handful of origins"
                : "serve strict JSON: {\"origins\": [\"https://example.de\", …]}, every entry a string"
            c.add(failure.rule, .error, failure.path, failure.message, help)
            return c.findings
        }
        if document.byteCount > RelatedOriginsDocument.webKitMaximumBytes {
            c.add(
                .rorF3, .warning, "",
                "the file is \(document.byteCount) bytes; WebKit reads at most "
                    + "\(RelatedOriginsDocument.webKitMaximumBytes)",
                "keep the file under 64 KiB")
        }
        for duplicate in document.duplicateKeys {
            c.add(
                .rorS1, .warning, duplicate.memberPath, "key '\(duplicate.key)' appears more than once",
                "keep one copy of the key")
        }
        if document.entries.isEmpty {
            c.add(
                .rorS1, .error, "origins", "'origins' is empty: the spec asks for one or more origins",
                "list the related origins, or remove the file")
        }
        lintEntries(document, rpID: rpID, into: &c)
        return c.findings
    }

    private func lintEntries(_ document: RelatedOriginsDocument, rpID: String?, into c: inout Collector) {
        let readings = RelatedOriginsMatcher(publicSuffixes: publicSuffixes).readings(of: document)
        var firstIndex: [RelatedOrigin: Int] = [:]
        var valid = 0
        var labels: [String] = []
        var dead: [String] = []
        for (entry, reading) in zip(document.entries, readings) {
            if case .failure(let why) = entry.origin {
                c.add(
                    .rorS2, .error, entry.path, "'\(entry.text.prefix(200))' \(why); clients skip it",
                    "write a bare https origin: https://example.de")
                continue
            }
            guard case .success(let origin) = entry.origin else { continue }
            lintOrigin(origin, entry: entry, firstIndex: &firstIndex, into: &c)
            switch reading {
            case .skipped(let why):
                c.add(.rorS2, .error, entry.path, "\(why); clients skip it", "list origins on registrable domains")
                continue
            case .overLabelLimit(let label):
                dead.append(entry.path)
                c.add(
                    .rorL1, .error, entry.path,
                    "\(origin) adds the label '\(label)' after \(labels.count) labels "
                        + "(\(labels.joined(separator: ", "))): every shipping client ignores it",
                    "keep at most \(RelatedOriginsMatcher.clientLabelLimit) distinct labels; "
                        + "move this origin up or drop one")
            case .counted(let label, let newLabel):
                if newLabel { labels.append(label) }
            }
            valid += 1
            if valid == Self.webKitMaximumCandidates + 1 {
                c.add(
                    .rorL2, .warning, entry.path,
                    "entries from here on are after the first \(Self.webKitMaximumCandidates) valid ones: WebKit stops",
                    "list fewer origins")
            }
            if let rpID, origin.host == rpID || origin.host.hasSuffix("." + rpID) {
                c.add(
                    .rorL3, .note, entry.path,
                    "\(origin) is on the RP ID \(rpID) or under it: clients do not need the file for it",
                    "remove origins on the RP ID and its subdomains")
            }
        }
        if !labels.isEmpty || !dead.isEmpty {
            c.add(
                .rorL1, .note, "origins",
                "registrable origin labels, in order: \(labels.joined(separator: ", "))"
                    + (dead.isEmpty ? "" : "; dead entries: \(dead.joined(separator: ", "))"),
                "clients count at most \(RelatedOriginsMatcher.clientLabelLimit) labels")
        }
    }

    /// The per-origin hygiene findings of ROR-S2: scheme, more than an origin, repeats.
    private func lintOrigin(
        _ origin: RelatedOrigin, entry: RelatedOriginsDocument.Entry, firstIndex: inout [RelatedOrigin: Int],
        into c: inout Collector
    ) {
        if origin.scheme != "https" {
            c.add(
                .rorS2, .error, entry.path,
                "\(origin) is not an https origin: it never matches a secure caller, yet it may use up a label",
                "write https://\(origin.host)")
        }
        if origin.hasMoreThanOrigin {
            c.add(
                .rorS2, .warning, entry.path,
                "'\(entry.text.prefix(200))' has more than an origin (a path, query, fragment or user name); "
                    + "clients compare \(origin) only",
                "write the bare origin \(origin)")
        }
        let key = RelatedOrigin(scheme: origin.scheme, host: origin.host, port: origin.port)
        if let first = firstIndex[key] {
            c.add(
                .rorS2, .warning, entry.path, "\(origin) is listed again (first at origins[\(first)])",
                "list each origin once")
        } else {
            firstIndex[key] = entry.index
        }
    }
}
