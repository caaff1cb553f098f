import SWCredCore
import SWCredStore

/// Where a document of secrets goes (`export`, `passkey export`; cli.md): an `-o` file created
/// 0600 and never overwritten without `--force` (`CredentialExport.write`), else stdout, which is
/// used only when it is not a terminal (29). The one home of that rule for both commands.
enum SecretDocumentOutput {
    /// Refuses a terminal as the destination before anything is read.
    /// - Throws: `interactionNotAllowed` (29) naming `what` is refused.
    static func refuseTerminal(output: String?, what: String) throws(SWCredError) {
        if output == nil && CommandContext.isTerminal(CommandContext.current.standardOutput) {
            throw SWCredError(
                .interactionNotAllowed, "refusing to print \(what) on a terminal; give -o FILE or redirect stdout")
        }
    }

    /// Writes `bytes` to `output`, or to stdout without one (the caller wipes them); `written`
    /// reports a file write (the `--format json` result or the stderr line).
    static func deliver(
        _ bytes: [UInt8], to output: String?, force: Bool, written: (String) -> Void
    ) throws(SWCredError) {
        if let output {
            try CredentialExport.write(bytes, toFile: output, replace: force)
            written(output)
        } else {
            CommandContext.write(bytes, to: Console.Stream.standardOutput.descriptor)
        }
    }
}
