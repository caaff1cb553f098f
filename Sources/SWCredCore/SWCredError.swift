/// The one public error type of swcred.
///
/// Every failure carries a stable ``Code``: its `name` is the JSON `"code"` string of
/// `spec/cli.md`, and `status` / `domain` the Apple error that applies, when one does. The CLI's
/// exit statuses are the CLI's own table (`swcred`'s `ExitStatus`): a library code carries none. Codes are compared by name only, so adding codes breaks nobody.
///
/// Codes are declared as static members in extensions of ``Code`` next to the module that
/// raises them (`SWCredError.Code.wrongKey` lives with the store, `.malformedAASA` with the
/// association parser), and never renamed or renumbered once released.
///
/// Messages never contain secrets: no passwords, passphrases, keys or plaintext fragments.
public struct SWCredError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// Which code this is, from the closed set of ``Name``s.
        package let kind: Name
        /// The Apple status code (`OSStatus` or `ASAuthorizationError` code), when Apple defines one.
        public let status: Int?
        /// The error domain that goes with ``status``: `NSOSStatusErrorDomain` for OSStatus codes.
        public let domain: String?

        /// The JSON `"code"` string, for example `itemNotFound`.
        public var name: String { kind.rawValue }

        /// Creates a code. Used only to declare static members, in swcred's own modules.
        package init(_ kind: Name, status: Int? = nil, domain: String? = nil) {
            self.kind = kind
            self.status = status
            self.domain = domain ?? (status == nil ? nil : SWCredError.osStatusDomain)
        }

        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.kind == rhs.kind }
        public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
        public var description: String { name }
    }

    /// `NSOSStatusErrorDomain`, the domain of every OSStatus error.
    package static let osStatusDomain = "NSOSStatusErrorDomain"
    /// The domain of `ASAuthorizationError`.
    package static let authorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"

    /// What went wrong, as a stable code.
    public let code: Code
    /// A sentence for a person. Never contains secret material.
    public let message: String
    /// An optional underlying error (for example the store error under `errSecInternal`).
    public let underlying: Box?
    /// Where the error was created (for bug reports; not part of equality).
    public let file: String
    /// Where the error was created (for bug reports; not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        underlying: SWCredError? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying.map(Box.init)
        self.file = file
        self.line = line
    }

    /// An indirect holder so that an error can carry another.
    public final class Box: Sendable, Hashable {
        public let error: SWCredError
        init(_ error: SWCredError) { self.error = error }
        public static func == (lhs: Box, rhs: Box) -> Bool { lhs.error == rhs.error }
        public func hash(into hasher: inout Hasher) { hasher.combine(error) }
    }

    public static func == (lhs: SWCredError, rhs: SWCredError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "\(code.name): \(message)" }

    // NSError bridging (spec/shared-web-credentials.md SWC-2.1): `error as NSError` reads these
    // `Error` requirements, so they must be witnessed here, where the conformance is declared.
    // OSStatus codes bridge to `NSOSStatusErrorDomain` / status, `canceled` to
    // `ASAuthorizationError` 1001; swcred-only codes to the domain `swcred` with code
    // ``swcredBridgedCode`` (the code's name is in the message's error document, not in a number).
    // The message is supplied by SWCredKit's `LocalizedError` conformance.
    public var _domain: String { code.domain ?? "swcred" }
    public var _code: Int { code.status ?? Self.swcredBridgedCode }

    /// The `NSError` code of every swcred-only code (domain `swcred`): 1. Tell them apart by
    /// ``Code/name``, which SWCredKit's `nsError` also carries in its user info.
    package static let swcredBridgedCode = 1
}

// MARK: - Codes shared by every module

extension SWCredError.Code {
    /// An unexpected internal failure (exit 1).
    public static let internalError = Self(.internalError)
    /// Command-line usage error (exit 64).
    public static let usage = Self(.usage)
    /// Malformed input data: JSON, plist, AASA, rules (exit 65).
    public static let malformedInput = Self(.malformedInput)
    /// An input file is missing or unreadable (exit 66).
    public static let fileNotFound = Self(.fileNotFound)
    /// Invalid parameter, `errSecParam` -50 (exit 50).
    public static let invalidParameter = Self(.invalidParameter, status: -50)
    /// Interaction required but not allowed, `errSecInteractionNotAllowed` -25308 (exit 29).
    public static let interactionNotAllowed = Self(.interactionNotAllowed, status: -25308)
    /// A limit was exceeded (exit 27).
    public static let limitExceeded = Self(.limitExceeded, status: -25302)
    /// An I/O system call failed; the message names the step and errno (exit 74).
    public static let ioFailure = Self(.ioFailure, status: -36)
}
