import Foundation
import Testing

@Suite("swcred passkey export and import (cli.md Browser tests)")
struct PasskeyTransferCommandTests {
    @Test("cli Browser tests: register, export to playwright and cdp in exact shapes, import into a fresh store at N, assert N+1; py_webauthn accepts N+1 and rejects a repeat")
    func handOver() async throws {
        let a = try TransferBox()
        let b = try TransferBox()
        let c = try TransferBox()
        defer { [a, b, c].forEach { $0.cleanUp() } }
        let registered = try await a.register("alice")
        #expect(registered.status == 0, "\(registered.stderr)")
        let id = try #require(try registered.json()["id"] as? String)
        let idBytes = try #require(fromB64url(id))

        // Playwright storage state, -o created 0600.
        let pw = try await a.run(["passkey", "export", "--to", "playwright", "-o", a.path("pw.json"), "--format", "json"])
        #expect(pw.status == 0, "\(pw.stderr)")
        var validator = JSONSchemaValidator.repository
        #expect(try validator.validate(try pw.json(), against: "passkey-transfer") == [])
        let mode = try FileManager.default.attributesOfItem(atPath: a.path("pw.json"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let state = try #require(try jsonAny(try a.read("pw.json")) as? [String: Any])
        #expect(Set(state.keys) == ["cookies", "origins", "credentials"])
        #expect((state["cookies"] as? [Any])?.isEmpty == true && (state["origins"] as? [Any])?.isEmpty == true)
        let credentials = try #require(state["credentials"] as? [[String: Any]])
        #expect(credentials.count == 1)
        let pwCredential = try #require(credentials.first)
        #expect(Set(pwCredential.keys) == ["id", "rpId", "userHandle", "privateKey", "publicKey", "signCount"])
        #expect(pwCredential["id"] as? String == id)
        #expect(pwCredential["rpId"] as? String == "example.com")
        #expect(pwCredential["userHandle"] as? String == b64url(Array("alice".utf8)))
        #expect(pwCredential["signCount"] as? Int == 0)
        let spki = try #require(pwCredential["publicKey"] as? String)
        let pkcs8 = try #require(pwCredential["privateKey"] as? String)
        for text in [spki, pkcs8, id] { #expect(!text.contains("=") && !text.contains("+") && !text.contains("/")) }
        // SPKI of id-ecPublicKey/prime256v1 with an uncompressed point; PKCS#8 version 0, same algorithm.
        #expect(fromB64url(spki)?.count == 91)
        #expect(fromB64url(spki)?.prefix(2) == [0x30, 0x59])
        #expect(fromB64url(pkcs8)?.prefix(7) == [0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30])

        // The same passkey as CDP WebAuthn.Credential, standard base64 with padding.
        let cdp = try await a.run(["passkey", "export", "--to", "cdp", "-o", a.path("cdp.json")])
        #expect(cdp.status == 0, "\(cdp.stderr)")
        #expect(cdp.stdout.isEmpty)
        let cdpList = try #require(try jsonAny(try a.read("cdp.json")) as? [[String: Any]])
        let cdpCredential = try #require(cdpList.first)
        #expect(cdpList.count == 1)
        #expect(Set(cdpCredential.keys) == [
            "credentialId", "isResidentCredential", "rpId", "privateKey", "userHandle", "signCount", "userName",
            "userDisplayName", "backupEligibility", "backupState",
        ])
        #expect(cdpCredential["credentialId"] as? String == Data(idBytes).base64EncodedString())
        #expect((cdpCredential["credentialId"] as? String)?.hasSuffix("=") == true)  // 20 bytes: padded
        #expect(cdpCredential["userHandle"] as? String == Data("alice".utf8).base64EncodedString())
        #expect(cdpCredential["isResidentCredential"] as? Bool == true)
        #expect(cdpCredential["backupEligibility"] as? Bool == true && cdpCredential["backupState"] as? Bool == true)
        #expect(cdpCredential["userName"] as? String == "alice" && cdpCredential["userDisplayName"] as? String == "Alice")
        #expect(cdpCredential["signCount"] as? Int == 0)
        #expect((cdpCredential["privateKey"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) == fromB64url(pkcs8))

        // --rp-id selects; no passkey matches: an empty document, exit 0.
        let selected = try await a.run(["passkey", "export", "--to", "cdp", "--rp-id", "EXAMPLE.com"])
        #expect(selected.status == 0 && selected.stdout.contains(#""credentialId""#), "\(selected.stderr)")
        let none = try await a.run(["passkey", "export", "--to", "cdp", "--rp-id", "other.example"])
        #expect(none.status == 0 && none.stdout == "[]\n", "\(none.stderr)")
        let nonePW = try await a.run(["passkey", "export", "--to", "playwright", "--rp-id", "other.example"])
        #expect(nonePW.stdout == "{\"cookies\":[],\"origins\":[],\"credentials\":[]}\n")

        // Never overwritten without --force (74); with it, replaced and still 0600.
        let again = try await a.run(["passkey", "export", "--to", "playwright", "-o", a.path("pw.json")])
        #expect(again.status == 74, "\(again.stderr)")
        let forced = try await a.run(["passkey", "export", "--to", "playwright", "-o", a.path("pw.json"), "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try a.read("pw.json").contains(spki))

        // swcred's own assertion at count 0 reports 0, and py_webauthn takes the exported key.
        let (ownResult, own) = try await a.assert()
        #expect(ownResult.status == 0, "\(ownResult.stderr)")
        #expect(signCount(of: own) == 0)

        // A browser used it up to 41: the storage state comes back at 41 into a fresh store.
        let used = try a.read("pw.json").replacingOccurrences(of: #""signCount":0"#, with: #""signCount":41"#)
        try b.write("used.json", used)
        let imported = try await b.run(["passkey", "import", b.path("used.json"), "--from", "playwright", "--format", "json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try imported.json()
        #expect(try validator.validate(summary, against: "passkey-transfer") == [])
        #expect(summary["from"] as? String == "playwright" && summary["passkeys"] as? Int == 1)
        #expect(summary["added"] as? Int == 1 && summary["updated"] as? Int == 0 && summary["unchanged"] as? Int == 0)
        let (assertedResult, asserted) = try await b.assert()
        #expect(assertedResult.status == 0, "\(assertedResult.stderr)")
        #expect(asserted["id"] as? String == id)
        #expect(signCount(of: asserted) == 42)
        let (_, second) = try await b.assert()
        #expect(signCount(of: second) == 43)
        let reexport = try await b.run(["passkey", "export", "--to", "cdp"])
        #expect(reexport.status == 0, "\(reexport.stderr)")
        #expect(reexport.stdout.contains(#""signCount":43"#))

        // The CDP document at 7 into another fresh store: 8 next.
        let cdpUsed = try a.read("cdp.json").replacingOccurrences(of: #""signCount":0"#, with: #""signCount":7"#)
        let cdpImported = try await c.run(["passkey", "import", "-", "--from", "cdp"], stdin: cdpUsed)
        #expect(cdpImported.status == 0, "\(cdpImported.stderr)")
        #expect(cdpImported.stdout.hasPrefix("imported 1 passkeys (cdp): 1 added, 0 updated, 0 unchanged"))
        let listed = try await c.run(["passkey", "list", "--format", "json"])
        let names = (try listed.json()["passkeys"] as? [[String: Any]])?.compactMap { $0["userName"] as? String }
        #expect(names == ["alice"])
        let (_, fromCDP) = try await c.assert()
        #expect(signCount(of: fromCDP) == 8)

        if Judge.present {
            let zero = try Judge.verify(own, spki: spki, storedCount: 0)
            #expect(zero.status == 0, "py_webauthn at 0: \(zero.stderr)")
            let next = try Judge.verify(asserted, spki: spki, storedCount: 41)
            #expect(next.status == 0, "py_webauthn at 41 -> 42: \(next.stderr)")
            #expect((try? next.json())?["signCount"] as? Int == 42)
            // The judge can say no: a count that does not go up is a cloned authenticator to it.
            let replay = try Judge.verify(asserted, spki: spki, storedCount: 42)
            #expect(replay.status == 1, "py_webauthn must reject 42 after 42: \(replay.stderr)")
            let cdpNext = try Judge.verify(fromCDP, spki: spki, storedCount: 7)
            #expect(cdpNext.status == 0, "py_webauthn at 7 -> 8: \(cdpNext.stderr)")
        }
    }

    @Test("cli Browser tests: a stale document never rolls a count back; a newer one updates; an app imports under its approved webcredentials entry, another RP ID is 11")
    func staleAndApp() async throws {
        let a = try TransferBox()
        let b = try TransferBox()
        defer { [a, b].forEach { $0.cleanUp() } }
        #expect(try await a.register("alice").status == 0)
        let state = try await a.run(["passkey", "export", "--to", "playwright"])
        #expect(state.status == 0, "\(state.stderr)")
        func at(_ n: Int) -> String { state.stdout.replacingOccurrences(of: #""signCount":0"#, with: #""signCount":\#(n)"#) }
        #expect(try await b.run(["passkey", "import", "-", "--from", "playwright"], stdin: at(41)).status == 0)
        let stale = try await b.run(["passkey", "import", "-", "--from", "playwright", "--format", "json"], stdin: at(10))
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(try stale.json()["unchanged"] as? Int == 1)
        #expect(try await b.run(["passkey", "export", "--to", "cdp"]).stdout.contains(#""signCount":41"#))
        let newer = try await b.run(["passkey", "import", "-", "--from", "playwright", "--format", "json"], stdin: at(50))
        #expect(try newer.json()["updated"] as? Int == 1)
        let (_, credential) = try await b.assert()
        #expect(signCount(of: credential) == 51)

        // As the app: example.com is approved; other.example is not in its entitlements (11).
        let app = try TransferBox()
        defer { app.cleanUp() }
        let asApp = try await app.run(["passkey", "import", "-", "--from", "playwright", "--format", "json"] + app.app, stdin: at(3))
        #expect(asApp.status == 0, "\(asApp.stderr)")
        #expect(try asApp.json()["added"] as? Int == 1)
        // (The app's association records are refreshed from --aasa-dir first, as for register, so
        // the store's generation may move; its passkeys do not.)
        let before = try await app.run(["passkey", "export", "--to", "cdp"])
        let other = at(3).replacingOccurrences(of: #""rpId":"example.com""#, with: #""rpId":"other.example""#)
        let refused = try await app.run(["passkey", "import", "-", "--from", "playwright"] + app.app, stdin: other)
        #expect(refused.status == 11, "\(refused.stderr)")
        #expect(try await app.run(["passkey", "export", "--to", "cdp"]).stdout == before.stdout)
        #expect(before.stdout.contains(#""signCount":3"#))
    }

    @Test("cli Browser tests: export never prints private keys on a terminal (29); --to is checked (64)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminal() async throws {
        let home = try CLI.temporaryDirectory("swcred-pk-tty")
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", "'\(CLI.binary.path)' passkey export --to cdp", "/dev/null"]
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "xterm", "NO_COLOR": "1",
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 29, "\(text)")
        #expect(text.contains("terminal"))
        let bad = try await CLI.run(["passkey", "export", "--to", "json"], home: home)
        #expect(bad.status == 64)
    }
}
