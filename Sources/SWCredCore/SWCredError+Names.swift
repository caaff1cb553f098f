extension SWCredError.Code {
    /// Every error code swcred's modules declare, by its JSON `"code"` name: a closed set, so that
    /// what turns a code into something else (the command's exit status, the rule book) is an
    /// exhaustive `switch` the compiler checks, and a new code cannot be added without deciding
    /// its exit status (issue 28).
    ///
    /// A code is declared in the module that raises it (`SWCredError.Code.wrongKey` with the
    /// store), with its name from this list. Names are never renamed or reused once released
    /// (cli.md); `package` so that adding one breaks no user's `switch`.
    package enum Name: String, Sendable, CaseIterable {
        // SWCredCore
        case internalError, usage, malformedInput, fileNotFound, invalidParameter, interactionNotAllowed
        case limitExceeded, ioFailure
        // SWCredSodium
        case cryptoUnavailable, resourceExhausted, authenticationFailed
        // SWCredStore
        case outputExists, itemNotFound, duplicateItem, storeNotFound, storeExists, notAStore, unsupportedFormat
        case parametersOutOfBounds, corruptHeader, wrongKey, corruptPayload, rollbackDetected, busy, conflict
        case insecurePermissions, invalidKeyFile
        // SWCredAssociation
        case malformedAASA, malformedEntitlements, invalidURL, malformedSitemap, malformedAssetLinks, invalidAndroidApp
        // SWCredArtifacts
        case malformedArtifact
        // SWCredPasswords
        case malformedRules, infeasible, malformedQuirks
        // SWCredRetrieval
        case fetchRefused, fetchFailed
        // SWCredKit
        case unimplemented, autoFillDisabled, missingEntitlement, siteNotApproved, secInternal, canceled
        // SWCredPasskeys
        case passkeyNotAssociated, passkeySiteNotApproved, passkeyOriginNotAllowed, passkeyCanceled
        case passkeyNoCredentials, passkeyExcludedCredential, passkeyNotSupported, passkeyInvalidOptions
    }
}
