public import SWCredCore

/// What an add did (the `operation` of `spec/cli.md`).
public enum SWCAddOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// A new item was written.
    case added
    /// The password was replaced.
    case updated
    /// The same password was saved again (no prompt; the item was rewritten).
    case unchanged
    /// The credential was deleted.
    case deleted
    /// The user answered "Not Now" or canceled; nothing changed (the completion still reports
    /// success, SWC-6.10).
    case declined
    /// Nothing to do: a delete of a credential that does not exist.
    case none
    /// A check failed; ``SWCAddReport/completionError`` says which.
    case failed
}

/// The full result of an add: what the app's completion receives, and the truth out of band
/// (SWC-6.10).
public struct SWCAddReport: Sendable, Hashable {
    /// What happened.
    public var outcome: SWCAddOutcome
    /// The parsed host, when parsing got that far.
    public var server: String?
    /// The account as given.
    public var account: String?
    /// The parsed port, if any.
    public var port: Int?
    /// Exactly what the completion handler receives: `nil` on success and on every decline.
    public var completionError: SWCredError?
    /// A write failure that the completion does not see (Apple discards errors in the
    /// found-item branches, SWC-6.9).
    public var discardedError: SWCredError?
    /// The prompt shown, if any, and its answer.
    public var prompt: SWCPrompt?
    /// The answer given to ``prompt``.
    public var answer: SWCPromptAnswer?

    /// Creates a report.
    public init(
        outcome: SWCAddOutcome, server: String? = nil, account: String? = nil, port: Int? = nil,
        completionError: SWCredError? = nil, discardedError: SWCredError? = nil,
        prompt: SWCPrompt? = nil, answer: SWCPromptAnswer? = nil
    ) {
        self.outcome = outcome
        self.server = server
        self.account = account
        self.port = port
        self.completionError = completionError
        self.discardedError = discardedError
        self.prompt = prompt
        self.answer = answer
    }
}

/// The full result of a request: exactly what the completion handler receives, and the prompt.
public struct SWCRequestReport: Sendable, Hashable {
    /// The credentials array: `nil` on failure, empty on cancel, otherwise one credential.
    public var credentials: [SharedWebCredential]?
    /// The completion's error: `nil` on success and on a legacy cancel.
    public var error: SWCredError?
    /// The profile that ran.
    public var profile: SWCProfile
    /// The picker shown, if any.
    public var prompt: SWCPrompt?
    /// The picker's answer.
    public var answer: SWCPromptAnswer?

    /// Creates a report.
    public init(
        credentials: [SharedWebCredential]?, error: SWCredError?, profile: SWCProfile,
        prompt: SWCPrompt? = nil, answer: SWCPromptAnswer? = nil
    ) {
        self.credentials = credentials
        self.error = error
        self.profile = profile
        self.prompt = prompt
        self.answer = answer
    }

    /// The user canceled the picker (or, in `current`, there was nothing to offer).
    public var canceled: Bool {
        credentials?.isEmpty == true
    }
}
