internal import FoundationEssentials
package import SWCredCore
package import SWCredKit
internal import SWCredStore

/// What one batch line did: the single call's result, or its error.
package struct BatchOutcome: Sendable {
    /// What a line that ran returns.
    package enum Value: Sendable {
        /// `request`: the chosen credential (at most one; none when the user canceled the picker)
        /// and what the completion received.
        case request(credentials: [SharedWebCredential], error: SWCredError?)
        /// `add`: the report; its completion error, if any, is this outcome's failure instead.
        case add(SWCAddReport)
        case passkeyRegistration(RegistrationResponse)
        case passkeyAssertion(AuthenticationResponse)
    }

    /// The line's `id` and `op`; both `nil` when the line was not a request object.
    package var id: BatchRequestID?
    package var op: String?
    package var result: Result<Value, SWCredError>
}

/// Runs batch lines as one app, a group of lines in one store transaction
/// (`swcred batch`; issue 13: 10,000 adds were 10,000 whole-store rewrites).
///
/// The lines of a group run one after another on the transaction's contents (a
/// `TransactionBackend`), each seeing the changes of those before it, as separate calls would;
/// the group is written once (temporary file, `fsync`, rename, directory `fsync`) and only then
/// are the outcomes returned, so a caller never reports a result before its write is durable. If
/// the write fails, each line that changed something gets the write's error instead of its result
/// (nothing of the group was saved); lines that only read keep theirs. The store's write lock is
/// held while a group runs.
package struct BatchExecutor: Sendable {
    /// The app and its store, opened once for the whole batch.
    package var session: SWCAppSession
    /// The profile of `request` lines (`nil`: the session configuration's).
    package var requestProfile: SWCProfile?
    /// The request-line limit the lines were read under.
    package var maximumLineBytes: Int

    package init(session: SWCAppSession, requestProfile: SWCProfile?, maximumLineBytes: Int) {
        self.session = session
        self.requestProfile = requestProfile
        self.maximumLineBytes = maximumLineBytes
    }

    /// Decodes and runs a group of lines in one store transaction.
    package func run(_ group: [(number: Int, text: String)]) async -> [BatchOutcome] {
        var lines: [Result<BatchLine, SWCredError>] = []
        for (number, text) in group {
            do throws(SWCredError) {
                lines.append(.success(try BatchLine.decode(text, number: number, maximumLineBytes: maximumLineBytes)))
            } catch {
                lines.append(.failure(error))
            }
        }
        let store = session.backend.store
        let open: StoreTransaction
        do throws(SWCredError) {
            open = try store.beginTransaction()
        } catch {
            return lines.map { line in
                switch line {
                case .success(let line): BatchOutcome(id: line.id, op: line.op, result: .failure(error))
                case .failure(let failure): BatchOutcome(id: nil, op: nil, result: .failure(failure))
                }
            }
        }
        let working = TransactionBackend(contents: open.contents, clock: store.options.clock)
        var outcomes: [(outcome: BatchOutcome, changed: Bool)] = []
        for line in lines {
            switch line {
            case .success(let line):
                let before = working.changes
                let result: Result<BatchOutcome.Value, SWCredError>
                do throws(SWCredError) {
                    result = .success(try await run(try line.operation.get(), on: working))
                } catch {
                    result = .failure(error)
                }
                outcomes.append((BatchOutcome(id: line.id, op: line.op, result: result), working.changes != before))
            case .failure(let error):
                outcomes.append((BatchOutcome(id: nil, op: nil, result: .failure(error)), false))
            }
        }
        open.contents = working.contents
        do throws(SWCredError) {
            try open.commit()
        } catch {
            return outcomes.map { entry in
                entry.changed ? BatchOutcome(id: entry.outcome.id, op: entry.outcome.op, result: .failure(error)) : entry.outcome
            }
        }
        return outcomes.map(\.outcome)
    }

    /// One operation on the group's working contents.
    private func run(_ operation: BatchOperation, on working: TransactionBackend) async throws(SWCredError)
        -> BatchOutcome.Value
    {
        switch operation {
        case .request(let domain, let account, let pick):
            let service = session.service(
                responder: SWCPolicyResponder(confirmation: .cancel, pick: pick), profile: requestProfile, on: working)
            let report = await service.request(fqdn: domain, account: account)
            guard let credentials = report.credentials else {
                throw report.error ?? SWCredError(.internalError, "the request ended without credentials or an error")
            }
            return .request(credentials: Array(credentials.prefix(1)), error: report.error)
        case .add(let domain, let account, let password, let user):
            let text: String?
            switch password {
            case .given(let given): text = given
            case .generate: text = try SharedWebCredentials.generatedPassword()
            case .delete: text = nil
            }
            let service = session.service(responder: SWCPolicyResponder(confirmation: user, pick: .cancel), on: working)
            let report = await service.add(fqdn: domain, account: account, password: text)
            try report.throwCompletionError()
            return .add(report)
        case .passkeyRegister(let options, let user):
            return .passkeyRegistration(try ceremony(options, user, on: working, PasskeyAuthenticator.register))
        case .passkeyAssert(let options, let user):
            return .passkeyAssertion(try ceremony(options, user, on: working, PasskeyAuthenticator.authenticate))
        }
    }

    /// Runs one ceremony of ``PasskeyAuthenticator`` on the working contents, with the caller
    /// those contents' device settings make.
    private func ceremony<Options, Response>(
        _ options: Options, _ user: any SWCPromptResponder, on working: TransactionBackend,
        _ run: (Options, PasskeyCaller, any SWCPromptResponder, inout StoreContents, Date) throws(SWCredError) -> Response
    ) throws(SWCredError) -> Response {
        let caller = self.caller
        return try working.modify { (contents: inout StoreContents, now: Date) throws(SWCredError) in
            try run(options, caller(contents), user, &contents, now)
        }
    }

    /// The app as a passkey caller on the contents' device settings, with the forced switches.
    private var caller: @Sendable (StoreContents) -> PasskeyCaller {
        let session = session
        return { contents in session.passkeyCaller(settings: contents.settings) }
    }
}
