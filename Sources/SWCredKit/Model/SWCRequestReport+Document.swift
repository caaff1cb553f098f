package import SWCredCore

/// What an app's completion handler received, as JSON: `{"error": null | {"code","status","domain","message"}}`.
package struct SWCCompletionDocument: Encodable, Sendable {
    /// The error, `null` on success.
    @ExplicitNull package var error: SWCredError.Document?

    /// The document of a completion that received `error`.
    package init(_ error: SWCredError?) {
        self.error = error.map { SWCredError.Document($0) }
    }
}

/// A request's result as `swcred request` and `batch` print it (cli.md):
/// `{"credentials":[{"server","account","password","port"}],"completion":{"error"}}`.
package struct SWCRequestDocument: Encodable, Sendable {
    /// One credential; `port` is `null` when it has none.
    package struct Credential: Encodable, Sendable {
        package let server: String
        package let account: String
        package let password: String
        @ExplicitNull package var port: Int?
    }

    /// The credentials the completion handler received.
    package let credentials: [Credential]
    /// What else it received.
    package let completion: SWCCompletionDocument

    /// The document of `credentials` with `error`.
    package init(credentials: [SharedWebCredential], error: SWCredError?) {
        self.credentials = credentials.map {
            Credential(server: $0.server, account: $0.account, password: $0.password, port: $0.port)
        }
        completion = SWCCompletionDocument(error)
    }
}
