import SWCredCore

// Exact uniform sampling from the forward tables (PW-1.4).
extension ShapeCounter {
    /// A uniform member of this shape's V, built right to left from the forward tables: each
    /// predecessor is chosen with probability proportional to the prefixes reaching it.
    func sample<R: RandomSource>(from tables: Tables, using source: inout R) throws(SWCredError) -> [UInt8] {
        guard !tables.total.isZero, tables.layers.count == shape.count + 1 else {
            throw SWCredError(.infeasible, "no password satisfies the constraints")
        }
        let finalLayer = tables.layers[shape.count]
        let finals = finalLayer.ids.indices.filter { isFinal(finalLayer.ids[$0]) }
        var chosen = try Self.choose(
            finals, weights: finalLayer.counts, width: width, total: tables.total, using: &source)
        var state = Int(finalLayer.ids[chosen])
        var output = [UInt8](repeating: 0, count: shape.count)
        var i = shape.count
        while i > 0 {
            let previous = tables.layers[i - 1]
            let markedSet = shape.marked[i - 1]
            if tracksLast {
                let c = universe[decode(state).last]
                let isMarked = markedSet.contains(c)
                var options: [Int] = []
                var total = [UInt64](repeating: 0, count: width)
                previous.counts.withUnsafeBufferPointer { counts in
                    total.withUnsafeMutableBufferPointer { t in
                        for k in previous.ids.indices {
                            let p = decode(Int(previous.ids[k]))
                            if step(p.mask, p.marked, p.last, p.run, c, isMarked: isMarked) == state {
                                options.append(k)
                                FixedWidth.add(t.baseAddress!, 0, counts.baseAddress!, k * width, width: width)
                            }
                        }
                    }
                }
                chosen = try Self.choose(
                    options, weights: previous.counts, width: width, total: BigUInt(words: total), using: &source)
                output[i - 1] = c
                state = Int(previous.ids[chosen])
            } else {
                // Options: (predecessor, signature group) weighted by count × group size; then a
                // uniform character of the group.
                let target = decode(state)
                var groups = Self.signatureGroups(shape.plain[i - 1].members, signature).map { ($0, false) }
                groups += Self.signatureGroups(markedSet.members, signature).map { ($0, true) }
                var options: [(predecessor: Int, group: Int)] = []
                var weights: [UInt64] = []
                var total = [UInt64](repeating: 0, count: width)
                previous.counts.withUnsafeBufferPointer { counts in
                    for k in previous.ids.indices {
                        let p = decode(Int(previous.ids[k]))
                        for (g, (group, isMarked)) in groups.enumerated() {
                            guard !(isMarked && p.marked), (p.marked || isMarked) == target.marked,
                                p.mask | group.signature == target.mask
                            else { continue }
                            options.append((k, g))
                            weights.append(contentsOf: repeatElement(0, count: width))
                            let at = weights.count - width
                            weights.withUnsafeMutableBufferPointer { w in
                                FixedWidth.addProduct(
                                    w.baseAddress!, at, counts.baseAddress!, k * width, UInt64(group.members.count),
                                    width: width)
                            }
                            total.withUnsafeMutableBufferPointer { t in
                                weights.withUnsafeBufferPointer { w in
                                    FixedWidth.add(t.baseAddress!, 0, w.baseAddress!, at, width: width)
                                }
                            }
                        }
                    }
                }
                let pick = try Self.choose(
                    Array(options.indices), weights: weights, width: width, total: BigUInt(words: total),
                    using: &source)
                let members = groups[options[pick].group].0.members
                output[i - 1] = members[try source.uniform(members.count)]
                state = Int(previous.ids[options[pick].predecessor])
            }
            i -= 1
        }
        return output
    }

    /// Picks one of `options` with probability weight / total; option `k`'s weight is the `width`
    /// words at `k · width` of `weights`.
    static func choose<R: RandomSource>(
        _ options: [Int], weights: [UInt64], width: Int, total: BigUInt, using source: inout R
    ) throws(SWCredError) -> Int {
        guard !total.isZero, let lastOption = options.last else {
            throw SWCredError(.internalError, "exact sampling found no option (counting invariant broken)")
        }
        var pick = try total.randomBelow(using: &source).words(count: width)
        return pick.withUnsafeMutableBufferPointer { p in
            weights.withUnsafeBufferPointer { w in
                for option in options {
                    let at = option * width
                    if FixedWidth.less(p.baseAddress!, 0, w.baseAddress!, at, width: width) { return option }
                    FixedWidth.subtract(p.baseAddress!, 0, w.baseAddress!, at, width: width)
                }
                return lastOption
            }
        }
    }
}
