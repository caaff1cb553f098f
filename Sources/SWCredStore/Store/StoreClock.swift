public import FoundationEssentials
import Synchronization

/// Where the store gets the current time for creation and modification dates.
public protocol StoreClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system clock.
public struct LiveStoreClock: StoreClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}

/// A clock that tests set and advance by hand.
package final class TestStoreClock: StoreClock {
    private let current: Mutex<Date>

    /// Creates a clock that reads `start` until advanced.
    package init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    /// The clock's current instant.
    package func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or back) by `interval` seconds.
    package func advance(by interval: TimeInterval) { current.withLock { $0 += interval } }

    /// Sets the clock.
    package func set(_ date: Date) { current.withLock { $0 = date } }
}
