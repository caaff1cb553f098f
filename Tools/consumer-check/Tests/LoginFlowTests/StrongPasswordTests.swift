import SWCredKit
import SWCredPasswords
import SWCredTesting
import Testing

/// Scenario 4: a strong password for a site's Password Rules (the `passwordrules` attribute of its
/// sign-up form, or Apple's quirks data), saved after sign-up.
@Suite("A strong password for a site's Password Rules")
struct StrongPasswordTests {
    static let siteRules =
        "minlength: 12; maxlength: 16; required: lower; required: upper; required: digit; required: [!#$];"

    @Test("PW-1.5: the generated password satisfies every rule, and sign-up saves it", arguments: 1...5)
    func generatedForRules(run: Int) async throws {
        let rules = try PasswordRules(validating: Self.siteRules)
        let generated = try PasswordGenerator.generate(rules: Self.siteRules)

        #expect(rules.violations(of: generated.password).isEmpty, "run \(run): \(generated.password)")
        #expect((12...16).contains(generated.password.count))
        #expect(generated.password.contains { "!#$".contains($0) })

        let keychain = try TacoShop.trustedKeychain()
        let swc = SharedWebCredentials(
            backend: keychain, app: TacoShop.app, responder: SWCPromptRecorder(answers: [.allow]))
        try await swc.addSharedWebCredential("tacos.example", account: "dave@example.com", password: generated.password)
        #expect(keychain.credentials.map(\.password) == [generated.password])
    }

    @Test("PW-4.10: a password that breaks the rules is reported rule by rule")
    func violations() throws {
        let rules = try PasswordRules(validating: Self.siteRules)

        #expect(!rules.isSatisfied(by: "tacos"))
        #expect(rules.violations(of: "tacos").count >= 3)
    }

    @Test("PW-1.5: rules nothing can satisfy are an infeasible error, never a nearly compliant password")
    func infeasible() {
        #expect(throws: SWCredError(.infeasible, "")) {
            try PasswordGenerator.generate(rules: "maxlength: 2; required: lower; required: upper; required: digit;")
        }
    }
}
