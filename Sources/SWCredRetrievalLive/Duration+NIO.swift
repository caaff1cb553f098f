import NIOCore
import SWCredRetrieval

extension Duration {
    /// The duration as NIO's `TimeAmount` (nanoseconds, saturating).
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        let (nanosFromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .nanoseconds(Int64.max) }
        let (total, overflow2) = nanosFromSeconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        return .nanoseconds(overflow2 ? Int64.max : total)
    }

    /// "1.5 s".
    var secondsText: String {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000) s" : "\(Double(millis) / 1000) s"
    }
}
