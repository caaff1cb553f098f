import Dispatch
import Synchronization

/// Delivers one operation's result to a completion handler exactly once, asynchronously, never
/// before the API call has returned, on a global concurrent queue of default priority (SWC-3.1,
/// SWC-3.2).
///
/// The API function creates the gate, starts the operation, and calls ``callReturned()`` as its
/// last statement; the operation calls ``deliver(_:)``. Whichever comes second dispatches the
/// handler. The state lives in a lock-protected enum: a transition takes the handler out under
/// the lock, and the dispatch happens after the lock is released. A second delivery is a
/// programmer error and traps (it would mean a completion called twice).
final class CompletionGate<Value: Sendable>: Sendable {
    typealias Handler = @Sendable (Value) -> Void

    private enum State {
        /// The API call has not returned yet; the result may already be here.
        case inCall(Handler?, Value?)
        /// The API call has returned; waiting for the result.
        case returned(Handler?)
        /// The handler has been dispatched (or there was none).
        case delivered
    }

    private let state: Mutex<State>

    init(_ handler: Handler?) {
        state = Mutex(.inCall(handler, nil))
    }

    /// Called by the API function just before it returns.
    func callReturned() {
        let dispatch = state.withLock { state -> (Handler?, Value)? in
            switch state {
            case .inCall(let handler, .some(let value)):
                state = .delivered
                return (handler, value)
            case .inCall(let handler, .none):
                state = .returned(handler)
                return nil
            case .returned, .delivered:
                preconditionFailure("CompletionGate: callReturned() called twice")
            }
        }
        if let (handler, value) = dispatch { Self.dispatch(handler, value) }
    }

    /// Called by the operation with its result, exactly once.
    func deliver(_ value: Value) {
        let handler = state.withLock { state -> Handler?? in
            switch state {
            case .inCall(let handler, .none):
                state = .inCall(handler, value)
                return .none
            case .returned(let handler):
                state = .delivered
                return .some(handler)
            case .inCall(_, .some), .delivered:
                preconditionFailure("CompletionGate: a result was delivered twice")
            }
        }
        if case .some(let handler) = handler { Self.dispatch(handler, value) }
    }

    private static func dispatch(_ handler: Handler?, _ value: Value) {
        guard let handler else { return }  // SWC-3.3: a nil completion is allowed.
        DispatchQueue.global(qos: .default).async { handler(value) }
    }
}
