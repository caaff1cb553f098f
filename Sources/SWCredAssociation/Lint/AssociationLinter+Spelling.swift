import SWCredCore

// Suggestions for misspelled keys: the closest known key within a small edit distance.
extension AssociationLinter {
    static func nearMiss(_ key: String, _ known: [String]) -> String? {
        guard !known.contains(key) else { return nil }
        let lower = key.lowercased()
        if let exact = known.first(where: { $0.lowercased() == lower }) { return exact }
        guard key.count >= 4 else { return nil }
        return known.first { $0.count >= 4 && editDistance(lower, $0.lowercased(), limit: 2) <= 2 }
    }

    /// Levenshtein distance, stopping early above `limit` (inputs are short keys).
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.prefix(64))
        let b = Array(b.prefix(64))
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
