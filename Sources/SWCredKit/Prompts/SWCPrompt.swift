/// A prompt shown to the user (SWC-4.1): a confirmation (`ADD`, `UPDATE`, `DELETE`) or the
/// credential picker (`SELECT`).
///
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
    /// The app's display name.
    public var appName: String
    /// The domain: the parsed host for confirmations; for the picker, the requested domain.
    public var domain: String
    /// The picker's candidates, in the order shown; empty for confirmations.
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
        }
    }

    /// The message under the title.
    public var message: String {
        switch kind {
        case .select:
            return ""
        default:
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
        }
    }

    /// The other button, "Not Now".
    public var otherButton: String { "Not Now" }

    public var description: String {
        var text = "\(kind.rawValue) \(appName) \(domain)"
        if kind == .select { text += " " + candidates.map(\.description).joined(separator: ", ") }
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

/// Answers prompts: scripted answers, a fixed policy, or a terminal (SWC-4.1).
///
/// `SharedWebCredentials` asks one prompt at a time, in FIFO order (SWC-4.4), and waits without
/// a time limit unless ``SWCConfiguration/promptTimeout`` is set (SWC-3.5). An answer that does not
/// fit the prompt (``SWCPromptAnswer/choose(_:)`` for a confirmation, an index out of range,
/// ``SWCPromptAnswer/allow`` for the picker) counts as ``SWCPromptAnswer/cancel``.
public protocol SWCPromptResponder: Sendable {
    /// Returns the user's answer to `prompt`.
    func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer
}
