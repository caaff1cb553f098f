/// The entry point of the two executables that run swcred's commands (their `main.swift`):
/// `swcred`, without network code, and `swcred-fetch`, the same commands with HTTPS retrieval
/// installed, to which `swcred` hands the commands that fetch (``NetworkHandOff``).
package enum SWCredProgram {
    /// Runs the process's command line and exits with its status.
    package static func main() async {
        await SWCred.main()
    }
}
