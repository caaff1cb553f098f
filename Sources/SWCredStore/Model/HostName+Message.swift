import SWCredCore

extension HostName.ParseError {
    /// What is wrong with a host a person gave (`subject` names it: "the host", "the URL's host").
    func message(subject: String) -> String {
        switch self {
        case .notASCII:
            "\(subject) is not ASCII; internationalised names must be given as xn-- A-labels"
        case .empty, .tooLong:
            "\(subject) must be 1 to 253 characters"
        case .trailingDot, .leadingDot, .character, .emptyLabel, .labelTooLong:
            "\(subject) may hold only letters, digits, '-', '_' and non-empty dot-separated labels"
        }
    }
}
