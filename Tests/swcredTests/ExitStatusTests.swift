import SWCredCore
import Testing
@testable import SWCredCLI

/// The CLI's one exit-status table (cli.md "Exit codes"), in process: every error code the rule
/// book documents has a status, the SWC outcomes have cli.md's numbers, and `swcred explain`'s
/// titles (which name the exit status in prose) agree with the table.
@Suite("Exit statuses")
struct ExitStatusTests {
    @Test("the SWC outcomes (cli.md): 11, 12, 13, 14, 44, 45, 50")
    func sharedWebCredentialsOutcomes() {
        let expected: [String: Int32] = [
            "missingEntitlement": 11, "siteNotApproved": 12, "canceled": 13, "autoFillDisabled": 14,
            "itemNotFound": 44, "duplicateItem": 45, "invalidParameter": 50, "usage": 64, "malformedInput": 65,
        ]
        for (name, status) in expected {
            #expect(ExitStatus.byCode[name]?.rawValue == status, "\(name)")
        }
        #expect(ExitStatus(SWCredError.Code.invalidParameter) == .invalidParameter)
    }

    @Test("every error code of the rule book has a status in the table, and the entry's title names it")
    func ruleBookAgrees() {
        let errors = RuleBook.all.filter { $0.kind == .error }
        #expect(errors.count >= 40)
        for entry in errors {
            guard let status = ExitStatus.byCode[entry.id] else {
                Issue.record("\(entry.id) has no exit status in ExitStatus.byCode")
                continue
            }
            #expect(entry.title.contains("(exit \(status.rawValue)"), "\(entry.id): \(entry.title) vs \(status.rawValue)")
        }
        // And nothing in the table is unknown to the rule book.
        for name in ExitStatus.byCode.keys {
            #expect(RuleBook.rule(name)?.kind == .error, "\(name) is in the exit table but not in the rule book")
        }
    }

    @Test("every code name has a status (an exhaustive switch); only internal failures are 1")
    func everyCodeHasAStatus() {
        #expect(ExitStatus(SWCredError.Code.internalError) == .failure)
        #expect(ExitStatus.byCode.count == SWCredError.Code.Name.allCases.count)
        let ones = Set(SWCredError.Code.Name.allCases.filter { ExitStatus($0) == .failure }.map(\.rawValue))
        #expect(ones == ["internalError", "cryptoUnavailable", "unimplemented", "secInternal"])
        #expect(ExitStatus(SWCredError.Code.Name.itemNotFound) == .itemNotFound)
    }
}
