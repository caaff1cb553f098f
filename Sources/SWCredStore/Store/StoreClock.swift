public import Foundation
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
public final class TestStoreClock: StoreClock {
    private let current: Mutex<Date>

    /// Creates a clock that reads `start` until advanced.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    /// The clock's current instant.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or back) by `interval` seconds.
    public func advance(by interval: TimeInterval) { current.withLock { $0 += interval } }

    /// Sets the clock.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
