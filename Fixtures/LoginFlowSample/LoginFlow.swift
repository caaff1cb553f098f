// A login flow written the way Apple's documentation shows it ("Managing shared credentials",
// WWDC15 session 509). On Apple platforms it imports Security; on Linux only the import changes.
//
// swcred compiles this file as part of its test suite (Tests/SWCredKitTests/LoginFlowSample is a
// symbolic link to this folder) and runs it against seeded credentials.

import Foundation
import SWCredSecurity  // on iOS: import Security

/// The app's login screen logic.
final class LoginFlow: @unchecked Sendable {
    /// The website the app shares credentials with (`webcredentials:example.com`).
    let domain = "example.com"

    /// Step 1: offer the user's saved Safari credential, if any; otherwise the app shows its own
    /// login form (completion gets `nil`).
    func requestSavedCredential(completion: @escaping (_ username: String?, _ password: String?) -> Void) {
        SecRequestSharedWebCredential(nil, nil) { credentials, error in
            if let error = error {
                // errSecItemNotFound: nothing saved; the app shows its login form.
                print("SecRequestSharedWebCredential error: \(CFErrorGetCode(error))")
                completion(nil, nil)
                return
            }
            guard let credentials = credentials, CFArrayGetCount(credentials) > 0 else {
                // The user canceled the picker.
                completion(nil, nil)
                return
            }
            let unsafeCredential = CFArrayGetValueAtIndex(credentials, 0)
            let credential: CFDictionary = unsafeBitCast(unsafeCredential, to: CFDictionary.self)
            guard let dict = credential as? [String: Any] else {
                completion(nil, nil)
                return
            }
            let username = dict[kSecAttrAccount as String] as? String
            let password = dict[kSecSharedPassword as String] as? String
            completion(username, password)
        }
    }

    /// Step 2: after a successful login, save (or update) the credential for Safari.
    func saveCredential(username: String, password: String, completion: @escaping (_ saved: Bool) -> Void) {
        SecAddSharedWebCredential(domain as CFString, username as CFString, password as CFString) { error in
            if let error = error {
                print("SecAddSharedWebCredential error: \(CFErrorGetCode(error))")
                completion(false)
                return
            }
            completion(true)
        }
    }

    /// Step 3: when the user logs out for good, remove the credential (a nil password deletes it).
    func deleteCredential(username: String, completion: @escaping (_ ok: Bool) -> Void) {
        SecAddSharedWebCredential(domain as CFString, username as CFString, nil) { error in
            completion(error == nil)
        }
    }

    /// Sign-up: suggest a strong password in Safari's shared format.
    func suggestedPassword() -> String? {
        guard let password = SecCreateSharedWebCredentialPassword() else { return nil }
        return password as String
    }
}
