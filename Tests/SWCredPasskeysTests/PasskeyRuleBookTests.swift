import SWCredCore
import SWCredPasskeys
import Testing

/// Passkey errors print their code in brackets like every error (`[passkeyNotAssociated]`);
/// `swcred explain` must know each one.
@Suite("Passkey error codes in the rule book")
struct PasskeyRuleBookTests {
    @Test("every passkey failure's code has an error entry", arguments: PasskeyFailure.allCases)
    func codeHasEntry(_ failure: PasskeyFailure) {
        let entry = RuleBook.rule(failure.codeName)
        #expect(entry?.kind == .error, "\(failure.codeName) has no error entry")
    }
}
