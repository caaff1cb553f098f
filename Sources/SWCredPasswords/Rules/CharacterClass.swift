/// One entry of a `required` or `allowed` list (PW-4.4, PW-4.5).
public enum CharacterClass: Sendable, Hashable, CustomStringConvertible {
    /// `upper`: A–Z.
    case upper
    /// `lower`: a–z.
    case lower
    /// `digit`: 0–9.
    case digit
    /// `special`: the 33 printable non-alphanumerics, space included.
    case special
    /// `ascii-printable`: 0x20–0x7E.
    case asciiPrintable
    /// `unicode`: any character.
    case unicode
    /// `[…]`: literal printable ASCII characters, in the order given (duplicates kept as parsed).
    case custom([UInt8])

    /// The identifier as written in the language (`ascii-printable`), or `[…]` for a custom class.
    ///
    /// Custom classes print their characters as stored; use ``PasswordRules/description`` for the
    /// format-compliant form.
    public var description: String {
        switch self {
        case .upper: return "upper"
        case .lower: return "lower"
        case .digit: return "digit"
        case .special: return "special"
        case .asciiPrintable: return "ascii-printable"
        case .unicode: return "unicode"
        case .custom(let characters): return "[" + String(decoding: characters, as: UTF8.self) + "]"
        }
    }

    /// The named class for a lower-cased identifier, or `nil` for an unknown one.
    static func named(_ lowercasedIdentifier: String) -> CharacterClass? {
        switch lowercasedIdentifier {
        case "upper": return .upper
        case "lower": return .lower
        case "digit": return .digit
        case "special": return .special
        case "ascii-printable": return .asciiPrintable
        case "unicode": return .unicode
        default: return nil
        }
    }

    /// The printable ASCII characters the class covers (`unicode` covers all 95 of them, PW-5.1).
    public var asciiSet: ASCIISet {
        switch self {
        case .upper: return .upper
        case .lower: return .lower
        case .digit: return .digit
        case .special: return .special
        case .asciiPrintable, .unicode: return .asciiPrintable
        case .custom(let characters): return ASCIISet(bytes: characters)
        }
    }
}

extension Array where Element == CharacterClass {
    /// The union of the classes' printable ASCII characters.
    var asciiUnion: ASCIISet {
        reduce(ASCIISet.empty) { $0.union($1.asciiSet) }
    }

    /// Whether the list contains `unicode`.
    var containsUnicode: Bool { contains(.unicode) }
}
