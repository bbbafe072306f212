import AsyncState

extension Loadable {
    /// A loadable with the fields you name, for describing an expected state
    /// by its values in a ``TestStore`` step instead of replaying the action
    /// through `Loadable.apply(_:)` (which would check the state machine
    /// against itself).
    ///
    /// ```swift
    /// await store.receive(.profile(.started(LoadID(1)))) {
    ///     $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(1))
    /// }
    /// await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
    ///     $0.profile = Loadable(expecting: .success(value: "Lee"), newestID: LoadID(1))
    /// }
    /// ```
    ///
    /// It builds any combination, consistent or not, so a test can also state
    /// what a wrong result would have been.
    ///
    /// - Parameters:
    ///   - state: the expected `state`.
    ///   - value: the expected `value`; by default the value `state` holds.
    ///   - settledState: the state a cancel returns to; by default `state`
    ///     when it is settled, else `.notLoaded`.
    ///   - inFlightID: the load in flight, if any.
    ///   - newestID: the newest load ever started; by default `inFlightID`.
    ///   - activity: why the load in flight runs; by default, with a load in
    ///     flight, its first attempt as a first load, a refresh or a retry
    ///     after a failure — whichever `settledState` and `value` make it.
    public init(
        expecting state: AsyncState<Value, Failure>,
        value: Value?? = nil,
        settledState: AsyncState<Value, Failure>? = nil,
        inFlightID: LoadID? = nil,
        newestID: LoadID?? = nil,
        activity: LoadActivity<Failure>?? = nil
    ) {
        let value = value ?? state.value
        let settledState = settledState ?? (state.isSettled ? state : .notLoaded)
        let startedActivity = inFlightID.map { _ in LoadActivity(startingFrom: settledState, hasValue: value != nil) }
        self.init(
            state: state,
            value: value,
            settledState: settledState,
            inFlightID: inFlightID,
            newestID: newestID ?? inFlightID,
            activity: activity ?? startedActivity
        )
    }
}

extension AsyncState {
    fileprivate var isSettled: Bool {
        switch self {
        case .notLoaded, .success, .error: true
        case .loading, .refreshing: false
        }
    }
}
