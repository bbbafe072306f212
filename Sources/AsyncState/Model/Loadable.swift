/// One loadable resource: its ``AsyncState`` plus the bookkeeping that makes
/// overlapping loads settle correctly.
///
/// `Loadable` is a plain value. ``apply(_:)`` is a pure function of the current
/// value and a ``LoadAction``, and it enforces two promises by construction:
///
/// - **Last started wins.** Only the newest started load may settle the state;
///   a result from any older load is dropped, however late it arrives.
/// - **Cancellation is not failure.** Cancelling the newest load returns to the
///   state from before its chain of loads began, never to `.error`, never stuck
///   in `.loading`.
///
/// It also remembers the last successful value, so ``value`` stays readable while
/// reloading and after a failure — a screen can keep its content and add an error
/// banner instead of going blank.
///
/// ```swift
/// var profile = Loadable<String, LoadError>()
/// profile.apply(.started(LoadID(1)))          // state: .loading
/// profile.apply(.started(LoadID(2)))          // #1 is superseded
/// profile.apply(.finished(LoadID(2), "Lee"))  // state: .success(value: "Lee")
/// profile.apply(.finished(LoadID(1), "Old"))  // .droppedAsStale
/// ```
public struct Loadable<Value: Equatable, Failure: Equatable>: Equatable {
    /// The current state, as the seed `AsyncState` enum.
    public private(set) var state: AsyncState<Value, Failure>

    /// The last successful (or locally set) value, kept through reloads and failures.
    ///
    /// Unlike ``AsyncState/value``, this stays non-`nil` in `.loading` after a
    /// reset-free reload and in `.error`: use it to decide whether there is
    /// content to show.
    public private(set) var value: Value?

    /// The state this loadable returns to when its newest load is cancelled:
    /// the state before the current chain of overlapping loads began.
    /// Always `.notLoaded`, `.success` or `.error`.
    public private(set) var settledState: AsyncState<Value, Failure>

    /// The ID of the load whose result will be applied, or `nil` when settled.
    public private(set) var inFlightID: LoadID?

    /// The newest ID ever started here; a `.started` action must be newer.
    public private(set) var newestID: LoadID?

    /// Creates a loadable in `.notLoaded`.
    public init() {
        self.state = .notLoaded
        self.value = nil
        self.settledState = .notLoaded
        self.inFlightID = nil
        self.newestID = nil
    }

    /// Creates a loadable that already holds `value`, as `.success(value:)`.
    public init(value: Value) {
        self.state = .success(value: value)
        self.value = value
        self.settledState = .success(value: value)
        self.inFlightID = nil
        self.newestID = nil
    }

    /// The failure of the latest settled load, or `nil`.
    public var error: Failure? { state.error }

    /// Whether a load is in flight.
    public var isLoading: Bool { inFlightID != nil }

    /// Applies `action` and says whether it was applied or dropped as stale.
    ///
    /// | action | newest load | otherwise |
    /// |---|---|---|
    /// | `.started(id)` | `id` newer than every ID seen: `.refreshing(value:)` if a value is known, else `.loading` | dropped |
    /// | `.finished(id, v)` | `.success(value: v)`, and `v` becomes ``value`` | dropped |
    /// | `.failed(id, e)` | `.error(error: e)`; ``value`` stays readable | dropped |
    /// | `.cancelled(id)` | back to ``settledState`` | dropped |
    @discardableResult
    public mutating func apply(_ action: LoadAction<Value, Failure>) -> LoadDisposition {
        switch action {
        case .started(let id):
            if let newestID, id <= newestID { return .droppedAsStale }
            if inFlightID == nil { settledState = state }
            newestID = id
            inFlightID = id
            state = value.map { .refreshing(value: $0) } ?? .loading
        case .finished(let id, let newValue):
            guard id == inFlightID else { return .droppedAsStale }
            settle(.success(value: newValue))
            value = newValue
        case .failed(let id, let failure):
            guard id == inFlightID else { return .droppedAsStale }
            settle(.error(error: failure))
        case .cancelled(let id):
            guard id == inFlightID else { return .droppedAsStale }
            settle(settledState)
        }
        return .applied
    }

    /// Stores a value that did not come from a load's final result — a partial
    /// result streamed by the load in flight, or a local edit.
    ///
    /// While a load is in flight the state becomes `.refreshing(value:)` (the
    /// seed's rule: a value arriving during a refresh keeps the indicator);
    /// otherwise `.success(value:)`. Cancelling the load afterwards returns to
    /// this value.
    public mutating func setValue(_ newValue: Value) {
        value = newValue
        settledState = .success(value: newValue)
        state = inFlightID == nil ? .success(value: newValue) : .refreshing(value: newValue)
    }

    /// Returns to `.notLoaded` and forgets the last value. A load in flight is
    /// abandoned: its result will be dropped as stale.
    ///
    /// - Returns: the abandoned load's ID, so a reducer can also cancel its work.
    @discardableResult
    public mutating func reset() -> LoadID? {
        let abandoned = inFlightID
        let newestID = self.newestID
        self = Loadable()
        self.newestID = newestID
        return abandoned
    }

    /// Cancels the load in flight at once, returning to ``settledState``.
    ///
    /// - Returns: the cancelled load's ID, or `nil` if nothing was in flight.
    @discardableResult
    public mutating func cancel() -> LoadID? {
        guard let id = inFlightID else { return nil }
        apply(.cancelled(id))
        return id
    }

    private mutating func settle(_ newState: AsyncState<Value, Failure>) {
        state = newState
        settledState = newState
        inFlightID = nil
    }
}

extension Loadable: Sendable where Value: Sendable, Failure: Sendable {}
extension Loadable: Hashable where Value: Hashable, Failure: Hashable {}

extension Loadable: CustomStringConvertible {
    /// The state, followed by the load in flight, e.g. `refreshing(value: 3) (#2 in flight)`.
    public var description: String {
        var text = state.description
        if case .error = state, let value {
            text += " (last value: \(describeValue(value)))"
        }
        if let inFlightID { text += " (\(inFlightID) in flight)" }
        return text
    }
}
