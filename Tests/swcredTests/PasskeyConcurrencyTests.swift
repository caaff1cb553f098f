import Foundation
import Testing

/// store.md T1 for passkey items (PK-8), with real processes: many `swcred passkey` processes
/// register and sign in on one key-file store at once; no passkey is lost and every assertion
/// signs with one of the stored credentials.
@Suite("Passkeys CLI: concurrent processes", .serialized)
struct PasskeyConcurrencyTests {
    @Test(
        "PK-8 (T1): 8 processes × 4 registrations then an assertion each, at once on one store → 32 passkeys, every process exit 0"
    )
    func parallelRegistrations() async throws {
        let sandbox = try StoreSandbox("swcred-pk-t1")
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        #expect(try await sandbox.run(["init"]).status == 0)
        let workers = 8
        let perWorker = 4
        for worker in 1...workers {
            for index in 1...perWorker {
                _ = try PasskeySecretHygieneTests.creationFile(sandbox, user: "w\(worker)-u\(index)")
            }
        }
        try Data(PasskeySecretHygieneTests.request.utf8).write(to: URL(fileURLWithPath: sandbox.path("get.json")))
        // Each child registers its passkeys one after another, then signs in as its first user;
        // its exit status is the number of commands that failed.
        let script = """
            fails=0
            i=1
            while [ $i -le \(perWorker) ]; do
                "$SWCRED" passkey register "$DIR/create-w$W-u$i.json" --origin https://example.com --lock-timeout 120 >/dev/null \
                    || { echo "register w$W-u$i failed with $?" >&2; fails=$((fails+1)); }
                i=$((i+1))
            done
            "$SWCRED" passkey assert "$DIR/get.json" --origin https://example.com --pick "w$W-u1" --lock-timeout 120 \
                >"$DIR/assert-$W.json" || { echo "assert w$W failed with $?" >&2; fails=$((fails+1)); }
            exit $fails
            """
        let children = try (1...workers).map { worker in
            try sandbox.startShell(script, environment: ["W": String(worker), "DIR": sandbox.home.path])
        }
        for (index, result) in children.map({ $0.wait() }).enumerated() {
            #expect(result.status == 0, "worker \(index + 1): \(result.stderr)")
        }
        let list = try await sandbox.run(["passkey", "list", "--format", "json"])
        #expect(list.status == 0, "\(list.stderr)")
        let passkeys = try list.json()["passkeys"] as? [[String: Any]] ?? []
        #expect(passkeys.count == workers * perWorker)
        let byUser = Dictionary(
            passkeys.compactMap { p in (p["userName"] as? String).map { ($0, p) } }, uniquingKeysWith: { a, _ in a })
        #expect(byUser.count == workers * perWorker)
        for worker in 1...workers {
            let data = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("assert-\(worker).json")))
            let assertion = try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: Any], "worker \(worker)")
            let listed = try #require(byUser["w\(worker)-u1"])
            #expect(assertion["id"] as? String == listed["credentialID"] as? String)
            #expect(
                (assertion["response"] as? [String: Any])?["userHandle"] as? String == listed["userHandle"] as? String)
        }
    }
}
