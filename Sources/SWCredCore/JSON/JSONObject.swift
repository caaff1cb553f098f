/// A JSON object with its members in document order.
///
/// Lookup by key returns the last member with that key (AD-3.9: the last duplicate wins). An
/// object read with ``JSONReader/DuplicateKeys/refuse`` has no repeated key.
package struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair.
    package struct Member: Sendable, Hashable {
        /// The key.
        package var key: String
        /// The value.
        package var value: JSONValue
        /// Creates a member.
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every member in document order, duplicates included.
    package var members: [Member]

    /// Creates an object from members.
    package init(_ members: [Member] = []) { self.members = members }

    /// The value of the last member named `key`, if any.
    package subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// The number of members, duplicates included.
    package var count: Int { members.count }

    /// The distinct keys, in document order of their first appearance.
    package var keys: [String] {
        var seen = Set<String>()
        var result: [String] = []
        for member in members where seen.insert(member.key).inserted { result.append(member.key) }
        return result
    }

    /// An optional member read the way a `Decodable` optional property is: `nil` when the key is
    /// absent or `null`, `extract`'s value when it accepts the member, and `mismatch(key)` thrown
    /// otherwise (`object.optionalMember("port", \.numberValue) { WrongType($0) }`).
    package func optionalMember<T, E: Error>(
        _ key: String, _ extract: (JSONValue) -> T?, mismatch: (String) -> E
    ) throws(E) -> T? {
        guard let value = self[key], value != .null else { return nil }
        guard let extracted = extract(value) else { throw mismatch(key) }
        return extracted
    }

    /// The effective members: one per key, the last value for each, in order of first appearance.
    package var effectiveMembers: [Member] {
        let keys = keys
        if keys.count == members.count { return members }
        return keys.compactMap { key in self[key].map { Member(key: key, value: $0) } }
    }
}
