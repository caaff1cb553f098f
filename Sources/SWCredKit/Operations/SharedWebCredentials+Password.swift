import SWCredCore
import SWCredPasswords

extension SharedWebCredentials {
    /// `SecCreateSharedWebCredentialPassword` (SWC-8.1): a new password in the `xxx-xxx-xxx-xxx`
    /// format (`spec/passwords.md` §2), from libsodium's random source.
    ///
    /// - Returns: the password, or `nil` only when the random source fails (Apple logs
    ///   "SecPasswordGenerate failed to generate a password for SecCreateSharedWebCredentialPassword."
    ///   and so does swcred, on stderr).
    public static func createSharedWebCredentialPassword() -> String? {
        do {
            return try PasswordGenerator.legacy()
        } catch {
            FileBytes.write(
                Array("SecPasswordGenerate failed to generate a password for SecCreateSharedWebCredentialPassword.\n".utf8),
                to: 2)
            return nil
        }
    }
}
