public import Foundation
public import SWCredCore
public import SWCredKit
import Synchronization

/// The context the Apple-named functions run in: which app, which store, which simulated user.
///
/// Configure it once (for example in a test's set-up) with ``configure(_:)``; when nothing is
/// configured, the functions build one from the `SWCRED_*` environment variables
/// (``SharedWebCredentials/fromEnvironment(_:)``) on first use.
///
/// ```swift
/// import SWCredSecurity   // instead of `import Security`
///
/// SWCredSecurityContext.configure(SharedWebCredentials(backend: keychain, app: app, responder: user))
/// SecRequestSharedWebCredential(nil, nil) { credentials, error in … }
/// ```
public enum SWCredSecurityContext {
    private static let current = Mutex<SharedWebCredentials?>(nil)

    /// Makes `service` the context of every later call.
    public static func configure(_ service: SharedWebCredentials) {
        current.withLock { $0 = service }
    }

    /// Forgets the configured context (the next call reads the environment again).
    public static func reset() {
        current.withLock { $0 = nil }
    }

    /// The configured context, or one built from the process environment.
    public static func resolve() throws(SWCredError) -> SharedWebCredentials {
        if let service = current.withLock({ $0 }) { return service }
        let built = try SharedWebCredentials.fromEnvironment(ProcessInfo.processInfo.environment)
        return current.withLock { existing in
            if let existing { return existing }
            existing = built
            return built
        }
    }
}

/// Apple's blocks are not `@Sendable`; like Apple's implementation, swcred calls them once, on a
/// global queue. The box carries a non-Sendable closure or value across that hop.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
}

/// Calls `completion` once, asynchronously, on a global queue, with the error of a failed set-up.
private func deliverSetupFailure(_ body: @escaping @Sendable () -> Void) {
    DispatchQueue.global(qos: .default).async(execute: body)
}

/// Adds, updates or (with a `nil` password) deletes a shared web credential
/// (`SecAddSharedWebCredential`, spec/shared-web-credentials.md §6).
///
/// The completion is called exactly once, asynchronously, on a global concurrent queue, with
/// `nil` on success **and when the user declined** (as on a device), or an `NSOSStatusErrorDomain`
/// error: `errSecParam`, `errSecUnimplemented`, `errSecBadReq`, `errSecMissingEntitlement`,
/// `errSecAuthFailed`, `errSecDuplicateItem`, `errSecInteractionNotAllowed`, `errSecInternal`.
///
/// - Parameters:
///   - fqdn: `domain` or `domain:port`.
///   - account: the account name.
///   - password: the password, or `nil` to delete the credential.
///   - completionHandler: receives the error, or `nil`.
@available(
    *, deprecated,
    message: "Use ASCredentialDataManager.save(password:for:title:anchor:) to save or update a password credential."
)
public func SecAddSharedWebCredential(
    _ fqdn: CFString, _ account: CFString, _ password: CFString?,
    _ completionHandler: @escaping (CFError?) -> Void
) {
    let box = UncheckedBox(value: completionHandler)
    let service: SharedWebCredentials
    do {
        service = try SWCredSecurityContext.resolve()
    } catch {
        deliverSetupFailure { box.value(error.nsError) }
        return
    }
    service.addSharedWebCredential(fqdn, account: account, password: password) { error in
        box.value(error?.nsError)
    }
}

/// Requests a shared web credential (`SecRequestSharedWebCredential`, spec/shared-web-credentials.md §7).
///
/// The completion is called exactly once, asynchronously, on a global concurrent queue, with an
/// array of at most one dictionary (`kSecAttrServer`, `kSecAttrAccount`, `kSecSharedPassword`,
/// and `kSecAttrPort` in the legacy profile when the item has one) and an error. A canceled legacy
/// picker gives an empty array and no error; in the current profile a cancel gives an empty array
/// and `ASAuthorizationError` 1001.
///
/// - Parameters:
///   - fqdn: the domain, or `nil` for the app's `webcredentials` domains.
///   - account: an account to look for, or `nil`.
///   - completionHandler: receives the credentials and the error.
@available(
    *, deprecated,
    message: "Use ASAuthorizationController to make an ASAuthorizationPasswordRequest (AuthenticationServices framework)"
)
public func SecRequestSharedWebCredential(
    _ fqdn: CFString?, _ account: CFString?,
    _ completionHandler: @escaping (CFArray?, CFError?) -> Void
) {
    let box = UncheckedBox(value: completionHandler)
    let service: SharedWebCredentials
    do {
        service = try SWCredSecurityContext.resolve()
    } catch {
        deliverSetupFailure { box.value(nil, error.nsError) }
        return
    }
    service.requestSharedWebCredential(fqdn, account: account) { credentials, error in
        box.value(credentials.map(makeCFArray), error?.nsError)
    }
}

/// Returns a new password in the `xxx-xxx-xxx-xxx` format (`SecCreateSharedWebCredentialPassword`,
/// spec/shared-web-credentials.md §8), or `nil` when the random source fails.
public func SecCreateSharedWebCredentialPassword() -> CFString? {
    SharedWebCredentials.createSharedWebCredentialPassword()
}

/// The credentials as Apple's array of dictionaries.
private func makeCFArray(_ credentials: [SharedWebCredential]) -> CFArray {
    let dictionaries: [NSDictionary] = credentials.map { credential in
        var entries: [String: Any] = [
            kSecAttrServer: NSString(string: credential.server),
            kSecAttrAccount: NSString(string: credential.account),
            kSecSharedPassword: NSString(string: credential.password),
        ]
        if let port = credential.port { entries[kSecAttrPort] = NSNumber(value: port) }
        return NSDictionary(dictionary: entries)
    }
    return SharedWebCredentialArray(dictionaries: dictionaries)
}
