import Foundation
import SWCredCore

extension FuzzHarness {
    /// The limits the `json` target reads under: small, so that the fuzzer reaches each of them.
    static let jsonLimits = JSONReader.Limits(maxBytes: 1 << 16, maxDepth: 12, maxStringBytes: 512, maxMembers: 64)

    /// JSON bytes through SWCredCore's `JSONReader` under both duplicate-key policies.
    ///
    /// Promises: no trap; the policies differ only on repeated keys (`refuse` fails with
    /// `duplicateKey` exactly where `report` lists a repeat, and otherwise reads the same value or
    /// the same failure); an accepted value respects every limit; encoding it and reading the
    /// text back gives the same value, the last of each repeated key kept.
    public static func json(_ bytes: [UInt8]) -> [String] {
        let report = Result { () throws(JSONReader.Failure) in
            try JSONReader(limits: jsonLimits, duplicateKeys: .report).read(bytes)
        }
        let refuse = Result { () throws(JSONReader.Failure) in
            try JSONReader(limits: jsonLimits, duplicateKeys: .refuse).read(bytes)
        }
        var problems: [String] = []
        switch (report, refuse) {
        case (.success(let reported), .success(let refused)):
            if !reported.duplicateKeys.isEmpty { problems.append("refuse accepted a repeated key") }
            if reported.value != refused.value { problems.append("the two policies read different values") }
            problems += jsonLimitProblems(reported.value, depth: 0)
            problems += jsonRoundTripProblems(reported.value)
        case (.success(let reported), .failure(let failure)):
            guard case .duplicateKey = failure.kind, !reported.duplicateKeys.isEmpty else {
                problems.append("refuse failed (\(failure)) where report read the document without repeats")
                break
            }
        case (.failure(let failure), .success):
            problems.append("report failed (\(failure)) where refuse read the document")
        case (.failure(let reported), .failure(let refused)):
            if reported != refused, refused.kind.isDuplicateKey == false {
                problems.append("the policies failed differently: \(reported) / \(refused)")
            }
        }
        return problems
    }

    static func jsonLimitProblems(_ value: JSONValue, depth: Int) -> [String] {
        switch value {
        case .string(let text):
            return text.utf8.count > jsonLimits.maxStringBytes ? ["a string over the limit was accepted"] : []
        case .array(let elements):
            if depth + 1 > jsonLimits.maxDepth || elements.count > jsonLimits.maxMembers {
                return ["an array over the depth or element limit was accepted"]
            }
            return elements.flatMap { jsonLimitProblems($0, depth: depth + 1) }
        case .object(let object):
            if depth + 1 > jsonLimits.maxDepth || object.count > jsonLimits.maxMembers
                || object.members.contains(where: { $0.key.utf8.count > jsonLimits.maxStringBytes })
            {
                return ["an object over the depth, member or key limit was accepted"]
            }
            return object.members.flatMap { jsonLimitProblems($0.value, depth: depth + 1) }
        case .number(let number):
            return number.isFinite ? [] : ["a number that is not finite was accepted"]
        case .null, .bool:
            return []
        }
    }

    static func jsonRoundTripProblems(_ value: JSONValue) -> [String] {
        guard let text = try? JSONEncoder().encode(value) else { return ["an accepted value does not encode"] }
        guard let again = try? JSONReader().read([UInt8](text)).value else {
            return ["the encoded text of an accepted value does not read back"]
        }
        return canonical(again) == canonical(value) ? [] : ["the value changed through encoding and reading back"]
    }

    /// The value with one member per key, the last (as encoded), members sorted by key (the
    /// encoder's order is not the document's).
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): .array(elements.map(canonical))
        case .object(let object):
            .object(
                JSONObject(
                    object.effectiveMembers.map { JSONObject.Member(key: $0.key, value: canonical($0.value)) }
                        .sorted { $0.key < $1.key }))
        default: value
        }
    }
}

extension JSONReader.Failure.Kind {
    fileprivate var isDuplicateKey: Bool {
        if case .duplicateKey = self { return true }
        return false
    }
}
