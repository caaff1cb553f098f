import SWCredCore

/// What one verifier read from a source's statement list and its includes
/// (``AssetLinksResolver``): the statements that count, the problems, and for the Android
/// verifier whether the whole list failed (DAL-S7). Ask it with ``check(_:target:)``.
package struct AssetLinksResolution: Sendable, Hashable {
    /// The verifier.
    package let verifier: AssetLinksVerifier
    /// The source asset.
    package let source: AssetLinksSource
    /// The statements that count, in reading order (root first, each include where it is named).
    package let statements: [AssetLinksStatement]
    /// Every problem met, in reading order.
    package let problems: [AssetLinksProblem]
    /// Android only: the problem that fails the whole list on a device, so nothing is linked.
    package let failure: AssetLinksProblem?

    /// The (relation, target) pairs the list grants, optionally only for `relation`
    /// (`statements:list`; an empty relation filter is everything).
    package func grants(_ relation: AssetLinksRelation? = nil) -> [(
        relation: AssetLinksRelation, target: AssetLinksTarget
    )] {
        guard failure == nil else { return [] }
        var found: [(relation: AssetLinksRelation, target: AssetLinksTarget)] = []
        for statement in statements {
            for granted in statement.relations where relation == nil || granted == relation {
                if !found.contains(where: { $0.relation == granted && $0.target == statement.target }) {
                    found.append((granted, statement.target))
                }
            }
        }
        return found
    }

    /// Whether the source grants `relation` to `target`, and why (DAL-Q1).
    ///
    /// A web target matches one exact (scheme, host, port). An `android_app` target matches a
    /// statement for the same package that lists one of its fingerprints exactly as written.
    package func check(_ relation: AssetLinksRelation, target: AssetLinksTarget) -> AssetLinksVerdict {
        func verdict(_ linked: Bool, _ reason: String) -> AssetLinksVerdict {
            AssetLinksVerdict(verifier: verifier, linked: linked, reason: reason)
        }
        if let failure {
            let why =
                failure.rule == .dalS7
                ? "the list fails as a whole on an Android 12+ device" : "a device reads no statements from the list"
            return verdict(false, "\(why): \(failure)")
        }
        for statement in statements
        where statement.relations.contains(relation) && Self.matches(statement.target, target) {
            return verdict(true, "\(statement.origin) element \(statement.index) grants \(relation) to \(target)")
        }
        return verdict(false, missReason(relation, target: target))
    }

    /// ``check(_:target:)`` for an app: its package and any of its fingerprints.
    package func check(_ relation: AssetLinksRelation, app: AndroidAppIdentity) -> AssetLinksVerdict {
        check(relation, target: .androidApp(packageName: app.packageName, fingerprints: app.fingerprints))
    }

    static func matches(_ listed: AssetLinksTarget, _ wanted: AssetLinksTarget) -> Bool {
        switch (listed, wanted) {
        case (.web(let a), .web(let b)): a == b
        case (.androidApp(let package, let listedPrints), .androidApp(let wantedPackage, let wantedPrints)):
            package == wantedPackage && listedPrints.contains { wantedPrints.contains($0) }
        default: false
        }
    }

    /// The nearest miss, in the order users hit them (asset-links.md §1.7): the app listed with
    /// other fingerprints (Play App Signing), the target listed for other relations, problems.
    private func missReason(_ relation: AssetLinksRelation, target: AssetLinksTarget) -> String {
        let invalid = problems.filter { $0.code != nil || verifier == .android }.count
        let note = invalid == 0 ? "" : " (\(invalid) problem\(invalid == 1 ? "" : "s") in the list: \(problems[0]))"
        if case .androidApp(let package, let wanted) = target {
            let listed = statements.filter {
                if case .androidApp(let listedPackage, _) = $0.target { listedPackage == package } else { false }
            }
            let prints = listed.flatMap { statement -> [String] in
                if case .androidApp(_, let prints) = statement.target { prints } else { [] }
            }
            if !listed.isEmpty, !prints.contains(where: { wanted.contains($0) }) {
                let lowercase = prints.contains { print in wanted.contains { $0 == print.uppercased() } }
                return "\(package) is listed with other fingerprints (\(prints.joined(separator: ", "))), "
                    + "not the app's \(wanted.joined(separator: ", "))"
                    + (lowercase
                        ? "; the file's are lower case and are compared exactly"
                        : "; is it the upload key "
                            + "instead of the key Play App Signing signs with?") + note
            }
        }
        let relations = statements.filter { Self.matches($0.target, target) }.flatMap(\.relations)
        if !relations.isEmpty {
            return "\(target) is listed for \(relations.map(\.description).joined(separator: ", ")), not \(relation)"
                + note
        }
        return "no statement grants \(relation) to \(target)" + note
    }
}
