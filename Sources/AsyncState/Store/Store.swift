import Observation

/// Runs a feature: holds its state, processes actions with its reducer on the
/// main actor, and runs the effects the reducer returns.
///
/// ```swift
/// let store = Store(initialState: Profile.State(), reducer: Profile(api: api))
/// await store.send(.refresh).finish()
/// print(store.state.profile)
/// ```
///
/// **State** is read-only from outside; ``send(_:)`` is the only way to change it.
///
/// **Ordering.** `send` processes its action synchronously. Actions sent while
/// the store is processing (from a transition observer, an observation callback,
/// or a load's `.started`) are queued and processed in FIFO order before the
/// outer `send` returns. Effect results are applied on the main actor in the
/// order they arrive.
///
/// **Loads.** Each load effect gets the next ``LoadID`` (1, 2, 3, …). Its
/// `.started` action is processed inside the `send` that started it; a newer
/// load of the same ``Loadable`` cancels the older one's task according to its
/// ``OverlapPolicy``, and whatever the older task still sends is dropped.
///
/// **Observation.** The store is `Observable`: reading ``state`` inside
/// `withObservationTracking` (or a SwiftUI body) registers for its changes.
/// While nobody has read the state since the last change, `send` skips the
/// observation bookkeeping entirely, which keeps it in the tens of nanoseconds.
///
/// **Lifetime.** Effects hold the store weakly. Releasing the store cancels
/// every effect still running; their later sends are ignored.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action>: Observable {
    // The hot path (`send`, `state`) is `@inlinable` so it is specialized for
    // the feature's types in client code; these are the properties it uses.
    //
    // The mutable ones opt out of dynamic exclusivity checks, which otherwise
    // cost more than half of a `send`. Safe because: the store is `@MainActor`,
    // so no two threads ever access them; and on the main thread no access
    // overlaps another — each is a single read or write, except the reducer's
    // `inout` on `currentState`, during which nothing else touches
    // `currentState`: a reducer has no store to read, and even a misbehaving
    // one that calls `send` only reaches `queue`, `isProcessing` and
    // `isReducing` (see `send`), never `currentState`.
    @exclusivity(unchecked) @usableFromInline var currentState: State
    @usableFromInline let reducer: (inout State, Action) -> Effect<Action>

    @usableFromInline let registrar = ObservationRegistrar()
    /// Built once: a generic class's key path is costly to rebuild on every access.
    @usableFromInline let stateKeyPath: KeyPath<Store, State>
    /// Set when someone reads `state`, cleared when a change is announced. An
    /// observer registers by reading, and every observation (SwiftUI's,
    /// `withObservationTracking`'s) ends at the first change it is told of, so
    /// while this is `false` nobody can be listening and the announcement is skipped.
    @exclusivity(unchecked) @usableFromInline var isPossiblyObserved = false

    @exclusivity(unchecked) @usableFromInline var isProcessing = false
    /// True only while the reducer itself runs, to catch a reducer that sends.
    @exclusivity(unchecked) @usableFromInline var isReducing = false
    @exclusivity(unchecked) @usableFromInline var queue: [Action] = []
    @exclusivity(unchecked) @usableFromInline var transitionObservers: [@MainActor (Transition<State, Action>) -> Void] = []

    // The effect runner is `@inlinable` too, so it is specialized and needs
    // no generic metadata lookups at run time; these are its tables.
    @usableFromInline var nextLoadID: LoadID
    @usableFromInline var nextEffectToken = 0
    @usableFromInline var runningEffects: [Int: Task<Void, Never>] = [:]
    @usableFromInline var effectsByCancelID: [AnyHashable: Set<Int>] = [:]
    @usableFromInline var loads: [LoadID: RunningLoad] = [:]

    @usableFromInline
    struct RunningLoad {
        @usableFromInline let token: Int
        @usableFromInline let cancelsWhenSuperseded: Bool

        @inlinable
        init(token: Int, cancelsWhenSuperseded: Bool) {
            self.token = token
            self.cancelsWhenSuperseded = cancelsWhenSuperseded
        }
    }

    /// How many running effects are waiting for effects they started (a
    /// concatenation running its parts) — for simulation tools that must know
    /// when every effect is idle.
    @usableFromInline package var waitingEffectCount = 0

    /// Told the number of running effects whenever it changes — for test tools
    /// that must know it outside the main actor.
    @usableFromInline package var onRunningEffectCountChange: (@MainActor (Int) -> Void)?

    /// Called with a message when an effect misbehaves (for example throws an
    /// error nobody handles). By default the message goes to standard error.
    public var onIssue: @MainActor (String) -> Void = { reportToStandardError($0) }

    /// Creates a store that runs `reducer`, starting from `initialState`.
    ///
    /// - Parameter firstLoadID: the ID the first load gets; tests use the
    ///   default `#1` so expectations stay stable.
    @inlinable
    public convenience init<R: Reducer>(
        initialState: State,
        reducer: R,
        firstLoadID: LoadID = LoadID(1)
    ) where R.State == State, R.Action == Action {
        self.init(initialState: initialState, reduce: reducer.reduce(into:action:), firstLoadID: firstLoadID)
    }

    @usableFromInline
    init(initialState: State, reduce: @escaping (inout State, Action) -> Effect<Action>, firstLoadID: LoadID) {
        self.currentState = initialState
        self.reducer = reduce
        self.nextLoadID = firstLoadID
        self.stateKeyPath = \Store.state
    }

    isolated deinit {
        for task in runningEffects.values { task.cancel() }
    }

    /// The current state. Reading it registers an observation dependency.
    @inlinable
    public var state: State {
        isPossiblyObserved = true
        registrar.access(self, keyPath: stateKeyPath)
        return currentState
    }

    /// Reads a property of ``state``, e.g. `store.profile`.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        state[keyPath: keyPath]
    }

    /// How many effects are running now.
    public var runningEffectCount: Int { runningEffects.count }

    /// Every effect running now, as one task — for test tools that wait for
    /// a store to become idle.
    package var runningEffectsTask: StoreTask { StoreTask(Array(runningEffects.values)) }

    /// Processes `action` now, then any actions it queued, and starts their effects.
    ///
    /// - Returns: a handle to await or cancel the effects this call started.
    @inlinable
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        if isProcessing {
            if isReducing { reportSendFromReducer(action) }
            queue.append(action)
            return StoreTask()
        }
        var started: [Task<Void, Never>] = []
        isProcessing = true
        process(action, startingInto: &started)
        if !queue.isEmpty { drainQueue(startingInto: &started) }
        isProcessing = false
        return StoreTask(started)
    }

    /// Calls `observer` after every action the store processes, with the state
    /// after it and whether it was dropped as stale. Capture the store weakly
    /// in `observer` to avoid a reference cycle.
    public func observeTransitions(_ observer: @escaping @MainActor (Transition<State, Action>) -> Void) {
        transitionObservers.append(observer)
    }

    // MARK: Processing

    @inlinable
    @inline(never)
    func drainQueue(startingInto started: inout [Task<Void, Never>]) {
        var index = 0
        while index < queue.count {
            let next = queue[index]
            index += 1
            process(next, startingInto: &started)
        }
        queue.removeAll(keepingCapacity: true)
    }

    @inlinable
    func process(_ action: Action, startingInto started: inout [Task<Void, Never>]) {
        let effect: Effect<Action>
        if isPossiblyObserved {
            isPossiblyObserved = false
            registrar.willSet(self, keyPath: stateKeyPath)
            isReducing = true
            effect = reducer(&currentState, action)
            isReducing = false
            registrar.didSet(self, keyPath: stateKeyPath)
        } else {
            isReducing = true
            effect = reducer(&currentState, action)
            isReducing = false
        }
        if !transitionObservers.isEmpty {
            notifyObservers(action, isDropped: effect._isDropped)
        }
        if !effect.isNone {
            start(effect, into: &started)
        }
    }

    @usableFromInline
    @inline(never)
    func reportSendFromReducer(_ action: Action) {
        onIssue(
            "send(\(action)) was called from inside a reducer. Reducers must be pure: return an effect instead. "
                + "The action is queued and runs after the current one."
        )
    }

    @usableFromInline
    @inline(never)
    func notifyObservers(_ action: Action, isDropped: Bool) {
        let transition = Transition(action: action, state: currentState, isDropped: isDropped)
        for observer in transitionObservers { observer(transition) }
    }
}
