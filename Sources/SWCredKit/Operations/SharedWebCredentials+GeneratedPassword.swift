package import SWCredCore
import SWCredPasswords

extension SharedWebCredentials {
    /// A new password in the `xxx-xxx-xxx-xxx` format of `SecCreateSharedWebCredentialPassword`
    /// (SWC-8.1), or with `rules` (a Password Rules string) a strong password for the site's rules.
    /// Unlike ``createSharedWebCredentialPassword()`` it throws the generator's error.
    /// - Throws: `invalidParameter` for rules that cannot be parsed or met; the random source's error.
    package static func generatedPassword(rules: String? = nil) throws(SWCredError) -> String {
        if let rules { return try PasswordGenerator.generate(style: .strong, rules: rules).password }
        return try PasswordGenerator.legacy()
    }
}
