/// When a record is checked again (associated-domains.md AD-5.5), with the device's constants as
/// defaults; every constant is configurable.
///
/// - After a success, or a failure while site approval is already decided:
///   `428400 s + uniform[0, 3600) s`, clamped to `[428400, 432000]` (about 5 days).
/// - After a failure while site approval is `unspecified`:
///   `(10800 s + uniform[0, 3600) s, clamped to [10800, 14400]) × backoff`, where backoff is 1 while
///   the retry count is below 8 and `2^(retry count − 7)` from 8 on. The retry count used is the
///   one after this failure was counted.
/// - **Decision:** any delay is capped at 30 days (Apple publishes no cap; the cap also keeps the
///   arithmetic finite for large retry counts).
package struct RecheckPolicy: Sendable, Hashable, Codable {
    /// Base delay after a success (seconds).
    package var successBase: Double
    /// Width of the random part after a success (seconds).
    package var successJitter: Double
    /// Largest delay after a success (seconds).
    package var successMaximum: Double
    /// Base delay after a failure while undecided (seconds).
    var failureBase: Double
    /// Width of the random part after such a failure (seconds).
    var failureJitter: Double
    /// Largest delay after such a failure, before backoff (seconds).
    var failureMaximum: Double
    /// The retry count from which the backoff doubles (8 on a device).
    var backoffStart: UInt32
    /// The cap on any delay (seconds): 30 days (Decision).
    var maximumDelay: Double

    /// The device's constants.
    package init(
        successBase: Double = 428_400,
        successJitter: Double = 3_600,
        successMaximum: Double = 432_000,
        failureBase: Double = 10_800,
        failureJitter: Double = 3_600,
        failureMaximum: Double = 14_400,
        backoffStart: UInt32 = 8,
        maximumDelay: Double = 30 * 86_400
    ) {
        self.successBase = successBase
        self.successJitter = successJitter
        self.successMaximum = successMaximum
        self.failureBase = failureBase
        self.failureJitter = failureJitter
        self.failureMaximum = failureMaximum
        self.backoffStart = backoffStart
        self.maximumDelay = maximumDelay
    }

    /// The delay after a success (or a failure with a decided site approval).
    ///
    /// - Parameter jitter: a number in `[0, 1)`; values outside are clamped.
    /// - Returns: the delay in seconds.
    package func delayAfterSuccess(jitter: Double) -> Double {
        let raw = successBase + Self.unit(jitter) * successJitter
        return min(min(max(raw, successBase), successMaximum), maximumDelay)
    }

    /// The delay after a failure.
    ///
    /// - Parameters:
    ///   - retryCount: the retry count including this failure.
    ///   - siteApprovalDecided: whether site approval is already `approved` or `denied`.
    ///   - jitter: a number in `[0, 1)`; values outside are clamped.
    /// - Returns: the delay in seconds.
    package func delayAfterFailure(retryCount: UInt32, siteApprovalDecided: Bool, jitter: Double) -> Double {
        if siteApprovalDecided { return delayAfterSuccess(jitter: jitter) }
        let raw = failureBase + Self.unit(jitter) * failureJitter
        let base = min(max(raw, failureBase), failureMaximum)
        return min(base * backoff(retryCount: retryCount), maximumDelay)
    }

    /// 1 below ``backoffStart``, then `2^(retryCount − (backoffStart − 1))`; the exponent is
    /// limited so the result stays finite (the delay cap applies afterwards).
    package func backoff(retryCount: UInt32) -> Double {
        guard retryCount >= backoffStart else { return 1 }
        let exponent = min(Int(retryCount) - Int(backoffStart) + 1, 60)
        return Double(UInt64(1) << UInt64(exponent))
    }

    private static func unit(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(max(value, 0), 0.999_999_999)
    }
}

/// The random part of recheck delays: a number in `[0, 1)`.
package protocol RecheckJitter: Sendable {
    /// The next value in `[0, 1)`.
    func next() -> Double
}

/// Uniform jitter from the system's random source (not a secret; no cryptographic use).
package struct SystemRecheckJitter: RecheckJitter {
    /// Creates the system jitter.
    package init() {}
    /// A uniform value in `[0, 1)`.
    package func next() -> Double { Double.random(in: 0..<1) }
}

/// The same value every time, for tests.
package struct FixedRecheckJitter: RecheckJitter {
    /// The value returned.
    package let value: Double
    /// Creates a fixed jitter.
    package init(_ value: Double) { self.value = value }
    /// ``value``.
    package func next() -> Double { value }
}
