import Dispatch
import SWCredCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows prompts and the picker on the controlling terminal and reads the answer from it
/// (SWC-4.1): `swcred add --user ask`, `swcred request --pick ask`. Prompts go to `/dev/tty`,
/// never to standard output.
///
/// **Decision (SWC-4.5):** without a terminal the answer is `cancel`, said through `report`;
/// nothing ever waits for input that cannot come. An empty line or end of input is `cancel` too.
package struct SWCTerminalResponder: SWCPromptResponder {
    /// Says why a prompt was answered without the user (the command prints it on stderr).
    package let report: @Sendable (String) -> Void

    package init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    package func respond(to prompt: SWCPrompt) async -> SWCPromptAnswer {
        let report = self.report
        return await withCheckedContinuation { continuation in
            // Terminal reads block: keep them off Swift's cooperative pool.
            DispatchQueue.global().async { continuation.resume(returning: Self.ask(prompt, report: report)) }
        }
    }

    /// Asks on the terminal from the calling thread (a passkey sheet, inside the store
    /// transaction: the store stays locked while the user answers, as the command waits anyway).
    package func answerNow(to prompt: SWCPrompt) -> SWCPromptAnswer {
        Self.ask(prompt, report: report)
    }

    private static func ask(_ prompt: SWCPrompt, report: @Sendable (String) -> Void) -> SWCPromptAnswer {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard tty >= 0 else {
            report("no terminal to show the \(prompt.kind.rawValue) prompt; answering cancel")
            return .cancel
        }
        defer { close(tty) }
        var text = "\n\(prompt.title)\n"
        if !prompt.message.isEmpty { text += "\(prompt.message)\n" }
        if prompt.kind.isPicker {
            for (index, candidate) in prompt.candidates.enumerated() {
                text += "  \(index + 1)) \(candidate.account) (\(candidate.server)\(candidate.port.map { ":\($0)" } ?? ""))\n"
            }
            text += "Number to use, or Enter for \(prompt.otherButton): "
        } else {
            let key = prompt.kind == .createPasskey ? "c" : "s"
            text += "[\(key)] \(prompt.allowButton)  [n] \(prompt.otherButton)  [Enter] dismiss: "
        }
        FileBytes.write(Array(text.utf8), to: tty)
        let line = Self.readLine(tty).trimmingWhitespace().lowercased()
        if prompt.kind.isPicker {
            guard let number = Int(line), prompt.candidates.indices.contains(number - 1) else { return .cancel }
            return .choose(number - 1)
        }
        switch line {
        case "s", "save", "y", "yes", "allow", "u", "update", "d", "delete", "c", "continue": return .allow
        case "n", "no", "not now", "never": return .notNow
        default: return .cancel
        }
    }

    /// One line of at most 256 bytes (more is ignored), without its line ending.
    private static func readLine(_ fd: Int32) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            if line.count < 256, byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        return String(decoding: line, as: UTF8.self)
    }
}
