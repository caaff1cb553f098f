import Foundation
import Testing

/// Runs `Tests/Browser/login_flow.py` against the built `swcred`: passkey logins in a real
/// Chromium, judged by the fixture relying party (`Fixtures/browser/rp`, py_webauthn). Skipped
/// cleanly where Chromium, certutil, py_webauthn, Playwright (or Selenium with chromedriver for
/// CDP) are missing; `.ci/run` installs them.
enum BrowserLogin {
    static let script = CLI.repositoryRoot.appendingPathComponent("Tests/Browser/login_flow.py").path
    /// The script's own deadline; `timeout(1)` ends it 30 s later should it hang anyway.
    static let seconds = 240

    /// Whether everything `mode` needs is installed (the script's `--probe`, exit 0; 77 otherwise).
    static func available(_ mode: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout") else { return false }
        let probe = try? CLI.runProgram(
            URL(fileURLWithPath: "/usr/bin/timeout"), ["60", "python3", script, "--probe", "--mode", mode])
        return probe?.status == 0
    }

    static let playwright = available("playwright")
    static let cdp = available("cdp")

    static func run(_ mode: String) throws -> CLI.Result {
        try CLI.runProgram(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["-k", "5", String(seconds + 30), "python3", script, "--swcred", CLI.binary.path, "--mode", mode,
             "--timeout", String(seconds)])
    }
}

@Suite("Login flows in a real browser (cli.md Browser tests, issue 32)", .serialized)
struct BrowserLoginTests {
    /// The summary line: the verified counts per user, and the relying party's refusal of a clone.
    private func summary(_ result: CLI.Result) -> (counts: [String: [Int]], refused: String) {
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let summary = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return (summary?["counts"] as? [String: [Int]] ?? [:], summary?["refused"] as? String ?? "")
    }

    @Test("cli Browser tests: swcred's passkey signs in to the fixture site in Chromium through Playwright's storage state; the page's new passkey comes back and signs in swcred as a browser and as the app; py_webauthn verifies every count, strictly increasing, and refuses a stale clone",
          .enabled(if: BrowserLogin.playwright), .timeLimit(.minutes(5)))
    func playwrightStorageState() throws {
        let result = try BrowserLogin.run("playwright")
        #expect(
            result.status == 0, "login_flow.py --mode playwright: \(result.status)\n\(result.stderr)\n\(result.stdout)")
        let (counts, refused) = summary(result)
        #expect(counts["alice"] == [0, 1, 2, 3], "\(result.stdout)")
        #expect(counts["bob"] == [0, 1, 2, 3, 4], "\(result.stdout)")
        #expect(refused.contains("sign count of 0 was not greater than current count of 3"), "\(result.stdout)")
    }

    @Test("cli Browser tests: the same through CDP (WebAuthn.addCredential and getCredentials, from Selenium when installed, else a Playwright CDP session) with Chromium's own authenticator",
          .enabled(if: BrowserLogin.cdp), .timeLimit(.minutes(5)))
    func chromeDevToolsProtocol() throws {
        let result = try BrowserLogin.run("cdp")
        #expect(result.status == 0, "login_flow.py --mode cdp: \(result.status)\n\(result.stderr)\n\(result.stdout)")
        let (counts, refused) = summary(result)
        #expect(counts["alice"] == [0, 1, 2, 3], "\(result.stdout)")
        #expect(refused.contains("sign count of 0 was not greater than current count of 3"), "\(result.stdout)")
        // Chromium's virtual authenticator counts its registration too: bob's first login is 2.
        #expect(counts["bob"] == [1, 2, 3, 4, 5], "\(result.stdout)")
    }
}
