package import SWCredCore
package import SWCredStore

/// An add's result as `swcred add` and `batch` print it (cli.md):
/// `{"status","operation","item":{"server","account","port"},"completion":{"error"}}`.
/// `completion` is what the app's completion handler received (always `{"error":null}` on the
/// browser path, which has none), `status` its OSStatus (0 for nil).
package struct SWCAddDocument: Encodable, Sendable {
    package let status: Int
    package let operation: String
    package let item: SWCItemDocument
    package let completion: SWCCompletionDocument

    /// A browser-path save (`operation`: `added`, `updated` or `unchanged`) of `item`.
    package init(operation: StoreContents.WebsitePasswordSave, item: InternetPasswordItem) {
        status = 0
        self.operation = operation.rawValue
        self.item = SWCItemDocument(item)
        completion = SWCCompletionDocument(nil)
    }

    /// An app-path add (`SecAddSharedWebCredential`).
    package init(report: SWCAddReport) {
        status = report.completionError?.code.status ?? 0
        operation = report.outcome.rawValue
        item = SWCItemDocument(server: report.server ?? "", account: report.account ?? "", port: report.port)
        completion = SWCCompletionDocument(report.completionError)
    }
}

/// An item as `add` and `delete` name it: `{"server","account","port"}`, the port `null` when
/// unspecified (0 in the keychain).
package struct SWCItemDocument: Encodable, Sendable {
    package let server: String
    package let account: String
    @ExplicitNull package var port: Int?

    /// The document of an item named by its attributes.
    package init(server: String, account: String, port: Int?) {
        self.server = server
        self.account = account
        self.port = port
    }

    /// The document of `item`.
    package init(_ item: InternetPasswordItem) {
        self.init(server: item.server, account: item.account, port: item.port == 0 ? nil : Int(item.port))
    }
}
