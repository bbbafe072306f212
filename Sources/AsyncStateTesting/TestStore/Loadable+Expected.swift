import AsyncState

extension Loadable {
    /// A loadable with the fields you name, for describing an expected state
    /// by its values in a ``TestStore`` step instead of replaying the action
    /// through `Loadable.apply(_:)` (which would check the state machine
    /// against itself) — every layer included.
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
    /// Name only what differs from a plain load: each layer's fields default
    /// to "unused". What is derived — the state of a load in flight, the value
    /// shown with the pending edits applied — is derived as in any loadable,
    /// so a combination that cannot happen shows as a state unlike the one
    /// asked for, and fails the step.
    ///
    /// - Parameters:
    ///   - state: the expected `state`.
    ///   - value: the confirmed value; by default the value `state` holds —
    ///     unless a partial value or pending edits are shown, when it is
    ///     `settledState`'s.
    ///   - settledState: the state a cancel returns to; by default `state`
    ///     when it is settled, the value's `.success` for a refresh
    ///     (`.refreshing(value:)` with no partial value or pending edits
    ///     shown), else `.notLoaded`.
    ///   - inFlightID: the load in flight, if any.
    ///   - newestID: the newest load ever started or queued; by default
    ///     `inFlightID`, or the newest queued load.
    ///   - activity: why the load in flight runs; by default, with a load in
    ///     flight, its first attempt as a first load, a refresh or a retry
    ///     after a failure — whichever `settledState` and `value` make it.
    ///   - partialValue: what the load in flight streamed so far.
    ///   - settledAt: when the confirmed value settled, if stamped.
    ///   - invalidatedBefore: `.some(id)` if invalidated when `id` was the
    ///     newest load started, not queued (`.some(nil)`: none had started).
    ///   - queuedIDs: loads waiting in the queue, oldest first.
    ///   - pendingEdits: the edits pending, in start order.
    ///   - reappliedEdits: edits confirmed while the load in flight runs.
    ///   - conflicts: pending edits that do not apply to the value now.
    ///   - editError: the failure of the last edit that failed.
    ///   - newestEditID: the newest edit ever started; by default the last
    ///     pending one's.
    ///   - loadingMore: the "load more" in flight and what it asked for.
    ///   - newestMoreID: the newest "load more" ever started; by default the
    ///     one in flight.
    ///   - moreActivity: why the "load more" in flight runs; by default its
    ///     first attempt, for the next page (or after a failed one).
    ///   - moreError: the failure of the last "load more".
    ///   - window: the most pages a paged list keeps; below one, one, as
    ///     `Loadable(window:)` keeps.
    public init(
        expecting state: AsyncState<Value, Failure>,
        value: Value?? = nil,
        settledState: AsyncState<Value, Failure>? = nil,
        inFlightID: LoadID? = nil,
        newestID: LoadID?? = nil,
        activity: LoadActivity<Failure>?? = nil,
        partialValue: Value? = nil,
        settledAt: LoadClock.Instant? = nil,
        invalidatedBefore: LoadID?? = nil,
        queuedIDs: [LoadID] = [],
        pendingEdits: KeyedStates<LoadID, AnyEdit<Value>> = [:],
        reappliedEdits: [AnyEdit<Value>] = [],
        conflicts: [LoadID] = [],
        editError: Failure? = nil,
        newestEditID: LoadID?? = nil,
        loadingMore: (id: LoadID, request: PageRequest)? = nil,
        newestMoreID: LoadID?? = nil,
        moreActivity: LoadActivity<Failure>?? = nil,
        moreError: Failure? = nil,
        window: Int? = nil
    ) {
        let showsOverlay = partialValue != nil || !pendingEdits.isEmpty
        let settled: AsyncState<Value, Failure> =
            if let settledState { settledState } else if state.isSettled {
                state
            } else if !showsOverlay, case .refreshing(let shown) = state {
                .success(value: shown)
            } else { .notLoaded }
        let confirmed: Value? = value ?? (showsOverlay ? settled.value : state.value)
        var fields = Fields(settledState: settled)
        fields.confirmedValue = confirmed
        fields.partialValue = partialValue
        fields.inFlightID = inFlightID
        fields.newestID = newestID ?? (queuedIDs.last ?? inFlightID)
        let startedActivity = inFlightID.map { _ in
            LoadActivity<Failure>(startingFrom: fields.settledState, hasValue: confirmed != nil)
        }
        fields.activity = activity ?? startedActivity
        fields.settledAt = settledAt
        fields.invalidatedBefore = invalidatedBefore
        fields.queuedIDs = queuedIDs
        fields.pendingEdits = pendingEdits.map { ($0.key, $0.value) }
        fields.reappliedEdits = reappliedEdits
        fields.conflicts = conflicts
        fields.editError = editError
        fields.newestEditID = newestEditID ?? pendingEdits.keys.last
        fields.loadingMore = loadingMore
        fields.newestMoreID = newestMoreID ?? loadingMore?.id
        let moreStarted = loadingMore.map { _ in
            LoadActivity<Failure>(reason: moreError == nil ? .nextPage : .retryAfterFailure, lastFailure: moreError)
        }
        fields.moreActivity = moreActivity ?? moreStarted
        fields.moreError = moreError
        fields.window = window
        self.init(fields: fields)
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
