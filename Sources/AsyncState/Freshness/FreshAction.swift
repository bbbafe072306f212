/// What can happen to a ``FreshLoadable``: a load action stamped with the time
/// it happened, or an invalidation.
///
/// The time comes from the feature's injected clock, read by the effect that
/// sends the action — ``Effect/load(_:clock:timeout:operation:)`` stamps every
/// load action for you — never by the reducer.
///
/// ```swift
/// enum Action {
///     case becameActive(ContinuousClock.Instant)
///     case user(FreshAction<User, APIError, ContinuousClock.Instant>)
/// }
/// ```
public enum FreshAction<Value: Equatable, Failure: Equatable, Instant: InstantProtocol> {
    /// A ``LoadAction``, unchanged in meaning, that happened at `at`.
    case load(LoadAction<Value, Failure>, at: Instant)
    /// The value is out of date: mark it stale, and load again — at once if
    /// nothing is in flight, otherwise as soon as the overtaken load settles.
    case invalidate
}

extension FreshAction: Equatable {}
extension FreshAction: Sendable where Value: Sendable, Failure: Sendable, Instant: Sendable {}

extension FreshAction: CustomStringConvertible {
    /// `finished(#2, "Lee") at 1.5 seconds`, or `invalidate`.
    public var description: String {
        switch self {
        case .load(let action, let now): "\(action) at \(now)"
        case .invalidate: "invalidate"
        }
    }
}
