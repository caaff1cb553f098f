import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
import Testing

/// The JSON documents of an add and a request (``SWCAddDocument``, ``SWCRequestDocument``), as
/// `swcred add`, `swcred request` and `swcred batch` print them (cli.md).
@Suite("Result documents of add and request")
struct ResultDocumentTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("cli.md add: a browser-path save has status 0, a null port for port 0, and completion.error null")
    func browserPathAdd() throws {
        let item = InternetPasswordItem.websitePassword(
            server: "tacos.example", account: "alice", port: 0, secret: Array("pw".utf8))
        #expect(try Self.json(SWCAddDocument(operation: .updated, item: item)) == #"{"completion":{"error":null},"#
            + #""item":{"account":"alice","port":null,"server":"tacos.example"},"operation":"updated","status":0}"#)
        let withPort = InternetPasswordItem.websitePassword(
            server: "tacos.example", account: "bob", port: 8443, secret: Array("pw".utf8))
        #expect(try Self.json(SWCItemDocument(withPort)) == #"{"account":"bob","port":8443,"server":"tacos.example"}"#)
    }

    @Test("cli.md request: credentials with their ports (null when none) and the completion's error")
    func request() throws {
        let credentials = [
            SharedWebCredential(server: "tacos.example", account: "alice", password: "pw"),
            SharedWebCredential(server: "tacos.example", account: "bob", password: "pw2", port: 8443),
        ]
        let document = SWCRequestDocument(credentials: credentials, error: nil)
        #expect(try Self.json(document) == #"{"completion":{"error":null},"#
            + #""credentials":[{"account":"alice","password":"pw","port":null,"server":"tacos.example"},"#
            + #"{"account":"bob","password":"pw2","port":8443,"server":"tacos.example"}]}"#)
        let canceled = SWCredError(.canceled, "the user canceled")
        let refused = SWCRequestDocument(credentials: [], error: canceled)
        #expect(refused.completion.error?.code == "canceled")
        #expect(refused.completion.error?.status == SWCredError.Code.canceled.status)
        #expect(refused.completion.error?.domain == SWCredError.Code.canceled.domain)
        #expect(refused.completion.error?.name == nil)
    }
}
