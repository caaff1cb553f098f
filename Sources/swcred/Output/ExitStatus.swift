import SWCredCore

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

    /// The status for an error code; a code this table does not name is an internal error (1).
    init(_ code: SWCredError.Code) {
        self = Self.byCode[code.name] ?? .failure
    }

    /// Every error code `swcred` can report, by its JSON `"code"` name (cli.md).
    static let byCode: [String: ExitStatus] = [
        // SWCredCore
        "internalError": .failure, "usage": .usage, "malformedInput": .invalidInput, "fileNotFound": .inputMissing,
        "invalidParameter": .invalidParameter, "interactionNotAllowed": .interactionNotAllowed,
        "limitExceeded": .limitExceeded, "ioFailure": .ioFailure,
        // SWCredSodium
        "cryptoUnavailable": .failure, "resourceExhausted": .resourceExhausted, "authenticationFailed": .corruptStore,
        // SWCredStore
        "outputExists": .ioFailure, "itemNotFound": .itemNotFound, "duplicateItem": .duplicateItem,
        "storeNotFound": .inputMissing, "storeExists": .storeExists, "notAStore": .corruptStore,
        "unsupportedFormat": .unsupportedFormat, "parametersOutOfBounds": .corruptStore,
        "corruptHeader": .corruptStore, "wrongKey": .wrongKey, "corruptPayload": .corruptStore,
        "rollbackDetected": .rolledBack, "busy": .busy, "conflict": .conflict,
        "insecurePermissions": .insecurePermissions, "invalidKeyFile": .inputMissing,
        // SWCredAssociation
        "malformedAASA": .invalidInput, "malformedEntitlements": .invalidInput, "invalidURL": .usage,
        "malformedSitemap": .invalidInput, "malformedAssetLinks": .invalidInput, "invalidAndroidApp": .usage,
        // SWCredPasswords
        "malformedRules": .invalidInput, "infeasible": .invalidInput, "malformedQuirks": .invalidInput,
        // SWCredRetrieval
        "fetchRefused": .fetchFailed, "fetchFailed": .fetchFailed,
        // SWCredKit
        "unimplemented": .failure, "autoFillDisabled": .autoFillDisabled, "missingEntitlement": .missingEntitlement,
        "siteNotApproved": .siteNotApproved, "secInternal": .failure, "canceled": .declined,
        // SWCredPasskeys
        "passkeyNotAssociated": .missingEntitlement, "passkeySiteNotApproved": .siteNotApproved,
        "passkeyCanceled": .declined, "passkeyNoCredentials": .itemNotFound,
        "passkeyExcludedCredential": .duplicateItem, "passkeyOriginNotAllowed": .invalidParameter,
        "passkeyNotSupported": .invalidParameter, "passkeyInvalidOptions": .invalidParameter,
    ]
}
