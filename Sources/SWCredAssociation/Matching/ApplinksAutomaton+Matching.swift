public import SWCredCore

// Deciding a URL with an ``ApplinksAutomaton`` (AD-7.3): the path candidates of every group in
// priority order, then the first candidate listed for the app whose query and fragment match.

extension ApplinksAutomaton {
    /// Parses `text` and matches it (AD-7.1, AD-7.3), as the reference matcher decides it.
    ///
    /// - Throws: `SWCredError.Code.invalidURL` (exit 64) when `text` is not an http(s) URL.
    public func match(_ text: String, appID: String?) throws(SWCredError) -> ApplinksMatch {
        // The common form is split and decided on the text's own bytes; anything else through LinkURLView.
        var text = text
        let decided: ApplinksMatch? = text.withUTF8 { bytes in
            guard let scan = LinkURLView.scan(bytes) else { return nil }
            return decide(
                path: UnsafeBufferPointer(rebasing: bytes[scan.pathStart..<scan.pathEnd]),
                query: scan.queryStart < 0
                    ? nil : UnsafeBufferPointer(rebasing: bytes[scan.queryStart..<scan.queryEnd]),
                fragment: scan.fragmentStart < 0
                    ? nil : UnsafeBufferPointer(rebasing: bytes[scan.fragmentStart..<scan.count]),
                nonDefaultPort: scan.nonDefaultPort, appID: appID)
        }
        if let decided { return decided }
        return match(try LinkURLView(text), appID: appID)
    }

    /// Matches a parsed URL (AD-7.3): the decision the reference matcher makes.
    package func match(_ url: LinkURLView, appID: String?) -> ApplinksMatch {
        switch url.storage {
        case .bytes(let path, let query, let fragment):
            var text = url.text
            return text.withUTF8 { bytes in
                decide(
                    path: UnsafeBufferPointer(rebasing: bytes[path]),
                    query: query.map { UnsafeBufferPointer(rebasing: bytes[$0]) },
                    fragment: fragment.map { UnsafeBufferPointer(rebasing: bytes[$0]) },
                    nonDefaultPort: url.hasNonDefaultPort, appID: appID)
            }
        case .parsed(let link):
            return match(link, appID: appID)
        }
    }

    /// Matches `url` (AD-7.3): the decision the reference matcher makes.
    public func match(_ url: LinkURL, appID: String?) -> ApplinksMatch {
        // A parsed LinkURL's components are ASCII; one built by hand may not be: the reference decides.
        lastDecidingRule = nil
        guard url.path.utf8.allSatisfy({ $0 < 0x80 }), url.query?.utf8.allSatisfy({ $0 < 0x80 }) ?? true,
            url.fragment?.utf8.allSatisfy({ $0 < 0x80 }) ?? true
        else {
            return reference.match(url, appID: appID)
        }
        let path = Array(url.path.utf8)
        let query = url.query.map { Array($0.utf8) }
        let fragment = url.fragment.map { Array($0.utf8) }
        return path.withUnsafeBufferPointer { path in
            withOptionalBuffer(query) { query in
                withOptionalBuffer(fragment) { fragment in
                    decide(
                        path: path, query: query, fragment: fragment, nonDefaultPort: url.hasNonDefaultPort,
                        appID: appID)
                }
            }
        }
    }

    private func withOptionalBuffer<R>(_ bytes: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBufferPointer { body($0) }
    }

    /// The decision on ASCII components.
    func decide(
        path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?,
        fragment: UnsafeBufferPointer<UInt8>?, nonDefaultPort: Bool, appID: String?
    ) -> ApplinksMatch {
        lastDecidingRule = nil
        guard !nonDefaultPort else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        var wanted = -1
        if let appID {
            if let last = lastApp, last.id == appID {
                wanted = last.index
            } else {
                guard let index = appIndex[appID] else {
                    return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil)
                }
                lastApp = (appID, index)
                wanted = index
            }
        }
        let candidates = pathCandidates(path)
        let apps = appIDs.count
        guard !candidates.isEmpty else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        let found: Int32
        let app: Int
        verdicts.update(repeating: -1, count: candidates.count)
        if wanted >= 0 {
            app = wanted
            found = firstDeciding(candidates, app: wanted, apps: apps, query, fragment)
        } else {
            // No app given: each listed app in order, the first that decides (verdicts memoised).
            (found, app) = {
                for app in 0..<apps {
                    let found = firstDeciding(candidates, app: app, apps: apps, query, fragment)
                    if found >= 0 { return (found, app) }
                }
                return (-1, 0)
            }()
        }
        guard found >= 0 else { return ApplinksMatch(outcome: .noMatch, appID: appID, rule: nil) }
        let index = Int(found)
        decisions[index] += 1
        lastDecidingRule = index
        return ApplinksMatch(
            outcome: rules[index].exclude ? .exclude : .match, appID: appID ?? appIDs[app], rule: rules[index].decided)
    }

    /// The first of `candidates` (in priority order) listed for `app` whose query and fragment
    /// match; -1 if none. With no app given (`verdicts` set up), each candidate is checked once.
    @inline(__always)
    private func firstDeciding(
        _ candidates: UnsafeBufferPointer<Int32>, app: Int, apps: Int, _ query: UnsafeBufferPointer<UInt8>?,
        _ fragment: UnsafeBufferPointer<UInt8>?
    ) -> Int32 {
        for (position, candidate) in candidates.enumerated() {
            let index = Int(candidate)
            guard detailApps[Int(ruleDetails[index]) &* apps &+ app] else { continue }
            if pathOnly[index] { return candidate }
            if verdicts[position] < 0 {
                verdicts[position] = matchesRest(rules[index], query: query, fragment: fragment) ? 1 : 0
            }
            if verdicts[position] == 1 { return candidate }
        }
        return -1
    }

    /// The rules whose path accepts `path`, in priority order (valid until a path automaton runs again).
    private func pathCandidates(_ path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<Int32> {
        // AD-7.7: an empty path is `/`, trailing slashes are stripped.
        var end = path.count
        while end > 0, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let stripped = UnsafeBufferPointer(rebasing: path[0..<end])
        let escaped = decodes && path.contains(UInt8(ascii: "%"))
        if escaped { Self.percentDecode(path, into: &decodedPath) }
        if groups.count == 1 { return tags(groups[0], stripped, escaped) }
        var first = UnsafeBufferPointer<Int32>(start: nil, count: 0)
        var lists = 0
        var count = 0
        for group in groups {
            let found = tags(group, stripped, escaped)
            guard !found.isEmpty else { continue }
            lists += 1
            if lists == 1 {
                first = found
                continue
            }
            if lists == 2 {
                for tag in first {
                    merged[count] = tag
                    count += 1
                }
            }
            // Insertion into the sorted run (lists are short; each rule is in one group only).
            for tag in found {
                var k = count
                while k > 0, merged[k - 1] > tag {
                    merged[k] = merged[k - 1]
                    k -= 1
                }
                merged[k] = tag
                count += 1
            }
        }
        guard lists > 1 else { return first }
        return UnsafeBufferPointer(start: merged, count: count)
    }

    private func tags(
        _ group: PathGroup, _ stripped: UnsafeBufferPointer<UInt8>, _ escaped: Bool
    ) -> UnsafeBufferPointer<Int32> {
        let dfa = group.dfa
        if group.percentEncoded || !escaped {
            return dfa.tags(dfa.run(ascii: stripped))
        }
        // percentEncoded: false and an escape: decode (AD-7.12), then strip trailing slashes as PathPattern does.
        var end = decodedPath.count
        while end > 0, decodedPath[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return decodedPath.withUnsafeBufferPointer {
            dfa.tags(dfa.run(utf8: UnsafeBufferPointer(rebasing: $0[0..<end])))
        }
    }
}
