/// The password formats swcred generates.
public enum PasswordStyle: String, Sendable, Hashable, CaseIterable, Codable {
    /// Safari's 20-character strong password, `xxxxxx-xxxxxx-xxxxxx` (PW-3.3), or its 18-character
    /// variant without dashes (PW-3.4).
    case strong
    /// Exactly `SecCreateSharedWebCredentialPassword`'s format, `xxx-xxx-xxx-xxx` (PW-2).
    case legacy
    /// Safari's fallback: random characters from the allowed set, `xxx-xxx-xxx-xxx` when dashes fit
    /// (PW-3.6, PW-5.5).
    case classic
}
