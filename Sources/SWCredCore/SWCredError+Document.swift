extension SWCredError {
    /// An error as swcred's JSON documents carry it (cli.md "Errors"):
    /// `{"code","status","domain","message"}`, with `status` and `domain` only where Apple defines
    /// them, and `name` only for a WebAuthn error (its `DOMException` name).
    package struct Document: Encodable, Sendable, Hashable {
        /// The code's name.
        package let code: String
        /// The Apple status, when Apple defines one.
        package let status: Int?
        /// The status's error domain.
        package let domain: String?
        /// The message.
        package let message: String
        /// The WebAuthn `DOMException` name of a passkey error.
        package let name: String?

        /// The document of `error`.
        package init(_ error: SWCredError, name: String? = nil) {
            code = error.code.name
            status = error.code.status
            domain = error.code.domain
            message = error.message
            self.name = name
        }
    }
}
