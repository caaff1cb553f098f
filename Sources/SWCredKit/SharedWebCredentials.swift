public import SWCredCore
import SWCredStore

/// The Shared Web Credentials API: `SecAddSharedWebCredential` and `SecRequestSharedWebCredential`
/// with Apple's checks, prompts, OSStatus errors and completion delivery, on swcred's store.
///
/// One instance serves one app on one backend. Every operation runs as one unit (checks, prompt,
/// write) in FIFO order per instance (SWC-3.4 Decision); use one instance per store in a process.
///
/// Each operation comes in three forms:
/// - a report form (`add(fqdn:account:password:)`, `request(fqdn:account:profile:)`) that returns
///   what the completion receives *and* the true outcome (SWC-6.10);
/// - an Apple-shaped `async throws` form that honours task cancellation (a pending prompt is
///   answered `cancel`, SWC-3.5);
/// - an Apple-shaped completion form that calls its handler exactly once, asynchronously, never
///   before the call returns, on a global concurrent queue (SWC-3.1, SWC-3.2), and returns the
///   `Task` so callers can cancel.
///
/// These are swcred's own Swift API and are not deprecated, so that tests built with warnings as
/// errors can call them. Apple's deprecations (SWC-9.1) are on the Apple-shaped names that
/// app code calls, `SecAddSharedWebCredential` and `SecRequestSharedWebCredential` in
/// `SWCredSecurity`, as they are on a device.
///
/// Example:
/// ```swift
/// let swc = SharedWebCredentials(backend: keychain, app: app, responder: SWCPolicyResponder())
/// swc.addSharedWebCredential("example.com", account: "alice", password: "pw") { error in
///     // error == nil: saved, unchanged, or declined by the user
/// }
/// ```
public final class SharedWebCredentials: Sendable {
    /// Where items, records and settings live.
    public let backend: any SharedWebCredentialsBackend
    /// The calling app.
    public let app: SWCApp
    /// Who answers prompts and the picker.
    public let responder: any SWCPromptResponder
    /// Profile, platform, simulator mode, add confirmation, prompt timeout.
    public let configuration: SWCConfiguration

    let queue = AsyncFIFOLock()

    /// Creates the API for `app` on `backend`.
    /// - Parameters:
    ///   - backend: the store (``StoreBackend``) or an in-memory keychain.
    ///   - app: the calling app's identity and entitlement.
    ///   - responder: answers `ADD`, `UPDATE`, `DELETE` and `SELECT`.
    ///   - configuration: the environment of SWC-1.3; defaults to `legacy` on iOS.
    public init(
        backend: any SharedWebCredentialsBackend,
        app: SWCApp,
        responder: any SWCPromptResponder,
        configuration: SWCConfiguration = SWCConfiguration()
    ) {
        self.backend = backend
        self.app = app
        self.responder = responder
        self.configuration = configuration
    }

    // MARK: Report forms

    /// Adds, updates or (with a `nil` password) deletes the credential for `fqdn` and `account`
    /// (SWC-6), and reports both what the completion receives and what really happened.
    ///
    /// `fqdn` and `account` are optional so that untyped entry points (JSON, CLI) can express
    /// Apple's "not provided" (SWC-6.1).
    /// - Returns: the report; ``SWCAddReport/completionError`` is `nil` on success and on a decline.
    public func add(fqdn: String?, account: String?, password: String?) async -> SWCAddReport {
        await add(fqdn: fqdn, account: account, password: password, ticket: queue.reserve())
    }

    func add(fqdn: String?, account: String?, password: String?, ticket: AsyncFIFOLock.Ticket) async -> SWCAddReport {
        await queue.withLock(ticket) {
            await AddOperation(service: self, fqdn: fqdn, account: account, password: password).run()
        }
    }

    /// Requests a saved credential (SWC-7) with this instance's profile, or `profile` for this call.
    /// - Returns: the report; ``SWCRequestReport/credentials`` is `nil` on failure, empty on cancel.
    public func request(fqdn: String?, account: String?, profile: SWCProfile? = nil) async -> SWCRequestReport {
        await request(fqdn: fqdn, account: account, profile: profile, ticket: queue.reserve())
    }

    func request(
        fqdn: String?, account: String?, profile: SWCProfile?, ticket: AsyncFIFOLock.Ticket
    ) async -> SWCRequestReport {
        await queue.withLock(ticket) {
            await RequestOperation(
                service: self, fqdn: fqdn, account: account, profile: profile ?? configuration.profile
            ).run()
        }
    }

    // MARK: Apple-shaped async forms

    /// `SecAddSharedWebCredential` as `async throws` (SWC-3.5).
    ///
    /// Returns normally exactly when the completion form's error would be `nil`: on success and
    /// when the user declined (SWC-6.10).
    /// - Throws: `SWCredError` with `invalidParameter` (−50), `unimplemented` (−4),
    ///   `autoFillDisabled` (−909), `missingEntitlement` (−34018), `siteNotApproved` (−25293),
    ///   `duplicateItem` (−25299), `interactionNotAllowed` (−25308) or `secInternal` (−26276).
    public func addSharedWebCredential(_ fqdn: String, account: String, password: String?) async throws(SWCredError) {
        let report = await add(fqdn: fqdn, account: account, password: password)
        if let error = report.completionError { throw error }
    }

    /// `SecRequestSharedWebCredential` as `async throws` (SWC-3.5).
    ///
    /// Returns the credentials array the completion would receive when its error is `nil`: one
    /// credential, or an empty array when the user canceled the legacy picker.
    /// - Throws: `SWCredError` with `invalidParameter` (−50), `autoFillDisabled` (−909),
    ///   `missingEntitlement` (−34018), `siteNotApproved` (−25293), `itemNotFound` (−25300), or
    ///   `canceled` (`ASAuthorizationError` 1001) in `current`.
    public func requestSharedWebCredential(
        _ fqdn: String?, account: String?, profile: SWCProfile? = nil
    ) async throws(SWCredError) -> [SharedWebCredential] {
        let report = await request(fqdn: fqdn, account: account, profile: profile)
        if let error = report.error { throw error }
        return report.credentials ?? []
    }

    // MARK: Apple-shaped completion forms

    /// `SecAddSharedWebCredential` with a completion handler.
    ///
    /// The handler is called exactly once on every path, asynchronously, never before this call
    /// returns, on a global concurrent queue of default priority (SWC-3.1, SWC-3.2). A `nil`
    /// handler is allowed; the operation still runs (SWC-3.3).
    /// - Returns: the task running the operation; cancel it to answer a pending prompt `cancel`.
    @discardableResult
    public func addSharedWebCredential(
        _ fqdn: String?, account: String?, password: String?,
        completion: (@Sendable (SWCredError?) -> Void)?
    ) -> Task<Void, Never> {
        let gate = CompletionGate<SWCredError?>(completion)
        let ticket = queue.reserve()  // FIFO in call order (SWC-3.4)
        let task = Task {
            let report = await self.add(fqdn: fqdn, account: account, password: password, ticket: ticket)
            gate.deliver(report.completionError)
        }
        gate.callReturned()
        return task
    }

    /// `SecRequestSharedWebCredential` with a completion handler (same delivery rules as
    /// ``addSharedWebCredential(_:account:password:completion:)``).
    ///
    /// The handler receives the credentials (`nil` on failure, empty on cancel, one element
    /// otherwise) and the error (`nil` on success and on a legacy cancel).
    /// - Returns: the task running the operation; cancel it to answer a pending picker `cancel`.
    @discardableResult
    public func requestSharedWebCredential(
        _ fqdn: String?, account: String?, profile: SWCProfile? = nil,
        completion: (@Sendable ([SharedWebCredential]?, SWCredError?) -> Void)?
    ) -> Task<Void, Never> {
        let gate = CompletionGate<SWCRequestReport>(completion.map { completion in
            { @Sendable report in completion(report.credentials, report.error) }
        })
        let ticket = queue.reserve()  // FIFO in call order (SWC-3.4)
        let task = Task {
            gate.deliver(await self.request(fqdn: fqdn, account: account, profile: profile, ticket: ticket))
        }
        gate.callReturned()
        return task
    }

    // MARK: Helpers shared by the operations

    func ask(_ prompt: SWCPrompt) async -> SWCPromptAnswer {
        let answer = await PromptArbiter.ask(prompt, responder: responder, timeout: configuration.promptTimeout)
        // Answers that do not fit the prompt count as `cancel` (SWCPromptResponder).
        switch (prompt.kind, answer) {
        case (.select, .choose(let index)) where prompt.candidates.indices.contains(index):
            return answer
        case (.select, .notNow):
            return .cancel  // "Not Now" in the picker is cancel (SWC-4.3).
        case (.select, _):
            return .cancel
        case (_, .allow), (_, .notNow), (_, .cancel):
            return answer
        case (_, .choose):
            return .cancel
        }
    }
}

/// Maps a store failure to the error a completion receives (SWC-2.2): item and key-material
/// codes that Apple shares pass through; everything else becomes `errSecInternal` with the store
/// error underneath. **Decision:** never −25293 (the store's `wrongKey`), so that
/// `siteNotApproved` stays unambiguous.
func completionError(fromStore error: SWCredError) -> SWCredError {
    switch error.code {
    case .duplicateItem, .itemNotFound, .interactionNotAllowed, .invalidParameter:
        return error
    default:
        return SWCredError(.secInternal, "The keychain operation failed: \(error.message)", underlying: error)
    }
}
