/// A prompt shown to the user (SWC-4.1): a confirmation (`ADD`, `UPDATE`, `DELETE`) or the
/// credential picker (`SELECT`), and the two passkey sheets (save a passkey, sign in with one;
/// `SWCredPasskeys`, asked after the checks of PasskeyDecisions.md PK-1).
///
/// Passwords and passkeys ask the user through this one type and one ``SWCPromptResponder``.
/// Prompts never carry passwords. The texts are presentation only (SWC-4.2 Decision): tests
/// assert ``kind`` and the answer given.
public struct SWCPrompt: Sendable, Hashable, CustomStringConvertible {
    /// The kind of prompt.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Save a new password (SWC-6.9).
        case add = "ADD"
        /// Replace a saved password.
        case update = "UPDATE"
        /// Delete a saved password.
        case delete = "DELETE"
        /// Choose a saved credential (the picker, SWC-7.3 step 7, SWC-7.4 step 5).
        case select = "SELECT"
        /// Save a passkey for the one candidate's account on ``SWCPrompt/domain`` (the relying
        /// party): ``SWCPromptAnswer/allow`` continues.
        case createPasskey = "CREATE_PASSKEY"
        /// Sign in with a passkey: a picker of the candidates' accounts; ``SWCPromptAnswer/allow``
        /// takes the first.
        case signInWithPasskey = "SIGN_IN_WITH_PASSKEY"

        /// Whether the prompt is a picker (``select``, ``signInWithPasskey``), answered with
        /// ``SWCPromptAnswer/choose(_:)``.
        public var isPicker: Bool { self == .select || self == .signInWithPasskey }
    }

    /// One credential offered by the picker: server, account and port, never the password.
    public struct Candidate: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The item's server.
        public var server: String
        /// The item's account.
        public var account: String
        /// The item's port, if any.
        public var port: Int?

        /// Creates a candidate.
        public init(server: String, account: String, port: Int? = nil) {
            self.server = server
            self.account = account
            self.port = port
        }

        public var description: String { "\(account) @ \(server)\(port.map { ":\($0)" } ?? "")" }
    }

    /// The kind.
    public var kind: Kind
    /// The app's display name (for a passkey sheet, the caller's: the app or the page's host).
    public var appName: String
    /// The domain: the parsed host for confirmations; for the picker, the requested domain; for a
    /// passkey sheet, the relying party ID.
    public var domain: String
    /// The picker's candidates, in the order shown; empty for password confirmations; for a
    /// passkey sheet, the relying party with each account (the new passkey's, or those offered).
    public var candidates: [Candidate]
    /// The profile the prompt belongs to (the texts differ).
    public var profile: SWCProfile

    /// Creates a prompt.
    public init(kind: Kind, appName: String, domain: String, candidates: [Candidate] = [], profile: SWCProfile = .legacy) {
        self.kind = kind
        self.appName = appName
        self.domain = domain
        self.candidates = candidates
        self.profile = profile
    }

    /// The title (current English strings of SWC-4.2).
    public var title: String {
        switch kind {
        case .add:
            return "Would you like to save this password in your iCloud Keychain to use with apps and websites on all your devices?"
        case .update:
            return "\u{201C}\(appName)\u{201D} Would Like to Update the Saved Password for \u{201C}\(domain)\u{201D}"
        case .delete:
            return "\u{201C}\(appName)\u{201D} Would Like to Delete the Saved Password for \u{201C}\(domain)\u{201D}"
        case .select:
            return "Select a Safari Saved Password to Use With \u{201C}\(appName)\u{201D}"
        case .createPasskey:
            return "Save a passkey for \u{201C}\(accounts.first ?? "")\u{201D} on \u{201C}\(domain)\u{201D}?"
        case .signInWithPasskey:
            return "Sign in to \u{201C}\(domain)\u{201D} with your passkey?"
        }
    }

    /// The candidates' accounts, in the order shown.
    public var accounts: [String] { candidates.map(\.account) }

    /// The message under the title.
    public var message: String {
        switch kind {
        case .select, .signInWithPasskey:
            return ""
        case .createPasskey:
            return "A passkey will be saved in your iCloud Keychain and available on all your devices."
        case .add, .update, .delete:
            return "Securely store your password in the Passwords app so it\u{2019}s filled automatically the next time you need it."
        }
    }

    /// The allow button ("Save Password", "Update Password", "Delete Password", "OK").
    public var allowButton: String {
        switch kind {
        case .add: return "Save Password"
        case .update: return "Update Password"
        case .delete: return "Delete Password"
        case .select: return "OK"
        case .createPasskey, .signInWithPasskey: return "Continue"
        }
    }

    /// The other button, "Not Now".
    public var otherButton: String { "Not Now" }

    public var description: String {
        var text = "\(kind.rawValue) \(appName) \(domain)"
        if kind.isPicker { text += " " + candidates.map(\.description).joined(separator: ", ") }
        return text
    }
}

/// An answer to a prompt (SWC-4.3).
public enum SWCPromptAnswer: Sendable, Hashable, CustomStringConvertible {
    /// The allow button: proceed.
    case allow
    /// "Not Now" (Apple's "never"): do not proceed, and set user approval to `denied`. In the
    /// picker, "Not Now" is ``cancel``.
    case notNow
    /// Dismissed, failed or timed out: do not proceed, change nothing.
    case cancel
    /// The picker's choice: the index into ``SWCPrompt/candidates``.
    case choose(Int)

    public var description: String {
        switch self {
        case .allow: return "allow"
        case .notNow: return "notNow"
        case .cancel: return "cancel"
        case .choose(let index): return "choose(\(index))"
        }
    }
}

/// Answers prompts: scripted answers, a fixed policy, or a terminal (SWC-4.1). The one way both
/// Shared Web Credentials (passwords) and `SWCredPasskeys` (passkey sheets) ask the user.
///
/// `SharedWebCredentials` asks one prompt at a time, in FIFO order (SWC-4.4), through
/// ``respond(to:)``, and waits without a time limit unless ``SWCConfiguration/promptTimeout`` is
/// set (SWC-3.5). An answer that does not fit the prompt (``SWCPromptAnswer/choose(_:)`` for a
/// confirmation, an index out of range, ``SWCPromptAnswer/allow`` for the picker) counts as
/// ``SWCPromptAnswer/cancel``.
///
/// The passkey authenticator shows its sheet between its checks and its write, inside one store
/// transaction, so it asks through ``answerNow(to:)``, which must not suspend. There
/// ``SWCPromptAnswer/notNow`` counts as ``SWCPromptAnswer/cancel``, and ``SWCPromptAnswer/allow``
/// on the sign-in sheet takes the first account.
public protocol SWCPromptResponder: Sendable {
    /// Returns the user's answer to `prompt`.
    func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer

    /// Returns the user's answer to `prompt` without suspending (a passkey sheet, asked inside a
    /// store transaction).
    ///
    /// **Decision:** the default answers ``SWCPromptAnswer/cancel``: a responder that can only
    /// wait (for a person in another task, for a test to answer) cannot answer there, and the
    /// sheet is dismissed rather than the store held while nothing can answer.
    func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer
}

extension SWCPromptResponder {
    /// Answers ``SWCPromptAnswer/cancel`` (see ``SWCPromptResponder/answerNow(to:)``).
    public func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer { .cancel }
}
