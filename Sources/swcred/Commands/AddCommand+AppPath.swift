import ArgumentParser
import SWCredCore
import SWCredKit
import SWCredSodium
import SWCredStore

/// The app path of `swcred add` (cli.md): `SecAddSharedWebCredential` with every check of
/// shared-web-credentials.md §6, as the app given by `--entitlements` / `--app-id`, with the
/// simulated user's answer `--user allow|not-now|cancel` (default `allow`), or `--user ask` to
/// answer on the terminal (cancel, said on stderr, when there is none).
///
/// - The password comes from `--password-stdin`, `--password-file`, or `--generate` (the legacy
///   `xxx-xxx-xxx-xxx` format of `SecCreateSharedWebCredentialPassword`, or with `--rules` a
///   password for the site's Password Rules); `--delete` is the nil-password call. An empty
///   password is accepted, as Apple's function accepts it (SWC-6.1).
/// - JSON: `{"schema","status","operation","item":{"server","account","port"},"completion":{"error"}}`;
///   `completion` is exactly what the app's completion handler received, and `status` its
///   OSStatus (0 for nil).
/// - Exit: 0 for added, updated, unchanged, deleted and none; **13 when the user declined, although
///   the completion reports success** (SWC-6.10); a failed check exits with its code (11, 12, 14,
///   45, 50); a write that failed in a found-item branch (which the completion never sees) exits
///   with the store error's code.
extension AddCommand {
    func validateAppPath() throws {
        if neverSave { throw ValidationError("--never-save is a browser-path action; it takes no app options") }
        if update { throw ValidationError("-U/--update is a browser-path flag; the app path updates after the prompt") }
        guard account != nil else { throw ValidationError("missing ACCOUNT") }
        let sources = [passwordStdin, passwordFile != nil, generate, delete].filter { $0 }.count
        guard sources == 1 else {
            throw ValidationError("give exactly one of --password-stdin, --password-file, --generate and --delete")
        }
        if rules != nil && !generate { throw ValidationError("--rules needs --generate") }
        guard user == "ask" || (try? SWCPromptAnswer(userOption: user)) != nil else {
            throw ValidationError("--user must be allow, not-now, cancel or ask")
        }
    }

    /// Runs the app path and prints the result.
    func addAppPath(_ console: Console) async throws(SWCredError) -> ExitStatus {
        let askUser = user == "ask"
        let answer = askUser ? .cancel : try SWCPromptAnswer(userOption: user)
        let password = try appPathPassword()
        let service = try await SWCAppSession.open(
            storeOptions: storeOptions, app: app, source: source, console: console, simulator: simulator
        ).service(
            responder: askUser
                ? SWCTerminalResponder { console.err("swcred: \($0)") }
                : SWCPolicyResponder(confirmation: answer, pick: .cancel))
        let report = await service.add(fqdn: domain, account: account, password: password)
        try report.throwCompletionError()
        console.emit(SWCAddDocument(report: report)) {
            let site = report.server.map { HostPort.format(host: $0, port: report.port) } ?? domain
            switch report.outcome {
            case .declined:
                console.out("declined \(site) \(account ?? "")")
                console.err("swcred: the user answered \(report.answer?.description ?? "cancel"); nothing was changed "
                    + "(the app's completion handler still received no error)")
            default:
                console.out("\(report.outcome.rawValue) \(site) \(account ?? "")")
            }
            if generate, report.outcome == .added || report.outcome == .updated {
                console.err("swcred: a generated password was saved; show it with: swcred show \(site) \(account ?? "")")
            }
        }
        if let discarded = report.reportedDiscardedError { console.report(discarded) }
        return ExitStatus(report)
    }

    /// The password of the call: read, generated, or `nil` for `--delete`.
    private func appPathPassword() throws(SWCredError) -> String? {
        if delete { return nil }
        if generate { return try SharedWebCredentials.generatedPassword(rules: rules) }
        let secret = try readPassword(allowEmpty: true)
        // The library takes a String (Apple's CFString); Swift's copies of it cannot be wiped.
        let text = secret.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
        guard let text else {
            throw SWCredError(.invalidParameter, "non-nil password was not of type CFString (not valid UTF-8)")
        }
        return text
    }
}
