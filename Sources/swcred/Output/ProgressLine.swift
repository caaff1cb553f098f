import ArgumentParser
import FoundationEssentials

/// `--progress auto|always|never`: whether a long-running command reports progress on stderr.
enum ProgressMode: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// On a terminal only (stderr is a TTY and `TERM` is not `dumb`).
    case auto
    /// Always: one plain line per step when stderr is not a terminal.
    case always
    /// Never.
    case never
}

/// Progress on stderr, never stdout (stdout keeps exactly the command's output, JSON or text).
///
/// On a terminal it is one line rewritten in place and erased when done; elsewhere (`always`
/// with a pipe or a file) it is one plain line per step, so a log keeps every step.
struct ProgressLine: Sendable {
    let enabled: Bool
    let live: Bool

    init(_ mode: ProgressMode) {
        let context = CommandContext.current
        let terminal = CommandContext.isTerminal(context.standardError) && context.environment["TERM"] != "dumb"
        switch mode {
        case .auto: enabled = terminal
        case .always: enabled = true
        case .never: enabled = false
        }
        live = enabled && terminal
    }

    /// Shows `text` as the current step.
    func show(_ text: String) {
        guard enabled else { return }
        Self.write(live ? "\r\u{1B}[2K" + text : text + "\n")
    }

    /// Erases the live line (nothing to do for plain lines).
    func finish() {
        if live { Self.write("\r\u{1B}[2K") }
    }

    private static func write(_ text: String) {
        CommandContext.write(Array(text.utf8), to: CommandContext.current.standardError)
    }
}
