/// Where a password or passphrase comes from. Never argv (cli.md "Conventions").
package enum SecretSource: Sendable, Equatable, CustomStringConvertible {
    /// Standard input (the reader's ``SecretReader/standardInput`` descriptor), read to its end.
    case standardInput
    /// A file; it must not be readable or writable by group or others when it is a regular file.
    case file(String)
    /// An inherited, already open descriptor, read to its end.
    case descriptor(Int32)
    /// The controlling terminal, with echo off.
    case terminal

    package var description: String {
        switch self {
        case .standardInput: return "standard input"
        case .file(let path): return "file \(path)"
        case .descriptor(let fd): return "descriptor \(fd)"
        case .terminal: return "terminal"
        }
    }
}
