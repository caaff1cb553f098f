package import SWCredCore

/// How a caller that is not an app reads an add (`swcred add`'s app path and `batch`).
extension SWCAddReport {
    /// Throws the error the app's completion received: a failed check, or a failed new-item
    /// write. Under errSecInternal the store's own error (busy, corrupt, …) is thrown instead,
    /// so that the caller's status tells the truth.
    package func throwCompletionError() throws(SWCredError) {
        guard let error = completionError else { return }
        if error.code == .secInternal, let storeError = error.underlying?.error { throw storeError }
        throw error
    }

    /// A write that failed in a found-item branch, which Apple reports to the app as success
    /// (none when the user declined: nothing was written).
    package var reportedDiscardedError: SWCredError? { outcome == .declined ? nil : discardedError }
}
