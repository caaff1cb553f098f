public import SWCredCore

extension SWCredError.Code {
    /// A fetch was refused by a retrieval rule (`http`, redirect, status, size: associated-domains.md
    /// §4). The message names the rule (`AD-4.4`, …) and the failing domain and code. Exit 69.
    public static let fetchRefused = Self("fetchRefused")
    /// A fetch failed in the network: connection, TLS trust, timeout. The message names the rule
    /// and Apple's `NSURLErrorDomain` code (−1202 untrusted certificate, −1001 timed out, …). Exit 69.
    public static let fetchFailed = Self("fetchFailed")
}
