import Observation

/// Runs a feature: holds its state, processes actions with its reducer on the
/// main actor, and runs the effects the reducer returns.
///
/// ```swift
/// let store = Store(initialState: Profile.State(), reducer: Profile(api: api))
/// await store.send(.refresh).finish()
/// let profile = store.state.profile   // or `store.profile`
/// ```
///
/// **State** is read-only from outside; ``send(_:)`` is the only way to change it.
///
/// **Ordering.** `send` processes its action synchronously. Actions sent while
/// the store is processing (from a transition observer, an observation callback,
/// or a load's `.started`) are queued and processed in FIFO order before the
/// outer `send` returns. Effect results are applied on the main actor in the
/// order they arrive; a result that arrives inside `send` is processed before
/// `send` returns.
///
/// **Starting effects.** The effects of an action start once it, and every
/// action queued behind it, has been processed — oldest first, each running
/// to its first suspension before the next starts. Where the platform has
/// `Task.immediate` (Linux, and Apple platforms from the 26 releases) an
/// effect runs on the main actor inside the `send` that started it, so a load
/// whose operation answers without suspending settles before `send` returns
/// and costs no task switch; elsewhere its task is enqueued on the main actor
/// and runs after `send` returns. The sequence of actions is the same on both
/// paths; only when they arrive differs:
///
/// - A load's `.started(id)` is processed before anything the load reports.
/// - An operation that sends while it runs has its action processed at once,
///   before the load's own result; its `send` returns an empty ``StoreTask``
///   when effects start immediately, because the effects it starts wait for
///   the running one to suspend.
/// - An operation that cancels its own load, or starts a load that supersedes
///   it — itself or from a task it starts — cancels the load's task at once,
///   and only that task: the load reports `.cancelled(id)`, which is dropped
///   as stale.
/// - An effect cancelled before it started runs cancelled, as a task cancelled
///   before it ran would.
///
/// An effect body that never suspends and loops forever blocks the main actor
/// on either path — inside `send` when effects start immediately, right after
/// it otherwise. Move CPU-heavy work off the main actor.
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
    // `inout` on `_currentState`, during which nothing else writes
    // `_currentState`: a misbehaving reducer that calls `send` only reaches
    // `_queue`, `_isProcessing` and `_isReducing` (see `send`), and one that
    // captured its store and reads `state` (or an `onIssue` handler that
    // does) reads the value as the reducer left it between two of its own
    // statements — a whole value, which it copies. An effect that starts with
    // `Task.immediate` and sends from its first synchronous part runs the
    // reducer again, but only from `drainQueue`'s launch step, between two
    // actions, when no access to `_currentState` is open. `_queue`'s
    // elements are destroyed outside any access to it
    // (`discardProcessedActions`), since a deinit they run may send.
    @exclusivity(unchecked) @usableFromInline var _currentState: State
    @usableFromInline let _reducer: (inout State, Action) -> Effect<Action>

    @usableFromInline let _registrar = ObservationRegistrar()
    /// Built once: a generic class's key path is costly to rebuild on every access.
    @usableFromInline let _stateKeyPath: KeyPath<Store, State>
    /// What readers of the whole state register: a path to a stored byte, not
    /// `_stateKeyPath` — a computed property of a generic class, whose
    /// key path hashes its getter and generic arguments each time the
    /// registrar looks it up (a reader, a `willSet`, a `didSet`): 230
    /// instructions a re-armed send, which an `@Observable` class's path to
    /// a stored property does not pay. Only its identity matters.
    @usableFromInline let _stateKey: KeyPath<Store, UInt8>
    /// What `_stateKey` points at.
    @usableFromInline let _stateMark: UInt8 = 0
    /// Set when someone reads `state`, cleared when a change is announced. An
    /// observer registers by reading, and every observation (SwiftUI's,
    /// `withObservationTracking`'s) ends at the first change it is told of, so
    /// while this is `false` nobody can be listening and the announcement is skipped.
    @exclusivity(unchecked) @usableFromInline var _isPossiblyObserved = false
    /// The whole state as a part, compared with `==`, when `State` is
    /// `Equatable`; looked up on the first read of ``state``.
    @exclusivity(unchecked) @usableFromInline var _statePart: StorePart<State, Action>?
    @exclusivity(unchecked) @usableFromInline var _hasLookedUpStatePart = false
    /// Makes `_statePart`, when the store was made where `State` is known to be `Equatable`.
    @exclusivity(unchecked) @usableFromInline var _statePartMaker: (() -> StorePart<State, Action>)?
    // The observation tables below opt out of dynamic exclusivity checks
    // too, for the same reasons: the main actor, and accesses that are each
    // a single read, write, lookup or insertion, with readers' change
    // handlers (which may read, and so insert) run between them. Checked,
    // a cache hit spent most of its time in `swift_beginAccess`.

    /// The parts read through a member (`store.title`) or ``subscript(part:)``,
    /// by path, kept once made: a part's path from the store costs an
    /// allocation to build.
    @exclusivity(unchecked) @usableFromInline var _valueParts: [AnyKeyPath: StorePart<State, Action>] = [:]
    /// The keyed collections read row by row (``subscript(part:key:)``), by path.
    @exclusivity(unchecked) @usableFromInline var _rowParts: [AnyKeyPath: StorePart<State, Action>] = [:]
    /// The parts that have readers, compared after every action. Unchecked
    /// for the reasons above: each access is one read, append or removal,
    /// and a part's change handlers, which may read (and so append), run
    /// between them (see `announceChanges`).
    @exclusivity(unchecked) @usableFromInline var _listedParts: ContiguousArray<StorePart<State, Action>> = []

    @exclusivity(unchecked) @usableFromInline var _isProcessing = false
    /// True only while the reducer itself runs, to catch a reducer that sends.
    @exclusivity(unchecked) @usableFromInline var _isReducing = false
    @exclusivity(unchecked) @usableFromInline var _queue: [Action] = []
    /// Where ``record(into:)`` keeps what this store processes; `nil` when
    /// not recording, so a store that records nothing checks one optional.
    @exclusivity(unchecked) @usableFromInline var _recorder: Recorder<State, Action>? {
        didSet {
            // Stopped while the store processes an action — by an observer, or
            // by the deinit of an action the ring lets go, while the store
            // appends to the ring at +0 — the old recorder is kept until the
            // store records again, stops again or goes: its buffer may be in use.
            _recorderLeftDuringStep = _isProcessing ? oldValue : nil
            // Started while the store processes an action — from a reader's
            // change handler, which runs before the transition observers, or
            // from an observer — the recording starts with the next action,
            // from the state this one left (`notifyObservers`). Started from
            // a change handler, it recorded this action a second time.
            _recordingStartsAfterStep = _isProcessing && _recorder != nil
            _recordingBuffer = _recordingStartsAfterStep ? nil : _recorder.map { Unmanaged.passUnretained($0._buffer) }
            // A recorder holds the first observer's place (a closure that does
            // nothing: `notifyObservers` records before it tells the rest), so
            // `send` still checks one thing for recorders and observers both.
            switch (oldValue, _recorder) {
            case (nil, .some): _transitionObservers.insert({ _ in }, at: 0)
            case (.some, nil): _transitionObservers.removeFirst()
            default: break
            }
        }
    }
    /// The buffer of `_recorder`, appended to on every recorded `send` at +0:
    /// no retain and release (an `unowned(unsafe)` read still retained).
    /// Safe: it is set only with `_recorder`, which holds the recorder — and
    /// the recorder its buffer, a `let` — strongly for as long as this is set.
    @exclusivity(unchecked) @usableFromInline var _recordingBuffer: Unmanaged<RecordingBuffer<State, Action>>?
    /// A recorder was set while the store processed an action: recording
    /// starts once that action's observers have been told (see `_recorder`).
    @exclusivity(unchecked) @usableFromInline var _recordingStartsAfterStep = false
    /// The recorder stopped while the store processed an action (see `_recorder`).
    @exclusivity(unchecked) @usableFromInline var _recorderLeftDuringStep: Recorder<State, Action>?
    @exclusivity(unchecked) @usableFromInline var _transitionObservers: [@MainActor (Transition<State, Action>) -> Void] = []

    // The effect runner is `@inlinable` too, so it is specialized and needs
    // no generic metadata lookups at run time; these are its tables.
    //
    // They opt out of dynamic exclusivity checks as well: a load that answers
    // at once made 26 of them, about 10% of its time. Safe for the reasons
    // above — the main actor, and no access that overlaps another — and
    // because the runner's own code is all that runs inside these accesses:
    // their keys are `Int` and `LoadID`; effects, cancellation handlers and
    // observers run between accesses, never inside one (values are moved or
    // copied out first: `drainQueue` moves each pending effect out of
    // `_pending` before it launches it, `launch` registers the task after,
    // and a task is copied out of a table before it is cancelled); a cancel
    // ID leaves `_cancelIDOfEffect` by `removeValue`, and is destroyed after
    // the access; and no value an access destroys runs user code — releasing a
    // `Task` handle never does (a running task keeps itself alive, and a
    // finished one has released its closure), and pending effects, whose
    // closures may hold the last reference to a user's object, are moved out
    // of `_pending` and destroyed outside any access to it (`drainQueue`).
    // `_effectsByCancelID` keeps its checks: its keys are the user's cancel
    // IDs, whose `hash(into:)` and `==` run inside its accesses.
    @exclusivity(unchecked) @usableFromInline var _nextLoadID: LoadID
    @exclusivity(unchecked) @usableFromInline var _nextEffectToken = 0
    @exclusivity(unchecked) @usableFromInline var _runningEffects: [Int: Task<Void, Never>] = [:]
    @usableFromInline var _effectsByCancelID: [CancelID: Set<Int>] = [:]
    /// The cancel ID of each running effect that has one, by token.
    @exclusivity(unchecked) @usableFromInline var _cancelIDOfEffect: [Int: CancelID] = [:]
    /// The IDs an effect was marked with besides its own (`cancellable(id:)`
    /// on work that had an ID), by token: only for taking them out of
    /// `_effectsByCancelID` when it ends.
    @exclusivity(unchecked) @usableFromInline var _marksOfEffect: [Int: [CancelID]] = [:]
    /// While `schedule` walks an effect marked with more IDs, those IDs: every
    /// effect it enters in the tables is cancellable by each.
    @exclusivity(unchecked) @usableFromInline var _markingCancelIDs: [CancelID] = []
    /// The ``Send`` every effect gets, made on first use: one closure and one
    /// weak reference per store rather than per effect.
    @exclusivity(unchecked) @usableFromInline var _cachedSender: Send<Action>?
    /// The weak reference to this store that its effects hold, made on first
    /// use: a store that never runs an effect (an `OperationTracker` makes one
    /// per key) forms no weak reference at all.
    @exclusivity(unchecked) @usableFromInline var _cachedReference: Reference?
    /// Where every load's work reports, made on first use (see `LoadReporter`).
    @exclusivity(unchecked) @usableFromInline var _cachedLoadReporter: LoadReporter<Action>?
    /// The same reporter, unretained, for loads to be given at +0: the store
    /// holds it in `_cachedLoadReporter` from its first load on.
    @exclusivity(unchecked) @usableFromInline var _unretainedLoadReporter: Unmanaged<LoadReporter<Action>>?
    /// Make `_cachedSender` and `_cachedLoadReporter`, set by the inlinable
    /// initializers so that the closures every effect reports through are
    /// specialized for the feature. Made in generic code — by a first load
    /// that a `Cache`'s methods start — they ran every action they carried
    /// through an unspecialized store, which looked up generic metadata at
    /// each step (BENCHMARKS.md, "Issue 25, sixth pass").
    @exclusivity(unchecked) @usableFromInline var _senderMaker: ((Store) -> Send<Action>)?
    @exclusivity(unchecked) @usableFromInline var _loadReporterMaker: ((Store) -> LoadReporter<Action>)?
    @exclusivity(unchecked) @usableFromInline var _loads = LoadTable<RunningLoad>()
    /// Effects scheduled by the actions being processed, launched in this
    /// order once the queue is empty (see `drainQueue`); during a drain, the
    /// ones already launched are placeholders. Empty outside a drain.
    @exclusivity(unchecked) @usableFromInline var _pending: [PendingEffect] = []
    /// True while `drainQueue` runs, so that a nested `send` leaves launching to it.
    @exclusivity(unchecked) @usableFromInline var _isDraining = false
    /// How effects' tasks start, and the effect whose task is being started
    /// while `Task.immediate` runs it synchronously; shared with the tasks.
    @usableFromInline let _launch = EffectLaunch()
    /// How effects start: at once on the main actor where the platform allows,
    /// or enqueued. Tests set it to run the same contract on both paths.
    @inlinable
    package var _effectStart: EffectStart {
        get { _launch._start }
        set { _launch._start = newValue }
    }
    /// For each queue of loads (`OverlapPolicy.queue`), the last run queued:
    /// the next one waits for it. Keyed by queue number.
    @exclusivity(unchecked) @usableFromInline var _queueTails: [Int: QueuedRun] = [:]
    /// The queue each load in a queue belongs to, so a start queued behind
    /// it joins the end of that queue.
    @exclusivity(unchecked) @usableFromInline var _queueOfLoad: [LoadID: Int] = [:]
    @exclusivity(unchecked) @usableFromInline var _nextQueue = 0
    /// The queued load whose turn `startPart` is starting, and its
    /// start, which `.startFrom` tells the value shown as it started.
    @exclusivity(unchecked) @usableFromInline var _queuedTurn: (id: LoadID, start: LoadStart<Action>)?
    /// The effect whose part `startPart` is starting — what a test tool is
    /// told started the effects that begin meanwhile; `nil` while an
    /// action's effects start.
    @exclusivity(unchecked) @usableFromInline var _partOf: Int?

    /// The last run queued in a queue, which the next run waits behind.
    @usableFromInline
    struct QueuedRun {
        @usableFromInline let _token: Int
        /// Ends once this run and everything queued before it have ended,
        /// even if this run was withdrawn early.
        @usableFromInline let _chain: Task<Void, Never>
        /// The effects the chain waits for, this run's included.
        @usableFromInline let _tokens: [Int]

        @inlinable
        init(token: Int, chain: Task<Void, Never>, tokens: [Int]) {
            self._token = token
            self._chain = chain
            self._tokens = tokens
        }
    }

    /// For each running effect that waits for other effects — a
    /// concatenation for the part it runs, a queued run for the effect
    /// before it — what it waits for, by token. For simulation tools that
    /// must know when every effect is idle (`waitingEffectCount`).
    @exclusivity(unchecked) @usableFromInline var _awaitedEffects: [Int: AwaitedEffects] = [:]
    /// While `startPart` starts a part, what the part's effects will
    /// have it wait for; `nil` otherwise.
    @exclusivity(unchecked) @usableFromInline var _collectedEffects: AwaitedEffects?

    /// What one waiting effect waits for, by token.
    @usableFromInline
    struct AwaitedEffects {
        /// Effects it waits for until they end, even once it is cancelled:
        /// those it started, which its cancellation cancels, and the effect
        /// a queued run waits behind, whose `value` ignores cancellation.
        @usableFromInline var _effects: [Int] = []
        /// Loads it joined (`OverlapPolicy.join`): it stops waiting for
        /// them as soon as it is cancelled.
        @usableFromInline var _joinedLoads: [Int] = []

        @inlinable
        init(effects: [Int] = []) { self._effects = effects }

        @inlinable
        var isEmpty: Bool { _effects.isEmpty && _joinedLoads.isEmpty }
    }

    /// Told each effect that starts or ends running — its token, whether it
    /// now runs, and how many run — for test tools that name an effect left
    /// running or must know the count outside the main actor.
    // Unchecked, as the tables above: a read copies the closure out and the
    // call runs after the access ends; only test tools set it, once, so the
    // only code a write can run — the old closure's release — never runs
    // during a read. The check cost a dynamic access on every effect.
    @exclusivity(unchecked) @usableFromInline package var _onRunningEffectsChange: (@MainActor (RunningEffectChange) -> Void)?

    /// Names the action that started an effect, for what `onIssue` is told
    /// of it — set by test tools that note what `_onRunningEffectsChange`
    /// tells. It is given the effect's token and, for an effect that ended as
    /// it launched and so was never told, the effect whose part the store
    /// starts now (as `RunningEffectChange.partOf` says).
    package var _effectOrigin: (@MainActor (_ token: Int, _ partOf: Int?) -> String?)?

    /// The token the next effect scheduled gets. Read by a test tool as an
    /// action is processed, before its effects are scheduled: the effects
    /// an action returns get the tokens from there up to the next action's.
    package var nextEffectToken: Int { _nextEffectToken }

    /// The tokens of the effects running, oldest first.
    package var runningEffectTokens: [Int] { _runningEffects.keys.sorted() }

    /// The tokens of the effects running or scheduled to launch, oldest
    /// first.
    package var liveEffectTokens: [Int] {
        // A join is pending with the token -1: it is no effect of its own.
        (Array(_runningEffects.keys) + _pending.map(\._token) + [_launch._token].compactMap(\.self)).filter { $0 >= 0 }.sorted()
    }

    /// Called with a message when an effect misbehaves (for example throws an
    /// error nobody handles). By default the message goes to standard error.
    public var onIssue: @MainActor (String) -> Void = { reportToStandardError($0) }

    /// Creates a store that runs `reducer`, starting from `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: the feature's state before the first action.
    ///   - reducer: the feature's logic; it runs on the main actor for every action.
    ///   - firstLoadID: the ID the first load gets; tests use the default `#1`
    ///     so expectations stay stable. Pass one past every ID `initialState`
    ///     records (a `Loadable`'s `newestID`, `newestMoreID`,
    ///     `newestEditID` and `queuedIDs`): a load numbered below them is
    ///     dropped as older. At most 2^63 − 1, past which the IDs could wrap:
    ///     a larger one is reported to standard error.
    @inlinable
    public convenience init<R: Reducer>(
        initialState: State,
        reducer: R,
        firstLoadID: LoadID = LoadID(1)
    ) where R.State == State, R.Action == Action {
        self.init(initialState: initialState, reduce: reducer.reduce(into:action:), firstLoadID: firstLoadID)
        specializeReporters()
    }

    /// Creates a store that runs `reducer`, starting from `initialState`, for
    /// a state that is `Equatable`: a reader of the whole ``state`` is then
    /// told only when it changed.
    ///
    /// - Parameters:
    ///   - initialState: the feature's state before the first action.
    ///   - reducer: the feature's logic; it runs on the main actor for every action.
    ///   - firstLoadID: the ID the first load gets; tests use the default `#1`
    ///     so expectations stay stable. Pass one past every ID `initialState`
    ///     records (a `Loadable`'s `newestID`, `newestMoreID`,
    ///     `newestEditID` and `queuedIDs`): a load numbered below them is
    ///     dropped as older. At most 2^63 − 1, past which the IDs could wrap:
    ///     a larger one is reported to standard error.
    @inlinable
    public convenience init<R: Reducer>(
        initialState: State,
        reducer: R,
        firstLoadID: LoadID = LoadID(1)
    ) where R.State == State, R.Action == Action, State: Equatable {
        self.init(initialState: initialState, reduce: reducer.reduce(into:action:), firstLoadID: firstLoadID)
        specializeReporters()
        // Made here, where `State` is known to be `Equatable`, so the part's
        // comparison is specialized; found at run time it is not (≈ 400 ns
        // a change).
        _statePartMaker = { StatePart<State, Action>() }
    }

    /// Sets the makers of the effects' way back, from code specialized for
    /// the feature. The closures capture nothing, so they allocate nothing.
    @inlinable
    func specializeReporters() {
        _senderMaker = { $0.makeSender() }
        _loadReporterMaker = { $0.makeLoadReporter() }
    }

    @usableFromInline
    init(initialState: State, reduce: @escaping (inout State, Action) -> Effect<Action>, firstLoadID: LoadID) {
        self._currentState = initialState
        self._reducer = reduce
        self._nextLoadID = firstLoadID
        self._stateKeyPath = \Store.state
        self._stateKey = \Store._stateMark
        // Checked here, not as each ID is handed out: counting from a first
        // ID this low, the IDs cannot run out (2^63 loads).
        if let problem = LoadID.problem(ofFirst: firstLoadID) { reportToStandardError(problem) }
    }

    isolated deinit {
        for task in _runningEffects.values { task.cancel() }
    }

    /// The current state. Reading it depends on all of it: its reader is
    /// told after an action that leaves the state no longer `==` to what it
    /// read (for a `State` that is not `Equatable`, which the store cannot
    /// compare, after every action). A view that reads a part instead — `store.title`,
    /// ``subscript(part:)``, ``subscript(part:key:)-931fu`` — is told only
    /// when that part changes.
    @inlinable
    public var state: State {
        _registerStateRead()
        return _currentState
    }

    /// Reads a property of ``state``, e.g. `store.profile`, and registers
    /// for changes of that property only: after an action, its readers are
    /// told when it is no longer `==` to what they read.
    @inlinable
    public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        self[part: keyPath]
    }

    /// Reads a property of ``state`` that is not `Equatable`. The store
    /// cannot tell whether it changed, so its readers are told as readers of
    /// ``state`` are.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        state[keyPath: keyPath]
    }

    /// How effects send actions back: processed by this store while it exists.
    @inlinable
    var _sender: Send<Action> {
        if let sender = _cachedSender { return sender }
        let sender = _senderMaker?(self) ?? makeSender()
        _cachedSender = sender
        return sender
    }

    @inlinable
    func makeSender() -> Send<Action> {
        Send<Action> { [reference = _reference] in reference.send($0) }
    }

    /// Where loads report: one closure that ends a load given its ID and
    /// sends anything else to the store (see `LoadReporter`).
    @inlinable
    var _loadReporter: LoadReporter<Action> {
        if let reporter = _cachedLoadReporter { return reporter }
        let reporter = _loadReporterMaker?(self) ?? makeLoadReporter()
        _cachedLoadReporter = reporter
        _unretainedLoadReporter = .passUnretained(reporter)
        return reporter
    }

    @inlinable
    func makeLoadReporter() -> LoadReporter<Action> {
        LoadReporter<Action>(launch: _launch) { [reference = _reference] (id, action: consuming Action) in
            if let id { reference.loadEnded(id, with: action) } else { reference.send(action) }
        }
    }

    /// The weak reference to this store that its effects and its `Send` share.
    @inlinable
    var _reference: Reference {
        if let reference = _cachedReference { return reference }
        let reference = Reference(self)
        _cachedReference = reference
        return reference
    }

    /// How many effects are running now.
    public var runningEffectCount: Int { _runningEffects.count }

    /// How many running effects are waiting for an effect that is still
    /// running: a concatenation for its part, a queued run for the effect
    /// before it. One whose effects have all ended is not counted, though it
    /// may not have resumed yet: resuming takes an executor switch, which
    /// under load can lag behind the main actor by any number of turns, so
    /// counting such an effect as waiting would let a simulation think the
    /// store idle while the effect is about to go on. For the same reason a
    /// cancelled one is not counted for the loads it joined: its cancellation
    /// ends that wait at once.
    package var waitingEffectCount: Int {
        _awaitedEffects.count { waiting, awaited in
            let isRunning = { (token: Int) in self._runningEffects[token] != nil }
            if awaited._effects.contains(where: isRunning) { return true }
            return _runningEffects[waiting]?.isCancelled == false && awaited._joinedLoads.contains(where: isRunning)
        }
    }

    /// Every effect running now, as one task — for test tools that wait for
    /// a store to become idle.
    package var runningEffectsTask: StoreTask {
        StoreTask(_runningEffects.isEmpty ? nil : Array(_runningEffects.values))
    }

    /// Processes `action` now, then any actions it queued, and starts their effects.
    ///
    /// A send made while the store processes an action — from a transition
    /// observer or a change handler — queues `action` behind the one being
    /// processed, and it runs before the outer `send` returns. Its effects
    /// belong to the outer send's task; the task this call returns is empty.
    ///
    /// - Returns: a handle to await or cancel the effects this call started.
    @inlinable
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        #if DEBUG
            // Swift 6 code cannot call `send` off the main actor; Swift 5
            // code can, unchecked. A debug build traps there; a release build
            // does not check (35 ns, six plain sends; PerformanceGuide).
            MainActor.assertIsolated("Store.send must run on the main actor")
        #endif
        if _isProcessing {
            enqueue(action)
            return StoreTask()
        }
        var started = StoreTask()
        _isProcessing = true
        process(action, startingInto: &started)
        if !_queue.isEmpty { drainQueue(startingInto: &started) }
        _isProcessing = false
        return started
    }

    /// ``send(_:)`` of an action handed over to the store, as an effect's
    /// are: queued without a copy, which for an action holding a value would
    /// retain and release each reference in it.
    @inlinable
    func send(handingOver action: consuming Action) -> StoreTask {
        if _isProcessing {
            enqueue(action)
            return StoreTask()
        }
        return send(action)
    }

    /// Queues an action sent while the store is processing another.
    @inlinable
    func enqueue(_ action: consuming Action) {
        if _isReducing { reportSendFromReducer(action) }
        _queue.append(action)
    }

    /// Calls `observer` after every action the store processes, with the state
    /// after it and whether it was dropped as stale. Capture the store weakly
    /// in `observer` to avoid a reference cycle.
    public func observeTransitions(_ observer: @escaping @MainActor (Transition<State, Action>) -> Void) {
        _transitionObservers.append(observer)
    }

    // MARK: Processing

    @inlinable
    func process(_ action: Action, startingInto started: inout StoreTask) {
        let effect = reduce(action)
        if _isPossiblyObserved || !_listedParts.isEmpty {
            announceChanges()
        }
        // One check for both a recorder and transition observers, so a
        // store with neither pays what it did before recording existed.
        if !_transitionObservers.isEmpty {
            notifyObservers(action, isDropped: effect._isDropped)
        }
        if !effect.isNone {
            start(effect, into: &started)
        }
    }

    /// Runs the reducer. The effect comes back from one call, with no other
    /// use in between: declared first and assigned on two paths, it was
    /// copied — a retain and a release on every `send`, a fifth of its cost.
    @inlinable
    func reduce(_ action: Action) -> Effect<Action> {
        _isReducing = true
        defer { _isReducing = false }
        return _reducer(&_currentState, action)
    }

    @usableFromInline
    @inline(never)
    func reportSendFromReducer(_ action: Action) {
        onIssue(
            "send(\(action)) was called from inside a reducer. Reducers must be pure: return an effect instead. "
                + "The action is queued and runs after the current one."
        )
    }

    // Inlinable, so a store with an observer (a `TestStore`, a log, an
    // `AsyncValue` with a clock) builds its `Transition` specialized; never
    // inlined, to keep it out of `send`'s path.
    @inlinable
    @inline(never)
    func notifyObservers(_ action: Action, isDropped: Bool) {
        // A recorder goes first, as the first observer: one that starts a
        // recording starts it after this action, not with it.
        if let buffer = _recordingBuffer {
            if RecordingBuffer.append(action, isDropped: isDropped, to: buffer) {
                buffer.takeUnretainedValue().checkpoint(_currentState)
            }
            if _transitionObservers.count == 1 { return }
        }
        tellObservers(action, isDropped: isDropped)
        if _recordingStartsAfterStep { startRecordingAfterStep() }
    }

    /// Starts the recording set while this step was processed: from the
    /// state the step left, with the next action.
    @usableFromInline
    func startRecordingAfterStep() {
        _recordingStartsAfterStep = false
        guard let recorder = _recorder else { return }
        // `record(into:)` already kept or let go the readings before it.
        recorder._buffer.reset(at: _currentState, keepingReadings: true)
        _recordingBuffer = Unmanaged.passUnretained(recorder._buffer)
    }

    // Apart from `notifyObservers`, so a recorded step does not set up the
    // stack a `Transition` needs (two copies of the state).
    @inlinable
    @inline(never)
    func tellObservers(_ action: Action, isDropped: Bool) {
        let transition = Transition(action: action, state: _currentState, isDropped: isDropped)
        for observer in _transitionObservers.dropFirst(_recordingBuffer == nil ? 0 : 1) { observer(transition) }
    }
}
