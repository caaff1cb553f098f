import SWCredCore

/// `SecCreateSharedWebCredentialPassword`'s format, byte for byte as Apple's `SecPasswordGenerate`
/// (PW-2.1, PW-2.2).
enum LegacyFormat {
    /// The allowed characters, in Apple's order: 23 lower (no i, j, l), 24 upper (no I, O), 2–9.
    static let alphabet = Array("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)
    /// The required sets: note the digit set starts at 3 (a `2` may appear but does not count).
    static let requiredSets = [
        ASCIISet("abcdefghkmnopqrstuvwxyz"), ASCIISet("ABCDEFGHJKLMNPQRSTUVWXYZ"), ASCIISet("3456789"),
    ]
    /// Bytes at or above this are discarded: 255 − 255 mod 55 = 220.
    static let byteLimit = UInt8(255 - 255 % 55)

    /// One candidate per PW-2.2 steps 1–3, or `nil` when step 4 rejects it.
    static func candidate<R: RandomSource>(using source: inout R) throws(SWCredError) -> [UInt8]? {
        // Step 1: 12 indices in [0, 55): read bytes in order, discard every byte ≥ 220, map b to b mod 55.
        var characters: [UInt8] = []
        characters.reserveCapacity(15)
        while characters.count < 12 {
            let byte = try source.nextByte()
            // Step 2: map the index into the allowed string.
            if byte < byteLimit { characters.append(alphabet[Int(byte % 55)]) }
        }
        // Step 4 (the check does not depend on the separators): every required set at least once.
        for set in requiredSets where !characters.contains(where: set.contains) { return nil }
        // Step 3: `-` after the 3rd, 6th and 9th characters.
        let dash = UInt8(ascii: "-")
        characters.insert(dash, at: 9)
        characters.insert(dash, at: 6)
        characters.insert(dash, at: 3)
        return characters
    }

    /// The output set as a ``PasswordSpace`` (for exact counting, PW-2.4).
    static let space: PasswordSpace = {
        let letter = ASCIISet(bytes: alphabet)
        let dash = ASCIISet("-")
        let shape = [
            letter, letter, letter, dash, letter, letter, letter, dash, letter, letter, letter, dash,
            letter, letter, letter,
        ]
        return PasswordSpace(shapes: [Shape(shape)], constraints: Constraints(required: requiredSets))
    }()
}
