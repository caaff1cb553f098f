import SWCredAssociation
import SWCredCore
import SWCredKit

/// The exit statuses of cli.md ("Exit codes"): the one table that turns an outcome or an error
/// code into the number a script sees. The libraries' error codes carry no exit numbers; every
/// exit of `swcred` goes through this type.
enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// `match`: not a match; elsewhere an unexpected internal error.
    case failure = 1
    case notTrusted = 10
    case missingEntitlement = 11
    case siteNotApproved = 12
    /// The user declined or canceled.
    case declined = 13
    case autoFillDisabled = 14
    case wrongKey = 20
    case corruptStore = 21
    case busy = 22
    case rolledBack = 23
    case storeExists = 24
    case unsupportedFormat = 25
    case conflict = 26
    case limitExceeded = 27
    case insecurePermissions = 28
    case interactionNotAllowed = 29
    case itemNotFound = 44
    case duplicateItem = 45
    case invalidParameter = 50
    case usage = 64
    /// Malformed input data (JSON, plist, AASA, rules, URLs lists).
    case invalidInput = 65
    case inputMissing = 66
    case fetchFailed = 69
    case resourceExhausted = 71
    case ioFailure = 74

    /// The status for an error code: an exhaustive `switch` over the closed set of code names, so
    /// that a new code does not compile until it has a status here (issue 28).
    init(_ code: SWCredError.Code) {
        self.init(code.kind)
    }

    init(_ name: SWCredError.Code.Name) {
        switch name {
        // SWCredCore
        case .internalError: self = .failure
        case .usage: self = .usage
        case .malformedInput: self = .invalidInput
        case .fileNotFound: self = .inputMissing
        case .invalidParameter: self = .invalidParameter
        case .interactionNotAllowed: self = .interactionNotAllowed
        case .limitExceeded: self = .limitExceeded
        case .ioFailure: self = .ioFailure
        // SWCredSodium
        case .cryptoUnavailable: self = .failure
        case .resourceExhausted: self = .resourceExhausted
        case .authenticationFailed: self = .corruptStore
        // SWCredStore
        case .outputExists: self = .ioFailure
        case .itemNotFound: self = .itemNotFound
        case .duplicateItem: self = .duplicateItem
        case .storeNotFound: self = .inputMissing
        case .storeExists: self = .storeExists
        case .notAStore, .parametersOutOfBounds, .corruptHeader, .corruptPayload: self = .corruptStore
        case .unsupportedFormat: self = .unsupportedFormat
        case .wrongKey: self = .wrongKey
        case .rollbackDetected: self = .rolledBack
        case .busy: self = .busy
        case .conflict: self = .conflict
        case .insecurePermissions: self = .insecurePermissions
        case .invalidKeyFile: self = .inputMissing
        // SWCredAssociation
        case .malformedAASA, .malformedEntitlements, .malformedSitemap, .malformedAssetLinks: self = .invalidInput
        case .invalidAndroidApp: self = .usage
        // SWCredArtifacts
        case .malformedArtifact: self = .invalidInput
        case .invalidURL: self = .usage
        // SWCredPasswords
        case .malformedRules, .infeasible, .malformedQuirks: self = .invalidInput
        // SWCredRetrieval
        case .fetchRefused, .fetchFailed: self = .fetchFailed
        // SWCredKit
        case .unimplemented, .secInternal: self = .failure
        case .autoFillDisabled: self = .autoFillDisabled
        case .missingEntitlement: self = .missingEntitlement
        case .siteNotApproved: self = .siteNotApproved
        case .canceled: self = .declined
        // SWCredPasskeys
        case .passkeyNotAssociated: self = .missingEntitlement
        case .passkeySiteNotApproved: self = .siteNotApproved
        case .passkeyCanceled: self = .declined
        case .passkeyNoCredentials: self = .itemNotFound
        case .passkeyExcludedCredential: self = .duplicateItem
        case .passkeyOriginNotAllowed, .passkeyNotSupported, .passkeyInvalidOptions: self = .invalidParameter
        }
    }

    /// Every error code's status, by its JSON `"code"` name (cli.md), for the tests that compare
    /// it with the rule book.
    static let byCode: [String: ExitStatus] = Dictionary(
        uniqueKeysWithValues: SWCredError.Code.Name.allCases.map { ($0.rawValue, ExitStatus($0)) })
}

// MARK: - Outcomes that are not errors

extension ExitStatus {
    /// `verify`: 0 when every checked association is trusted, 10 otherwise.
    init(_ report: TrustReport) {
        self = report.trusted ? .success : .notTrusted
    }

    /// `verify` with Android apps too: 0 when every row, iOS and Android, is trusted, 10 otherwise.
    init(_ report: CrossPlatformTrustReport) {
        self = report.trusted ? .success : .notTrusted
    }

    /// `match URL`: 0 for a match, 1 for exclude or no_match (like grep).
    init(_ outcome: MatchOutcome) {
        self = outcome == .match ? .success : .failure
    }

    /// `match --urls|--sitemap`: 65 when lines could not be read, 1 when `--expect` missed, else 0.
    init(bulkInvalidLines invalid: Int, unexpected: Int) {
        self = invalid > 0 ? .invalidInput : unexpected > 0 ? .failure : .success
    }

    /// `request` (and a `batch` request line): 0 with a credential, 13 when the picker was
    /// canceled or had nothing to offer (``SWCRequestReport/canceled``; the legacy profile's
    /// completion still gets no error).
    init(requestCanceled canceled: Bool) {
        self = canceled ? .declined : .success
    }

    /// An app-path `add` (and a `batch` add line): the discarded write error's status, 13 when the
    /// user declined (although the completion got no error), or 0.
    init(_ report: SWCAddReport) {
        if let discarded = report.reportedDiscardedError {
            self.init(discarded.code)
        } else {
            self = report.outcome == .declined ? .declined : .success
        }
    }
}
