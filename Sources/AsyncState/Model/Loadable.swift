/// One loadable resource: its ``AsyncState/AsyncState`` plus the bookkeeping that makes
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
/// _ = profile.apply(.started(LoadID(1)))                 // state: .loading
/// _ = profile.apply(.started(LoadID(2)))                 // #1 is superseded
/// _ = profile.apply(.finished(LoadID(2), "Lee"))         // state: .success(value: "Lee")
/// let late = profile.apply(.finished(LoadID(1), "Old"))  // .dropped
/// ```
public struct Loadable<Value: Equatable, Failure: Equatable>: Equatable {
    // Stored as internal, `@usableFromInline` properties so `apply(_:)` can be
    // inlined and specialized in client code; the public API is read-only.
    @usableFromInline var _state: AsyncState<Value, Failure>
    @usableFromInline var _value: Value?
    @usableFromInline var _settledState: AsyncState<Value, Failure>
    @usableFromInline var _inFlightID: LoadID?
    @usableFromInline var _newestID: LoadID?
    /// Why the load in flight runs and its attempt; `nil` when settled.
    @usableFromInline var _activity: LoadActivity<Failure>?
    /// The partial value of the load in flight, shown until it settles.
    @usableFromInline var _partial: Value?

    /// The current state, as an ``AsyncState/AsyncState``.
    @inlinable
    public var state: AsyncState<Value, Failure> { _state }

    /// The last successful (or locally set) value, kept through reloads and
    /// failures — or, while the load in flight reports ``LoadAction/progress(_:_:)``,
    /// its partial value.
    ///
    /// Unlike ``AsyncState/AsyncState/value``, this stays non-`nil` while reloading and in
    /// `.error`: use it to decide whether there is content to show.
    @inlinable
    public var value: Value? { _partial ?? _value }

    /// The partial value reported by the load in flight, or `nil`. It lasts
    /// only as long as the attempt that reported it: a retry, a failure or a
    /// cancellation returns ``value`` to the last settled value.
    @inlinable
    public var partialValue: Value? { _partial }

    /// Why the load in flight runs — first load, refresh, retry after a
    /// failure — and which attempt it is on; `nil` when nothing is in flight.
    @inlinable
    public var activity: LoadActivity<Failure>? { _activity }

    /// The state this loadable returns to when its newest load is cancelled:
    /// the state before the current chain of overlapping loads began.
    /// Always `.notLoaded`, `.success` or `.error`.
    @inlinable
    public var settledState: AsyncState<Value, Failure> { _settledState }

    /// The ID of the load whose result will be applied, or `nil` when settled.
    @inlinable
    public var inFlightID: LoadID? { _inFlightID }

    /// The newest ID ever started here; a `.started` action must be newer.
    @inlinable
    public var newestID: LoadID? { _newestID }

    /// Creates a loadable in `.notLoaded`.
    @inlinable
    public init() {
        _state = .notLoaded
        _value = nil
        _settledState = .notLoaded
        _inFlightID = nil
        _newestID = nil
        _activity = nil
        _partial = nil
    }

    /// Creates a loadable that already holds `value`, as `.success(value:)`.
    @inlinable
    public init(value: Value) {
        _state = .success(value: value)
        _value = value
        _settledState = .success(value: value)
        _inFlightID = nil
        _newestID = nil
        _activity = nil
        _partial = nil
    }

    /// A loadable with exactly these fields, consistent or not — for the
    /// testing library, which lets tests describe expected states by value.
    package init(
        state: AsyncState<Value, Failure>,
        value: Value?,
        settledState: AsyncState<Value, Failure>,
        inFlightID: LoadID?,
        newestID: LoadID?,
        activity: LoadActivity<Failure>?
    ) {
        self.init()
        _state = state
        _value = value
        _settledState = settledState
        _inFlightID = inFlightID
        _newestID = newestID
        _activity = activity
    }

    /// The failure of the latest settled load, or `nil`.
    @inlinable
    public var error: Failure? { _state.error }

    /// Whether a load is in flight.
    @inlinable
    public var isLoading: Bool { _inFlightID != nil }

    /// Applies `action` to the state machine alone and says whether it was
    /// applied or dropped as stale.
    ///
    /// Inside a reducer, return ``reduce(_:)`` instead: it applies the action
    /// the same way, and its effect also cancels the work of a superseded load
    /// and reports a drop to the store. `apply` does neither, which is why its
    /// result may not be ignored.
    ///
    /// | action | newest load | otherwise |
    /// |---|---|---|
    /// | `.started(id)` | `id` newer than every ID seen: `.refreshing(value:)` if a value is known, else `.loading` | dropped |
    /// | `.finished(id, v)` | `.success(value: v)`, and `v` becomes ``value`` | dropped |
    /// | `.failed(id, e)` | `.error(error: e)`; ``value`` stays readable | dropped |
    /// | `.cancelled(id)` | back to ``settledState`` | dropped |
    /// | `.retrying(id, r)` | stays loading, without a partial value; ``activity`` moves to attempt `r.attempt + 1` | dropped |
    /// | `.progress(id, v)` | `.refreshing(value: v)`; ``value`` is `v` until the load settles | dropped |
    ///
    /// `.started` also sets ``activity``, which every settling action clears.
    @inlinable
    public mutating func apply(_ action: LoadAction<Value, Failure>) -> LoadDisposition {
        switch action {
        case .started(let id):
            if let newest = _newestID, id <= newest { return .dropped }
            if _inFlightID == nil { _settledState = _state }
            _newestID = id
            _inFlightID = id
            _partial = nil
            _activity = LoadActivity(startingFrom: _settledState, hasValue: _value != nil)
            _state = _value.map { .refreshing(value: $0) } ?? .loading
        case .retrying(let id, let retry):
            guard id == _inFlightID else { return .dropped }
            // A retry starts the attempt over, so what it streamed is gone.
            _partial = nil
            _activity = _activity?.retrying(retry)
            _state = _value.map { .refreshing(value: $0) } ?? .loading
        case .progress(let id, let partial):
            guard id == _inFlightID else { return .dropped }
            _partial = partial
            _state = .refreshing(value: partial)
        case .finished(let id, let newValue):
            guard id == _inFlightID else { return .dropped }
            settle(.success(value: newValue))
            _value = newValue
        case .failed(let id, let failure):
            guard id == _inFlightID else { return .dropped }
            settle(.error(error: failure))
        case .cancelled(let id):
            guard id == _inFlightID else { return .dropped }
            settle(_settledState)
        }
        return .applied
    }

    /// Stores a value that did not come from a load's final result — a partial
    /// result streamed by the load in flight, or a local edit.
    ///
    /// While a load is in flight the state becomes `.refreshing(value:)` (a value
    /// arriving during a refresh keeps the indicator);
    /// otherwise `.success(value:)`. Cancelling the load afterwards returns to
    /// this value.
    @inlinable
    public mutating func setValue(_ newValue: Value) {
        _value = newValue
        _partial = nil
        _settledState = .success(value: newValue)
        _state = _inFlightID == nil ? .success(value: newValue) : .refreshing(value: newValue)
    }

    /// Returns to `.notLoaded` and forgets the last value. A load in flight is
    /// abandoned: its result will be dropped as stale.
    ///
    /// - Returns: the abandoned load's ID, so a reducer can also cancel its work.
    @inlinable
    @discardableResult
    public mutating func reset() -> LoadID? {
        let abandoned = _inFlightID
        let newest = _newestID
        self = Loadable()
        _newestID = newest
        return abandoned
    }

    /// Cancels the load in flight at once, returning to ``settledState``.
    ///
    /// - Returns: the cancelled load's ID, or `nil` if nothing was in flight.
    @inlinable
    @discardableResult
    public mutating func cancel() -> LoadID? {
        guard let id = _inFlightID else { return nil }
        _ = apply(.cancelled(id))
        return id
    }

    @inlinable
    mutating func settle(_ newState: AsyncState<Value, Failure>) {
        _state = newState
        _settledState = newState
        _inFlightID = nil
        _activity = nil
        _partial = nil
    }
}

extension Loadable: CustomReflectable {
    /// The public fields, under their public names, for dumps and snapshots.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "state": state as Any,
                "value": value as Any,
                "settledState": settledState as Any,
                "inFlightID": inFlightID as Any,
                "newestID": newestID as Any,
                "activity": activity as Any,
                "partialValue": partialValue as Any,
            ], displayStyle: .struct)
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
        if let activity, activity.isRetry { text += " (\(activity))" }
        return text
    }
}
