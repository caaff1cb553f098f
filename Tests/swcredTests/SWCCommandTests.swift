import Foundation
import Testing

/// A private home with an app (entitlements JSON) and an offline site folder for `--aasa-dir`.
private struct SWCSandbox {
    static let appID = "ABCDE12345.com.example.app"
    let home: URL
    let sites: URL
    let entitlements: String

    init(domains: [String] = ["webcredentials:example.com", "webcredentials:shop.example.com:8443"],
         approving: [String] = ["example.com", "shop.example.com:8443"]) throws {
        home = try CLI.temporaryDirectory("swc-cli")
        sites = home.appendingPathComponent("sites")
        for site in approving {
            let folder = sites.appendingPathComponent(site).appendingPathComponent(".well-known")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(#"{"webcredentials":{"apps":["\#(Self.appID)"]}}"#.utf8)
                .write(to: folder.appendingPathComponent("apple-app-site-association"))
        }
        let file = home.appendingPathComponent("app.entitlements.json")
        let list = domains.map { "\"\($0)\"" }.joined(separator: ",")
        try Data(#"{"application-identifier":"\#(Self.appID)","com.apple.developer.associated-domains":[\#(list)]}"#.utf8)
            .write(to: file)
        entitlements = file.path
    }

    /// Runs swcred in the sandbox, optionally under a launcher (setsid, script).
    func run(_ arguments: [String], stdin: String? = nil, launcher: [String] = []) async throws -> CLI.Result {
        try await CLI.run(arguments, stdin: stdin, home: home, launcher: launcher)
    }

    /// The app options, refreshing the records from the offline sites.
    var app: [String] { ["--entitlements", entitlements, "--aasa-dir", sites.path] }
    /// The app options without a source (the stored records are used).
    var appOnly: [String] { ["--entitlements", entitlements] }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }
}

@Suite("swcred add (app path), request, settings")
struct SWCCommandTests {
    @Test("cli add app path: allow adds with Apple's attributes; JSON operation, item and a null completion")
    func addAllow() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let added = try await box.run(["add", "Example.COM", "alice", "--password-stdin", "--format", "json"] + box.app, stdin: "pw1\n")
        #expect(added.status == 0, "\(added.stderr)")
        let json = try added.json()
        #expect(json["schema"] as? String == "swcred/1")
        #expect(json["status"] as? Int == 0)
        #expect(json["operation"] as? String == "added")
        let item = try #require(json["item"] as? [String: Any])
        #expect(item["server"] as? String == "example.com")
        #expect(item["account"] as? String == "alice")
        #expect(item["port"] is NSNull)
        let completion = try #require(json["completion"] as? [String: Any])
        #expect(completion["error"] is NSNull)
        let list = try await box.run(["list", "--format", "json"])
        #expect(list.stdout.contains("example.com (alice)"))
        #expect(!list.stdout.contains("pw1"))
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(json, against: "add") == [])
    }

    @Test("cli SWC-6.10: a declined prompt reports success to the app but exits 13", arguments: ["not-now", "cancel"])
    func addDeclined(answer: String) async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let result = try await box.run(
            ["add", "example.com", "alice", "--password-stdin", "--user", answer, "--format", "json"] + box.app, stdin: "pw")
        #expect(result.status == 13)
        let json = try result.json()
        #expect(json["operation"] as? String == "declined")
        #expect((json["completion"] as? [String: Any])?["error"] is NSNull)
        let request = try await box.run(["request", "example.com"] + box.appOnly)
        #expect(request.status == 44)
    }

    @Test("cli SWC-6.9: update, unchanged, delete and none through the app path")
    func addBranches() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        #expect(try await box.run(["add", "example.com", "alice", "--password-stdin"] + box.app, stdin: "one").status == 0)
        let updated = try await box.run(["add", "example.com", "alice", "--password-stdin", "--format", "json"] + box.appOnly, stdin: "two")
        #expect(try updated.json()["operation"] as? String == "updated")
        let unchanged = try await box.run(["add", "example.com", "alice", "--password-stdin", "--format", "json"] + box.appOnly, stdin: "two")
        #expect(try unchanged.json()["operation"] as? String == "unchanged")
        let request = try await box.run(["request", "example.com"] + box.appOnly)
        #expect(request.stdout == "alice\ttwo\n")
        let declinedDelete = try await box.run(["add", "example.com", "alice", "--delete", "--user", "cancel"] + box.appOnly)
        #expect(declinedDelete.status == 13)
        let deleted = try await box.run(["add", "example.com", "alice", "--delete", "--format", "json"] + box.appOnly)
        #expect(try deleted.json()["operation"] as? String == "deleted")
        let none = try await box.run(["add", "example.com", "alice", "--delete", "--format", "json"] + box.appOnly)
        #expect(none.status == 0)
        #expect(try none.json()["operation"] as? String == "none")
    }

    @Test("cli exit codes 11, 12, 14, 45, 50 for the failed checks, with the OSStatus in the JSON error")
    func addFailures() async throws {
        let box = try SWCSandbox(approving: ["shop.example.com:8443"])
        defer { box.cleanUp() }
        // 11: not in the entitlement.
        let notEntitled = try await box.run(["add", "other.com", "alice", "--password-stdin", "--format", "json"] + box.app, stdin: "pw")
        #expect(notEntitled.status == 11)
        let error11 = try notEntitled.errorJSON()
        #expect(error11["status"] as? Int == -34018)
        #expect(error11["domain"] as? String == "NSOSStatusErrorDomain")
        // 12: the site does not list the app.
        let notApproved = try await box.run(["add", "example.com", "alice", "--password-stdin", "--format", "json"] + box.appOnly, stdin: "pw")
        #expect(notApproved.status == 12)
        #expect(try notApproved.errorJSON()["status"] as? Int == -25293)
        // A ported entry approved by its own file works.
        let ported = try await box.run(["add", "shop.example.com:8443", "alice", "--password-stdin"] + box.appOnly, stdin: "pw")
        #expect(ported.status == 0, "\(ported.stderr)")
        // 45: "Passwords not saved" for the host.
        #expect(try await box.run(["add", "shop.example.com:8443", "--never-save"]).status == 0)
        let negative = try await box.run(["add", "shop.example.com:8443", "bob", "--password-stdin", "--format", "json"] + box.appOnly, stdin: "pw")
        #expect(negative.status == 45)
        #expect(try negative.errorJSON()["status"] as? Int == -25299)
        // 50: an unparsable domain.
        let unparsable = try await box.run(["add", "*.example.com", "bob", "--password-stdin"] + box.appOnly, stdin: "pw")
        #expect(unparsable.status == 50)
        // 14: AutoFill off.
        #expect(try await box.run(["settings", "--autofill", "off"]).status == 0)
        let autofill = try await box.run(["add", "shop.example.com:8443", "carol", "--password-stdin", "--format", "json"] + box.appOnly, stdin: "pw")
        #expect(autofill.status == 14)
        #expect(try autofill.errorJSON()["status"] as? Int == -909)
    }

    @Test("cli request: text account<TAB>password, JSON credentials with the real server and port")
    func request() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        #expect(try await box.run(["add", "shop.example.com:8443", "alice", "--password-stdin"] + box.app, stdin: "s3cret").status == 0)
        let text = try await box.run(["request"] + box.appOnly)
        #expect(text.status == 0)
        #expect(text.stdout == "alice\ts3cret\n")
        let json = try await box.run(["request", "--format", "json"] + box.appOnly).json()
        let credential = try #require((json["credentials"] as? [[String: Any]])?.first)
        #expect(credential["server"] as? String == "shop.example.com")
        #expect(credential["account"] as? String == "alice")
        #expect(credential["password"] as? String == "s3cret")
        #expect(credential["port"] as? Int == 8443)
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(json, against: "request") == [])
        let current = try await box.run(["request", "--profile", "current", "--format", "json"] + box.appOnly).json()
        let echoed = try #require((current["credentials"] as? [[String: Any]])?.first)
        #expect(echoed["server"] as? String == "example.com")  // the first webcredentials entry, verbatim
        #expect(echoed["port"] is NSNull)
        // SWC-1.2: the profile can also come from the environment.
        let viaEnvironment = try await CLI.run(
            ["request", "--format", "json"] + box.appOnly, environment: ["SWCRED_PROFILE": "current"], home: box.home)
        #expect(((try viaEnvironment.json()["credentials"] as? [[String: Any]])?.first?["server"] as? String) == "example.com")
        let badProfile = try await CLI.run(["request"] + box.appOnly, environment: ["SWCRED_PROFILE": "future"], home: box.home)
        #expect(badProfile.status == 64)
    }

    @Test("cli request: a canceled picker exits 13 (legacy: no error; current: 1001); nothing found exits 44")
    func requestCancel() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let empty = try await box.run(["request", "example.com", "--format", "json"] + box.app)
        #expect(empty.status == 44)
        #expect(try empty.errorJSON()["status"] as? Int == -25300)
        #expect(try await box.run(["add", "example.com", "alice", "--password-stdin"] + box.appOnly, stdin: "pw").status == 0)
        let legacy = try await box.run(["request", "--pick", "cancel", "--format", "json"] + box.appOnly)
        #expect(legacy.status == 13)
        let legacyJSON = try legacy.json()
        #expect((legacyJSON["credentials"] as? [Any])?.isEmpty == true)
        #expect((legacyJSON["completion"] as? [String: Any])?["error"] is NSNull)
        let current = try await box.run(["request", "--pick", "cancel", "--profile", "current", "--format", "json"] + box.appOnly)
        #expect(current.status == 13)
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(legacyJSON, against: "request") == [])
        #expect(try validator.validate(try current.json(), against: "request") == [])
        #expect(try validator.validate(try empty.errorJSONDocument(), against: "error") == [])
        let error = try #require((try current.json()["completion"] as? [String: Any])?["error"] as? [String: Any])
        #expect(error["status"] as? Int == 1001)
        #expect(error["domain"] as? String == "com.apple.AuthenticationServices.AuthorizationError")
        // --pick ACCOUNT chooses that account; one the picker does not offer is a usage error
        // naming the offered accounts (issue 28), not a user who canceled.
        #expect(try await box.run(["add", "example.com", "bob", "--password-stdin"] + box.appOnly, stdin: "pw2").status == 0)
        #expect(try await box.run(["request", "--pick", "bob"] + box.appOnly).stdout == "bob\tpw2\n")
        let unknown = try await box.run(["request", "--pick", "zoe"] + box.appOnly)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("'bob'"))
    }

    @Test("cli add --generate saves a password in SecCreateSharedWebCredentialPassword's format")
    func generate() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let added = try await box.run(["add", "example.com", "alice", "--generate"] + box.app)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(!added.stdout.contains("-"))  // never printed
        let line = try await box.run(["request", "example.com"] + box.appOnly).stdout
        let password = line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .newlines) } ?? ""
        let groups = password.split(separator: "-", omittingEmptySubsequences: false)
        #expect(groups.count == 4 && groups.allSatisfy { $0.count == 3 })
    }

    @Test("cli add --generate on the browser path saves a strong password (or one for --rules) and prints none")
    func generateBrowserPath() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let added = try await box.run(["add", "example.com", "alice", "--generate", "--rules", "required: digit; minlength: 12; maxlength: 12;"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await box.run(["add", "example.com", "bob", "--generate"]).status == 0)
        #expect(try await box.run(["add", "example.com", "carol", "--generate", "--password-stdin"], stdin: "x").status == 64)
        #expect(try await box.run(["add", "example.com", "carol", "--rules", "required: digit;", "--password-stdin"], stdin: "x").status == 64)
        // Read them back through the app path.
        try await box.run(["request", "example.com", "--account", "alice", "--format", "json"] + box.app).json()
            .forEachCredential { password in
                #expect(password.count == 12 && password.allSatisfy(\.isNumber))
            }
        try await box.run(["request", "example.com", "--account", "bob", "--format", "json"] + box.appOnly).json()
            .forEachCredential { password in
                #expect(password.count == 20 && password.split(separator: "-").count == 3)  // xxxxxx-xxxxxx-xxxxxx
            }
    }

    @Test("cli SWC-4.5: --pick ask / --user ask without a terminal answer cancel and say so; nothing waits",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid")))
    func askWithoutTerminal() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        #expect(try await box.run(["add", "example.com", "alice", "--password-stdin"] + box.app, stdin: "pw").status == 0)
        // setsid: a new session without a controlling terminal, whatever the test runner has.
        let request = try await box.run(["request", "--pick", "ask"] + box.appOnly, launcher: ["/usr/bin/setsid", "--wait"])
        #expect(request.status == 13)
        #expect(request.stderr.contains("no terminal"))
        let add = try await box.run(
            ["add", "example.com", "bob", "--generate", "--user", "ask"] + box.appOnly, launcher: ["/usr/bin/setsid", "--wait"])
        #expect(add.status == 13)
        #expect(add.stderr.contains("no terminal"))
    }

    @Test("cli SWC-4.1: --pick ask shows the picker on the terminal and reads the choice",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func askOnTerminal() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        #expect(try await box.run(["add", "example.com", "alice", "--password-stdin"] + box.app, stdin: "pw-a").status == 0)
        #expect(try await box.run(["add", "example.com", "bob", "--password-stdin"] + box.appOnly, stdin: "pw-b").status == 0)
        // script(1) gives the command a pseudo-terminal and forwards our stdin to it; the binary and
        // its arguments arrive as "$@" and are joined into script's command string.
        let viaScript = ["/bin/sh", "-c", #"exec /usr/bin/script -qefc "$*" /dev/null"#, "sh"]
        let result = try await box.run(["request", "--pick", "ask"] + box.appOnly, stdin: "2\n", launcher: viaScript)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Select a Safari Saved Password"))
        // Both items carry the comment `default`: each is inserted at the head, so bob comes first (SWC-7.3 step 5).
        #expect(result.stdout.contains("1) bob"))
        #expect(result.stdout.contains("2) alice"))
        #expect(result.stdout.contains("alice\tpw-a"))
    }

    @Test("cli app path on a passphrase store: the passphrase from stdin is read once per command")
    func passphraseStore() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let passphraseFile = box.home.appendingPathComponent("pp")
        try Data("correct horse\n".utf8).write(to: passphraseFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphraseFile.path)
        let store = ["--store", box.home.appendingPathComponent("p/keychain.swcred").path]
        #expect(try await box.run(["init", "--kdf", "test", "--passphrase-file", passphraseFile.path] + store).status == 0)
        let added = try await box.run(
            ["add", "example.com", "alice", "--generate", "--passphrase-stdin"] + store + box.app, stdin: "correct horse\n")
        #expect(added.status == 0, "\(added.stderr)")
        let request = try await box.run(["request", "--passphrase-stdin"] + store + box.appOnly, stdin: "correct horse\n")
        #expect(request.status == 0, "\(request.stderr)")
        #expect(request.stdout.hasPrefix("alice\t"))
        let wrong = try await box.run(["request", "--passphrase-stdin"] + store + box.appOnly, stdin: "wrong\n")
        #expect(wrong.status == 20)
    }

    @Test("cli settings: JSON shape, changes persist")
    func settings() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        let fresh = try await box.run(["settings", "--format", "json"]).json()
        #expect(fresh["autoFill"] as? Bool == true)
        #expect(try await box.run(["settings", "--developer-mode", "on", "--autofill", "off"]).status == 0)
        let changed = try await box.run(["settings", "--format", "json"]).json()
        #expect(changed["autoFill"] as? Bool == false)
        #expect(changed["developerMode"] as? Bool == true)
        #expect(changed["managedDevice"] as? Bool == false)
        #expect(try await box.run(["settings", "--autofill", "maybe"]).status == 64)
    }

    @Test("cli SWC-3.4 / store.md §7: 12 concurrent app-path add processes of distinct accounts all land")
    func concurrentProcesses() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        // Create the store and the records first, so that the processes race only on writes.
        #expect(try await box.run(["settings", "--autofill", "on"] + []).status == 0)
        #expect(try await box.run(["request", "example.com"] + box.app).status == 44)
        let n = 12
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<n {
                group.addTask {
                    try await box.run(
                        ["add", "example.com", "user\(index)", "--password-stdin", "--lock-timeout", "30"] + box.appOnly,
                        stdin: "pw\(index)"
                    ).status
                }
            }
            var all: [Int32] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses == Array(repeating: 0, count: n))
        let list = try await box.run(["list", "--format", "json"])
        for index in 0..<n { #expect(list.stdout.contains("example.com (user\(index))")) }
    }

    @Test("cli usage: app-path flags need the app; one password source")
    func usage() async throws {
        let box = try SWCSandbox()
        defer { box.cleanUp() }
        #expect(try await box.run(["add", "example.com", "alice", "--delete"]).status == 64)
        #expect(try await box.run(["add", "example.com", "alice", "--delete", "--generate"] + box.appOnly).status == 64)
        #expect(try await box.run(["add", "example.com", "alice", "--delete", "--user", "maybe"] + box.appOnly).status == 64)
        #expect(try await box.run(["request"]).status == 64)
    }
}

extension CLI.Result {
    /// The whole JSON error document on stderr (`{"schema","error":{…}}`).
    fileprivate func errorJSONDocument() throws -> [String: Any] {
        let line = stderr.split(separator: "\n").last.map(String.init) ?? ""
        guard let document = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw CLI.CLIError("stderr has no JSON document: \(stderr)")
        }
        return document
    }
}

extension Dictionary where Key == String, Value == Any {
    /// Calls `body` with the password of each credential of a `request` JSON document, and fails
    /// the test when there is none.
    fileprivate func forEachCredential(_ body: (String) -> Void) {
        let credentials = (self["credentials"] as? [[String: Any]]) ?? []
        #expect(!credentials.isEmpty)
        for credential in credentials { body(credential["password"] as? String ?? "") }
    }
}
