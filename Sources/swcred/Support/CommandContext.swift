import SWCredStore
import SWCredCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command reads from and writes to its process: the three standard descriptors and the
/// environment. Every read of stdin, write to stdout or stderr, terminal check and environment
/// variable in `swcred` goes through ``current``.
///
/// A real process runs with ``process``. Tests run a command in process (``SWCred/execute(_:)``)
/// with pipes for the descriptors and an environment of their own, bound to the command's task
/// with `CommandContext.$current.withValue(…)`, so that many commands run side by side in one test
/// process (in the style of swiftly's `SwiftlyCoreContext`).
struct CommandContext: Sendable {
    /// The descriptor read as standard input.
    var standardInput: Int32
    /// The descriptor written as standard output.
    var standardOutput: Int32
    /// The descriptor written as standard error.
    var standardError: Int32
    /// The environment variables.
    var environment: [String: String]

    /// This process's own descriptors and environment.
    static let process = CommandContext(
        standardInput: 0, standardOutput: 1, standardError: 2, environment: StorePaths.processEnvironment)

    /// The context of the running command.
    @TaskLocal static var current: CommandContext = .process

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes all of `bytes` to `descriptor`, retrying on `EINTR`; a closed pipe or a full disk
    /// ends the write quietly (the exit status already tells the outcome).
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        FileBytes.write(bytes, to: descriptor)
    }
}
