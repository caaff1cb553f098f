import Foundation
import SWCredAssociation
import SWCredCore
import SWCredKit
import SWCredSecurity
import SWCredStore
import SWCredTesting
import Testing

@Suite("Errors (SWC-2) and prompts (SWC-4)")
struct ErrorAndPromptTests {
    @Test(
        "SWC-2.1 / SWC-2.2: errors bridge to NSError with Apple's domain, code and message",
        arguments: [
            (SWCredError.Code.invalidParameter, -50), (.unimplemented, -4), (.autoFillDisabled, -909),
            (.siteNotApproved, -25293), (.duplicateItem, -25299), (.itemNotFound, -25300),
            (.interactionNotAllowed, -25308), (.missingEntitlement, -34018), (.secInternal, -26276),
        ])
    func osStatusBridging(code: SWCredError.Code, status: Int) {
        let error: any Error = SWCredError(code, "message for \(code.name)")
        let bridged = error as NSError
        #expect(bridged.domain == NSOSStatusErrorDomain)
        #expect(bridged.code == status)
        #expect(bridged.localizedDescription == "message for \(code.name)")
    }

    @Test("SWC-2.2: a canceled current picker bridges to ASAuthorizationError 1001")
    func canceledBridging() {
        let bridged = SWCredError(.canceled, "canceled") as any Error as NSError
        #expect(bridged.domain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(bridged.code == 1001)
    }

    @Test("SWC-2.1: errSecInternal carries the store error as its underlying error")
    func underlying() {
        let store = SWCredError(.busy, "lock busy")
        let error = SWCredError(.secInternal, "failed", underlying: store)
        let underlying = error.nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.localizedDescription == "lock busy")
        #expect(error.nsError.code == -26276)
    }

    @Test("SWC-2.1: a swcred-only code bridges to the domain swcred, code 1, its name in the user info")
    func swcredOnlyBridge() {
        let error = SWCredError(.busy, "lock busy").nsError
        #expect(error.domain == "swcred")
        #expect(error.code == SWCredError.swcredBridgedCode)
        #expect(error.userInfo[SWCredError.codeNameKey] as? String == "busy")
    }

    @Test("SWC-4.2: prompt texts name the app and the domain; buttons as on the device")
    func texts() {
        let update = SWCPrompt(kind: .update, appName: "Example", domain: "example.com")
        #expect(update.title == "\u{201C}Example\u{201D} Would Like to Update the Saved Password for \u{201C}example.com\u{201D}")
        #expect(update.allowButton == "Update Password")
        #expect(update.otherButton == "Not Now")
        let delete = SWCPrompt(kind: .delete, appName: "Example", domain: "example.com")
        #expect(delete.title.contains("Would Like to Delete the Saved Password"))
        #expect(delete.allowButton == "Delete Password")
        let add = SWCPrompt(kind: .add, appName: "Example", domain: "example.com")
        #expect(add.allowButton == "Save Password")
        #expect(add.message.hasPrefix("Securely store your password"))
        let select = SWCPrompt(kind: .select, appName: "Example", domain: "example.com")
        #expect(select.title == "Select a Safari Saved Password to Use With \u{201C}Example\u{201D}")
    }

    @Test("SWC-4.1: prompts carry kind, app name, parsed host and candidates, never passwords")
    func promptContents() async throws {
        let fixture = try Fixture(answers: [.allow, .choose(0)])
        _ = await fixture.swc.add(fqdn: "EXAMPLE.com", account: "alice", password: "s3cret-sentinel")
        _ = await fixture.swc.request(fqdn: "example.com", account: nil)
        let prompts = fixture.user.prompts
        #expect(prompts.map(\.kind) == [.add, .select])
        #expect(prompts.allSatisfy { $0.appName == "Example" && $0.domain == "example.com" })
        #expect(prompts[1].candidates == [SWCPrompt.Candidate(server: "example.com", account: "alice")])
        #expect(!String(describing: prompts).contains("s3cret-sentinel"))
        #expect(fixture.user.entries.map(\.answer) == [.allow, .choose(0)])
    }

    @Test("SWC-4.3: answers that do not fit the prompt count as cancel")
    func misfitAnswers() async throws {
        let fixture = try Fixture(answers: [.choose(0)])
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.outcome == .declined)
        #expect(report.answer == .cancel)
        #expect(fixture.keychain.approval(appID: Fixture.appID, domain: "example.com")?.user == .unspecified)
    }

    @Test("SWC-4.5: scripted answers that run out answer cancel")
    func exhausted() async throws {
        let fixture = try Fixture(answers: [])
        let report = await fixture.swc.add(fqdn: "example.com", account: "alice", password: "pw")
        #expect(report.outcome == .declined)
        #expect(report.completionError == nil)
    }

    @Test("Secrets never appear in descriptions of credentials and items")
    func redaction() throws {
        let credential = SharedWebCredential(server: "example.com", account: "alice", password: "s3cret-sentinel")
        #expect(!String(describing: credential).contains("s3cret"))
        #expect(!String(reflecting: credential).contains("s3cret"))
        let item = try InternetPasswordItem.sharedWebCredential(
            host: "example.com", account: "alice", port: nil, password: "s3cret-sentinel")
        #expect(!String(describing: item).contains("s3cret"))
    }

    @Test("SWC-6.5 / AD-2.3: webcredentials entries parse host, port, wildcard and modes; malformed ones do not")
    func entries() throws {
        let entry = try #require(WebCredentialsEntry(parsing: "WEBCREDENTIALS:*.Example.com:8443?mode=Developer+managed"))
        #expect(entry.host == "example.com")
        #expect(entry.port == 8443)
        #expect(entry.wildcard)
        #expect(entry.modes == [.developer, .managed])
        for bad in ["webcredentials:", "webcredentials:*.com", "webcredentials:example.com/", "webcredentials:localhost",
                    "webcredentials:exa_mple.com", "webcredentials:example.com:0", "webcredentials:a..com",
                    "applinks:example.com", "webcredentials:user@example.com", "webcredentials:exämple.com"] {
            #expect(WebCredentialsEntry(parsing: bad) == nil, "\(bad)")
        }
        #expect(WebCredentialsEntry(parsing: "webcredentials:localhost?mode=developer") != nil)
    }
}
