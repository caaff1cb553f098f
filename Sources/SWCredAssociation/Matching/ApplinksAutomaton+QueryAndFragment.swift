// Queries and fragments for an ``ApplinksAutomaton`` (AD-7.8 – AD-7.12): checked only for the
// rules whose path accepted, each pattern through its own small automaton.

extension ApplinksAutomaton {
    /// Query and fragment of a rule whose path accepted (AD-7.8 – AD-7.12).
    func matchesRest(
        _ rule: Rule, query: UnsafeBufferPointer<UInt8>?, fragment: UnsafeBufferPointer<UInt8>?
    ) -> Bool {
        switch rule.query {
        case .any: break
        case .string(let pattern):
            guard Self.matches(pattern, query, decode: !rule.percentEncoded) else { return false }
        case .items(let items):
            guard matchesItems(items, rule, query) else { return false }
        }
        if let pattern = rule.fragment {
            guard Self.matches(pattern, fragment, decode: !rule.percentEncoded) else { return false }
        }
        return true
    }

    private static func matches(_ pattern: Pattern, _ text: UnsafeBufferPointer<UInt8>?, decode: Bool) -> Bool {
        guard let text, !text.isEmpty else { return pattern.matchesEmpty }
        if decode, text.contains(UInt8(ascii: "%")) {
            var decoded: [UInt8] = []
            percentDecode(text, into: &decoded)
            return decoded.withUnsafeBufferPointer { pattern.matches(utf8: $0) }
        }
        return pattern.matches(ascii: text)
    }

    /// AD-7.9: every item named by the rule must match every instance (absent: the empty string).
    private func matchesItems(_ items: [QueryItem], _ rule: Rule, _ query: UnsafeBufferPointer<UInt8>?) -> Bool {
        let raw = query ?? UnsafeBufferPointer(start: nil, count: 0)
        let slow = !rule.percentEncoded && raw.contains(UInt8(ascii: "%"))
        if slow || items.contains(where: { $0.asciiKey == nil }) {
            // Decoded or non-ASCII names: the reference comparison on strings.
            let pairs = QueryItems.split(String(decoding: raw, as: UTF8.self), decode: !rule.percentEncoded)
            for item in items {
                let name = rule.caseSensitive ? item.name : item.name.lowercased()
                let values = pairs.filter { (rule.caseSensitive ? $0.name : $0.name.lowercased()) == name }
                if values.isEmpty {
                    guard item.pattern.matchesEmpty else { return false }
                } else {
                    guard values.allSatisfy({ item.pattern.matches($0.value) }) else { return false }
                }
            }
            return true
        }
        for item in items {
            guard let key = item.asciiKey else { return false }
            var found = false
            var start = 0
            let count = raw.count
            while start <= count {
                var stop = start
                while stop < count, raw[stop] != UInt8(ascii: "&") { stop += 1 }
                if stop > start {
                    var equals = start
                    while equals < stop, raw[equals] != UInt8(ascii: "=") { equals += 1 }
                    if Self.nameEquals(raw, start, equals, key, fold: !rule.caseSensitive) {
                        found = true
                        let value = equals < stop ? UnsafeBufferPointer(rebasing: raw[(equals + 1)..<stop]) : nil
                        guard Self.matches(item.pattern, value, decode: false) else { return false }
                    }
                }
                start = stop + 1
            }
            if !found, !item.pattern.matchesEmpty { return false }
        }
        return true
    }

    private static func nameEquals(
        _ raw: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ key: [UInt8], fold: Bool
    ) -> Bool {
        guard end - start == key.count else { return false }
        for (offset, expected) in key.enumerated() {
            var byte = raw[start + offset]
            if fold, byte &- 0x41 < 26 { byte |= 0x20 }
            guard byte == expected else { return false }
        }
        return true
    }
}
