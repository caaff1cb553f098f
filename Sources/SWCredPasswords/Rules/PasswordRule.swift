/// One parsed property of a Password Rules string (PW-4.3).
public enum PasswordRule: Sendable, Hashable, CustomStringConvertible {
    /// `required`: at least one character from the union of the classes.
    case required([CharacterClass])
    /// `allowed`: the characters that may appear.
    case allowed([CharacterClass])
    /// `max-consecutive`: the older run limit (PW-4.9).
    case maxConsecutive(Int)
    /// `max-repeating`: no run of more than N identical characters.
    case maxRepeating(Int)
    /// `max-sequential`: no ascending or descending run of more than N characters.
    case maxSequential(Int)
    /// `minlength`.
    case minLength(Int)
    /// `maxlength`.
    case maxLength(Int)

    /// The property name as written in the language.
    public var name: String {
        switch self {
        case .required: return "required"
        case .allowed: return "allowed"
        case .maxConsecutive: return "max-consecutive"
        case .maxRepeating: return "max-repeating"
        case .maxSequential: return "max-sequential"
        case .minLength: return "minlength"
        case .maxLength: return "maxlength"
        }
    }

    /// The format-compliant serialisation `name: v1, v2;` (PW-4.8).
    public var description: String {
        switch self {
        case .required(let classes), .allowed(let classes):
            let values = classes.isEmpty ? "[]" : classes.map(Self.compliantText).joined(separator: ", ")
            return "\(name): \(values);"
        case .maxConsecutive(let n), .maxRepeating(let n), .maxSequential(let n), .minLength(let n),
            .maxLength(let n):
            return "\(name): \(n);"
        }
    }

    /// A class in re-parseable form: in a custom class `-` goes first and `]` last (PW-4.7, PW-4.8).
    static func compliantText(_ characterClass: CharacterClass) -> String {
        guard case .custom(let characters) = characterClass else { return characterClass.description }
        let dash = UInt8(ascii: "-")
        let bracket = UInt8(ascii: "]")
        var ordered: [UInt8] = characters.contains(dash) ? [dash] : []
        ordered += characters.filter { $0 != dash && $0 != bracket }
        if characters.contains(bracket) { ordered.append(bracket) }
        return "[" + String(decoding: ordered, as: UTF8.self) + "]"
    }
}
