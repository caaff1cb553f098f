import SWCredCore

/// The WebAuthn related-origins validation procedure (asset-links.md §2.1, ROR-Q1): whether a
/// caller origin may use an RP ID because the RP ID's `/.well-known/webauthn` lists it.
///
/// Entries are walked in order. An entry is skipped when it has no tuple origin, no registrable
/// domain (an IP address, `https://com`), or a registrable origin label (the first label of its
/// registrable domain under the Public Suffix List) that is new once ``maximumLabels`` labels
/// are seen; an entry that is the caller's origin allows the ceremony; otherwise its label is
/// counted. Chrome, Firefox and WebKit all count at most five labels.
///
/// ```swift
/// let matcher = RelatedOriginsMatcher(publicSuffixes: list)
/// matcher.match(caller: RelatedOrigin(scheme: "https", host: "shop.example.de", port: nil), in: document)
/// // .allowed(entry: 0, label: "example")
/// ```
package struct RelatedOriginsMatcher: Sendable {
    /// The label limit of every shipping client (`kMaxLabels`, `maxRegistrableOriginLabels`).
    package static let clientLabelLimit = 5

    /// The list used to find registrable domains.
    package let publicSuffixes: PublicSuffixList
    /// The most distinct labels counted.
    package let maximumLabels: Int

    /// Creates a matcher.
    package init(publicSuffixes: PublicSuffixList, maximumLabels: Int = clientLabelLimit) {
        self.publicSuffixes = publicSuffixes
        self.maximumLabels = maximumLabels
    }

    /// How the walk read one entry.
    package enum Reading: Sendable, Hashable {
        /// Skipped: no tuple origin, or no registrable origin label (the reason).
        case skipped(String)
        /// Skipped: its label is new and the limit is reached (dead for every shipping client).
        case overLabelLimit(label: String)
        /// Counted under this label (a new one or one seen before).
        case counted(label: String, newLabel: Bool)
    }

    /// The walk's reading of every entry, for lint and for the refusal's reason.
    package func readings(of document: RelatedOriginsDocument) -> [Reading] {
        var seen: Set<String> = []
        return document.entries.map { entry in
            let reading = read(entry, seen: seen)
            if case .counted(let label, true) = reading { seen.insert(label) }
            return reading
        }
    }

    /// One entry, given the labels already seen.
    private func read(_ entry: RelatedOriginsDocument.Entry, seen: Set<String>) -> Reading {
        let origin: RelatedOrigin
        switch entry.origin {
        case .success(let parsed): origin = parsed
        case .failure(let why): return .skipped("\(entry.text.prefix(200)) \(why)")
        }
        guard !origin.isIPAddress, let label = publicSuffixes.registrableLabel(of: origin.host), !label.isEmpty else {
            return .skipped("\(origin) has no registrable domain (its host is an IP address or a public suffix)")
        }
        if seen.contains(label) { return .counted(label: label, newLabel: false) }
        if seen.count >= maximumLabels { return .overLabelLimit(label: label) }
        return .counted(label: label, newLabel: true)
    }

    /// The verdict for a caller.
    package enum Verdict: Sendable, Hashable {
        /// The entry at this index is the caller's origin, within the label limit.
        case allowed(entry: Int, label: String)
        /// No entry allows the caller; `hitLimit` when an entry was dead for the label limit
        /// (Chrome's `kNoJsonMatchHitLimits`), and the labels counted.
        case notListed(hitLimit: Bool, labels: [String], deadMatch: Int?)

        /// Whether the ceremony may go on.
        package var isAllowed: Bool { if case .allowed = self { true } else { false } }
    }

    /// Runs the procedure for `caller`.
    package func match(caller: RelatedOrigin, in document: RelatedOriginsDocument) -> Verdict {
        var seen: Set<String> = []
        var labels: [String] = []
        var hitLimit = false
        var deadMatch: Int?
        for entry in document.entries {
            switch read(entry, seen: seen) {
            case .skipped:
                continue
            case .overLabelLimit:
                hitLimit = true
                if case .success(let origin) = entry.origin, origin.isSameOrigin(as: caller), deadMatch == nil {
                    deadMatch = entry.index
                }
            case .counted(let label, let newLabel):
                if case .success(let origin) = entry.origin, origin.isSameOrigin(as: caller) {
                    return .allowed(entry: entry.index, label: label)
                }
                if newLabel {
                    seen.insert(label)
                    labels.append(label)
                }
            }
        }
        return .notListed(hitLimit: hitLimit, labels: labels, deadMatch: deadMatch)
    }

    /// The reason for a refusal, in words (ROR-Q1, with ROR-L1 when the caller was listed too late).
    package static func reason(
        _ verdict: Verdict, caller: RelatedOrigin, rpID: String, source: String
    ) -> String {
        switch verdict {
        case .allowed(let entry, let label):
            return "\(source) lists \(caller) (origins[\(entry)], label '\(label)') (ROR-Q1)"
        case .notListed(let hitLimit, let labels, let deadMatch):
            if let deadMatch {
                return "\(source) lists \(caller) at origins[\(deadMatch)], after the \(labels.count) registrable "
                    + "labels clients count (\(labels.joined(separator: ", "))): no client reaches it (ROR-L1)"
            }
            let limit = hitLimit ? "; the label limit was reached" : ""
            return "\(source) does not list \(caller) among the related origins of the RP ID \(rpID)\(limit) (ROR-Q1)"
        }
    }
}
