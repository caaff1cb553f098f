import Foundation
import SWCredSodium
import SWCredStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// store.md T10 and T11 for passkeys (PK-8): `swcred passkey register` and `assert` on real
/// processes. The private keys are read back through the library from the store the processes
/// wrote, then looked for — raw, and inside every base64, base64url or hex run — in everything
/// the processes printed, in their `/proc` cmdline and environ, and in every file they left.
@Suite("Passkeys CLI: secret hygiene", .enabled(if: CLI.binaryHasDebugHooks, "needs the debug build's SWCRED_TEST_* hooks"))
struct PasskeySecretHygieneTests {
    static let creation = #"""
        {"rp":{"id":"example.com","name":"Example"},"user":{"id":"USER","name":"NAME","displayName":"NAME"},
         "challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","pubKeyCredParams":[{"type":"public-key","alg":-7}]}
        """#
    static let request = #"{"challenge":"_-7t7Ovq6ejn5uXk4-Lh4N_e3dzb2tnY19bV1NPS0dA","rpId":"example.com"}"#

    /// Writes the creation options for `user` and returns the file's path.
    static func creationFile(_ sandbox: StoreSandbox, user: String) throws -> String {
        let handle = Data(user.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let path = sandbox.path("create-\(user).json")
        try Data(
            creation.replacingOccurrences(of: "USER", with: handle).replacingOccurrences(of: "NAME", with: user).utf8
        )
        .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The private keys of the store at `path`, read through the library.
    static func privateKeys(_ sandbox: StoreSandbox, store path: String, keySource: KeySource) throws -> [[UInt8]] {
        let options = StoreOptions(stateDirectory: sandbox.path("library-state"), warningHandler: { _ in })
        let snapshot = try KeychainStore.open(at: path, keySource: keySource, options: options).snapshot()
        return snapshot.contents.passkeys.map(\.privateKey)
    }

    /// Where `key` shows in `bytes`: raw, or in a decoded base64/base64url/hex run. Nil when nowhere.
    static func leak(of key: [UInt8], in bytes: [UInt8]) -> String? {
        if bytes.contains(subsequence: key) { return "raw bytes" }
        let text = String(decoding: bytes, as: UTF8.self)
        var runs: [Substring] = []
        var start: String.Index?
        for index in text.indices {
            let c = text[index]
            let member = c.isASCII && (c.isLetter || c.isNumber || "+/_-=".contains(c))
            if member, start == nil { start = index }
            if !member, let from = start {
                runs.append(text[from..<index])
                start = nil
            }
        }
        if let from = start { runs.append(text[from...]) }
        for run in runs where run.count >= 43 {
            // Every alignment of the run, so a key inside a longer encoded value (an SPKI, a
            // PKCS #8 document) is found whatever its offset.
            for offset in 0..<4 {
                let body = run.dropFirst(offset).filter { $0 != "=" }
                var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                switch standard.count % 4 {
                case 1: standard.removeLast()
                case 2: standard += "=="
                case 3: standard += "="
                default: break
                }
                if let decoded = Data(base64Encoded: standard), Array(decoded).contains(subsequence: key) {
                    return "inside a base64 run of \(run.count) characters"
                }
            }
            if run.count >= 64, run.allSatisfy(\.isHexDigit) {
                for offset in 0..<2 {
                    let hex = Array(run.dropFirst(offset).utf8)
                    var decoded: [UInt8] = []
                    var at = 0
                    while at + 1 < hex.count,
                        let byte = UInt8(String(decoding: hex[at...at + 1], as: UTF8.self), radix: 16)
                    {
                        decoded.append(byte)
                        at += 2
                    }
                    if decoded.contains(subsequence: key) { return "inside a hex run of \(run.count) characters" }
                }
            }
        }
        return nil
    }

    /// base64url without padding (RFC 4648 §5), for the scanner's self-check.
    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    /// Every regular file under `folder`, with its bytes.
    static func files(under folder: URL) -> [(String, [UInt8])] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var found: [(String, [UInt8])] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            found.append((url.path, Array(data)))
        }
        return found
    }

    @Test(
        "T10, T11 (PK-8): register and assert keep the private key out of argv, environ, stdout, stderr and every file; list and delete print no key; the process is not dumpable while the key is in memory"
    )
    func keyFileStore() async throws {
        let sandbox = try StoreSandbox("swcred-pk-t10")
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        var outputs: [(String, [UInt8])] = []
        var procfs: [(String, [UInt8])] = []
        let browser = ["--origin", "https://example.com"]

        // Registration, held while the new key is in the decrypted store.
        let first = try StoreSecretHygieneTests.startPaused(
            sandbox, ["passkey", "register", try Self.creationFile(sandbox, user: "alice")] + browser, stdinText: nil,
            environment: ["SWCRED_TEST_KEEP_DUMPABLE": "1"])
        #expect(first.report["point"] as? String == "passkey-in-transaction")
        for name in ["cmdline", "environ"] {
            procfs.append(("register \(name)", Array((first.proc(name) ?? "").utf8)))
        }
        #expect(String(decoding: procfs[0].1, as: UTF8.self).contains("register"), "cmdline not read")
        let registered = first.resume()
        #expect(registered.status == 0, "\(registered.stderr)")
        outputs += [
            ("register stdout", Array(registered.stdout.utf8)), ("register stderr", Array(registered.stderr.utf8)),
        ]

        // A second passkey (JSON form), then an assertion held while it signs, with the hardening on.
        let second = try await sandbox.run(
            ["passkey", "register", try Self.creationFile(sandbox, user: "bob"), "--format", "json"] + browser)
        #expect(second.status == 0, "\(second.stderr)")
        outputs += [("register json stdout", second.stdoutBytes), ("register json stderr", Array(second.stderr.utf8))]
        let requestFile = sandbox.path("get.json")
        try Data(Self.request.utf8).write(to: URL(fileURLWithPath: requestFile))
        let asserting = try StoreSecretHygieneTests.startPaused(
            sandbox, ["passkey", "assert", requestFile, "--pick", "bob", "--format", "json"] + browser, stdinText: nil)
        #expect(asserting.report["point"] as? String == "passkey-in-transaction")
        #expect(asserting.report["dumpable"] as? Int == 0, "PR_GET_DUMPABLE while signing: \(asserting.report)")
        #expect(asserting.report["coreSoft"] as? Int == 0 && asserting.report["coreHard"] as? Int == 0)
        procfs.append(("assert cmdline", Array((asserting.proc("cmdline") ?? "").utf8)))
        let asserted = asserting.resume()
        #expect(asserted.status == 0, "\(asserted.stderr)")
        outputs += [("assert stdout", Array(asserted.stdout.utf8)), ("assert stderr", Array(asserted.stderr.utf8))]
        let textAssert = try await sandbox.run(["passkey", "assert", "-"] + browser, stdin: Self.request)
        #expect(textAssert.status == 0, "\(textAssert.stderr)")
        outputs += [
            ("assert text stdout", textAssert.stdoutBytes), ("assert text stderr", Array(textAssert.stderr.utf8)),
        ]

        // An error path that knows the credential: excludeCredentials (45).
        let bobID = try #require(try second.json()["credential"] as? [String: Any])["id"] as? String ?? ""
        let excluded = try await sandbox.run(
            ["passkey", "register", "-", "--format", "json"] + browser,
            stdin: String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: try Self.creationFile(sandbox, user: "bob"))),
                as: UTF8.self
            )
            .replacingOccurrences(
                of: #""pubKeyCredParams""#,
                with: #""excludeCredentials":[{"type":"public-key","id":"\#(bobID)"}],"pubKeyCredParams""#))
        #expect(excluded.status == 45, "\(excluded.stderr)")
        outputs += [("excluded stderr", Array(excluded.stderr.utf8)), ("excluded stdout", excluded.stdoutBytes)]

        for format in ["text", "json"] {
            let listed = try await sandbox.run(["passkey", "list", "--format", format])
            #expect(listed.status == 0, "\(listed.stderr)")
            outputs += [("list \(format)", listed.stdoutBytes), ("list \(format) stderr", Array(listed.stderr.utf8))]
        }

        // The keys, as the library reads them from the store the processes wrote.
        let keyFile = try StorePaths.keyFilePath(environment: sandbox.shellEnvironment)
        let keys = try Self.privateKeys(sandbox, store: sandbox.defaultStorePath, keySource: .keyFile(path: keyFile))
        #expect(keys.count == 2)
        #expect(keys.allSatisfy { $0.count == 32 && Set($0).count > 4 })

        let deleted = try await sandbox.run(["passkey", "delete", "example.com", "--format", "json", "--", bobID])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        outputs += [("delete", deleted.stdoutBytes), ("delete stderr", Array(deleted.stderr.utf8))]

        // Each check can fail: the scanner finds a key where it is.
        let probe = try #require(keys.first)
        #expect(Self.leak(of: probe, in: Array("x\"\(Self.base64url(probe))\"".utf8)) != nil)
        #expect(Self.leak(of: probe, in: Array(("k=" + Data([0x04, 0x20] + probe).base64EncodedString()).utf8)) != nil)
        #expect(Self.leak(of: probe, in: Array(probe.map { String(format: "%02x", $0) }.joined().utf8)) != nil)

        let leftFiles = Self.files(under: sandbox.home)
        #expect(leftFiles.contains { $0.0 == sandbox.defaultStorePath })
        for key in keys {
            for (label, bytes) in outputs + procfs + leftFiles {
                let found = Self.leak(of: key, in: bytes)
                #expect(found == nil, "a private key is in \(label): \(found ?? "")")
            }
        }
    }

    @Test(
        "T10 (Browser tests): passkey export and import print no key material on the terminal, in summaries or in errors, and list shows none; the exported document does hold the keys (the scanner finds them there)"
    )
    func exportAndImport() async throws {
        let sandbox = try StoreSandbox("swcred-pk-t10x")
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let browser = ["--origin", "https://example.com"]
        for user in ["alice", "bob"] {
            let registered = try await sandbox.run(["passkey", "register", try Self.creationFile(sandbox, user: user)] + browser)
            #expect(registered.status == 0, "\(registered.stderr)")
        }
        var outputs: [(String, [UInt8])] = []
        func keep(_ label: String, _ result: CLI.Result) {
            outputs += [("\(label) stdout", result.stdoutBytes), ("\(label) stderr", Array(result.stderr.utf8))]
        }
        var documents: [String: String] = [:]
        for format in ["playwright", "cdp"] {
            let file = sandbox.path("\(format).json")
            let text = try await sandbox.run(["passkey", "export", "--to", format, "-o", file])
            #expect(text.status == 0, "\(text.stderr)")
            keep("export \(format) -o", text)
            let json = try await sandbox.run(["passkey", "export", "--to", format, "-o", file, "--force", "--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            keep("export \(format) -o json", json)
            let exists = try await sandbox.run(["passkey", "export", "--to", format, "-o", file])
            #expect(exists.status == 74)
            keep("export \(format) exists", exists)
            documents[format] = try String(contentsOfFile: file, encoding: .utf8)
        }
        let playwright = try #require(documents["playwright"])
        let cdp = try #require(documents["cdp"])
        for (format, document) in [("playwright", playwright), ("cdp", cdp)] {
            let text = try await sandbox.run(["passkey", "import", "-", "--from", format], stdin: document)
            #expect(text.status == 0, "\(text.stderr)")
            keep("import \(format)", text)
            let json = try await sandbox.run(["passkey", "import", "-", "--from", format, "--format", "json"], stdin: document)
            #expect(json.status == 0, "\(json.stderr)")
            keep("import \(format) json", json)
        }
        // Errors that know the keys: a public key that is not the private key's, the keys of another
        // format's encoding, an RP ID the origin may not use, a truncated document.
        let state = try #require(try JSONSerialization.jsonObject(with: Data(playwright.utf8)) as? [String: Any])
        var credentials = try #require(state["credentials"] as? [[String: Any]])
        credentials[0]["publicKey"] = credentials[1]["publicKey"]
        let mismatched = String(
            decoding: try JSONSerialization.data(withJSONObject: ["cookies": [], "origins": [], "credentials": credentials]),
            as: UTF8.self)
        let failures: [(String, [String], String, Int32)] = [
            ("mismatched public key", ["--from", "playwright"], mismatched, 65),
            ("cdp read as playwright", ["--from", "playwright"], cdp, 65),
            ("playwright read as cdp", ["--from", "cdp", "--format", "json"], playwright, 65),
            ("another origin", ["--from", "cdp", "--origin", "https://other.example"], cdp, 50),
            ("truncated", ["--from", "cdp"], String(cdp.prefix(cdp.count / 2)), 65),
        ]
        for (label, arguments, document, expected) in failures {
            let result = try await sandbox.run(["passkey", "import", "-"] + arguments, stdin: document)
            #expect(result.status == expected, "\(label): \(result.stderr)")
            keep("import error: \(label)", result)
        }
        for format in ["text", "json"] {
            let listed = try await sandbox.run(["passkey", "list", "--format", format])
            #expect(listed.status == 0, "\(listed.stderr)")
            keep("list \(format)", listed)
        }

        let keyFile = try StorePaths.keyFilePath(environment: sandbox.shellEnvironment)
        let keys = try Self.privateKeys(sandbox, store: sandbox.defaultStorePath, keySource: .keyFile(path: keyFile))
        #expect(keys.count == 2)
        // The planted keys are found where they are meant to be: in both exported documents.
        for key in keys {
            #expect(Self.leak(of: key, in: Array(playwright.utf8)) != nil, "the scanner misses a key in the playwright export")
            #expect(Self.leak(of: key, in: Array(cdp.utf8)) != nil, "the scanner misses a key in the cdp export")
            for (label, bytes) in outputs {
                let found = Self.leak(of: key, in: bytes)
                #expect(found == nil, "a private key is in \(label): \(found ?? "")")
            }
        }
    }

    @Test(
        "T10 (PK-8): a passphrase store's passphrase and keys never reach argv, environ or output of passkey register and assert"
    )
    func passphraseStore() async throws {
        let sandbox = try StoreSandbox("swcred-pk-t10p")
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let phrase = StoreSecretHygieneTests.sentinel()
        let phraseFile = sandbox.path("phrase")
        #expect(
            FileManager.default.createFile(
                atPath: phraseFile, contents: Data((phrase + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        let store = sandbox.path("p.swcred")
        let created = try await sandbox.run(["init", "--store", store, "--passphrase-file", phraseFile, "--kdf", "test"])
        #expect(created.status == 0, "\(created.stderr)")
        let storeArgs = ["--store", store, "--origin", "https://example.com"]

        let child = try StoreSecretHygieneTests.startPaused(
            sandbox,
            ["passkey", "register", try Self.creationFile(sandbox, user: "carol"), "--passphrase-fd", "7"] + storeArgs,
            stdinText: nil, environment: ["SWCRED_TEST_KEEP_DUMPABLE": "1"], extraFD: (7, phraseFile))
        #expect(child.report["point"] as? String == "after-passphrase")
        let cmdline = child.proc("cmdline") ?? phrase
        let environ = child.proc("environ") ?? phrase
        #expect(cmdline.contains("register") && !cmdline.contains(phrase))
        #expect(environ.contains("SWCRED_TEST_CLI_PAUSE") && !environ.contains(phrase))
        let registered = child.resume()
        #expect(registered.status == 0, "\(registered.stderr)")

        try Data(Self.request.utf8).write(to: URL(fileURLWithPath: sandbox.path("get.json")))
        let asserted = try await sandbox.run(
            ["passkey", "assert", sandbox.path("get.json"), "--passphrase-file", phraseFile, "--format", "json"]
                + storeArgs)
        #expect(asserted.status == 0, "\(asserted.stderr)")
        let wrong = try await sandbox.run(
            ["passkey", "assert", sandbox.path("get.json"), "--passphrase-stdin", "--format", "json"] + storeArgs,
            stdin: "not-\(phrase)\n")
        #expect(wrong.status == 20, "\(wrong.stderr)")
        let listed = try await sandbox.run([
            "passkey", "list", "--store", store, "--passphrase-file", phraseFile, "--format", "json",
        ])
        #expect(listed.status == 0, "\(listed.stderr)")

        let keys = try Self.privateKeys(
            sandbox, store: store, keySource: .passphrase(try SecureBytes(copying: Array(phrase.utf8))))
        #expect(keys.count == 1)
        let texts = [
            registered.stdout, registered.stderr, asserted.stdout, asserted.stderr, wrong.stdout, wrong.stderr,
            listed.stdout, listed.stderr,
        ]
        for text in texts {
            #expect(!text.contains(phrase) && !text.contains("not-\(phrase)"))
            for key in keys { #expect(Self.leak(of: key, in: Array(text.utf8)) == nil) }
        }
        for (label, bytes) in Self.files(under: sandbox.home) where label != phraseFile {
            #expect(!bytes.contains(subsequence: Array(phrase.utf8)), "the passphrase is in \(label)")
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains {
            self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
        }
    }
}
