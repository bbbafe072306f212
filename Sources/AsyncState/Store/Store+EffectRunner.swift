// The effect runner: turns the effects a reducer returns into tasks, gives
// each load its generation (`LoadID`), and keeps the tables that cancellation,
// supersession and `cancellable(id:)` need. `Store.swift` is the facade; this
// file is what happens after the reducer has run, with cancellation in
// `Store+Cancellation.swift`, the weak reference effects hold in
// `Store+Reference.swift`, the choice of how tasks start in
// `EffectStart.swift`, the effect being launched — shared with its task —
// in `EffectLaunch.swift`, and the body of an effect's task in `TaskBody.swift`.
//
// An effect is started in two steps. `schedule` runs while the store
// processes the action: it gives a load its ID, queues its `.started` action,
// enters the effect in the tables and appends it to `_pending`. `drainQueue`
// then processes every queued action and only then launches the pending
// effects, oldest first, draining again after each one. Launching after the
// queue is empty keeps the order of actions the same whether a task starts
// at once (`Task.immediate`) or is enqueued (`Task {}`): with an enqueued task
// too, every queued action is processed before the first effect runs, and
// each effect runs to its first suspension before the next one starts.

extension Store {
    /// An effect scheduled by the action being processed, launched once the
    /// queue is empty.
    @usableFromInline
    struct PendingEffect {
        @usableFromInline
        enum Kind {
            case run(Effect<Action>.Run)
            /// A load's task body: all its launch needs. Not the whole
            /// `Load`, whose cancel ID and start a pending effect would copy
            /// and destroy for nothing.
            case load(TaskBody<Void>)
            case concatenate([Effect<Action>])
            /// Waits for the task of the effect with this token: a `join`.
            case join(Int)
            /// Starts queued load `id` once the load it waits behind, and every
            /// run queued behind that one before, has ended
            /// (`OverlapPolicy.queue`); its `announce` makes the action that
            /// withdraws it if it is cancelled first.
            case queue(Effect<Action>.QueuedLoad, id: LoadID)
            /// What `_pending` holds in place of an effect moved out to be
            /// launched (`takeKind(at:)`). Launching it does nothing.
            case launched
        }

        /// A `var` only so that `takeKind(at:)` can move it out.
        @usableFromInline var _kind: Kind
        /// The effect's key in `_runningEffects`; `-1` for a join, which owns
        /// no task. A `.launched` placeholder keeps its effect's token.
        @usableFromInline let _token: Int
        /// Whether its task belongs to the `StoreTask` of the `send` that is
        /// draining. Not for effects started by a `send` from inside another
        /// effect's first synchronous part: that `send` has already returned.
        @usableFromInline let _isOwned: Bool
        /// Cancelled before it was launched: its task starts cancelled.
        @usableFromInline var _isCancelled = false

        @inlinable
        init(_ kind: consuming Kind, token: Int, isOwned: Bool) {
            self._kind = kind
            self._token = token
            self._isOwned = isOwned
        }
    }

    /// Schedules `effect` and, unless a drain is under way (which launches it
    /// when the queue is empty), drains and launches now.
    @inlinable
    @inline(never)
    func start(_ effect: Effect<Action>, into started: inout StoreTask) {
        schedule(effect)
        if !_isDraining { drainQueue(startingInto: &started) }
    }

    @inlinable
    func schedule(_ effect: Effect<Action>) {
        if effect._isLoad {
            // The everyday load, its start read where the effect holds it:
            // through `operation` it was copied into a `Load`, a retain and
            // a release per load. A load with a cancel ID is boxed and takes
            // the `.load` case below.
            let id = _nextLoadID
            _nextLoadID = id.next
            scheduleLoad(unsafeDowncast(effect._work.unsafelyUnwrapped, to: LoadStart<Action>.self), cancelID: nil, id)
            return
        }
        switch effect.operation {
        case .none:
            return
        case .merge(let effects):
            for effect in effects { schedule(effect) }
        case .concatenate(let effects, let cancelID):
            enqueue(.concatenate(effects), cancelID: cancelID)
        case .run(let run):
            enqueue(.run(run), cancelID: run._cancelID)
        case .load(let load):
            let id = _nextLoadID
            _nextLoadID = id.next
            scheduleLoad(load._start, cancelID: load._cancelID, id)
        case .startQueued(let load, let id):
            // The queued run ends with this load, so it owns the ID now.
            _ = _loads.removeValue(forKey: id)
            _queuedTurn = (id, load._start)
            scheduleLoad(load._start, cancelID: load._cancelID, id)
        case .startFrom(let id, let value):
            // Processed in the drain that starts the queued load, before its
            // task is launched.
            if let turn = _queuedTurn, turn.id == id { turn.start.startFrom(value) }
        case .markedCancellable(let effect, let id):
            _markingCancelIDs.append(id)
            schedule(effect)
            _markingCancelIDs.removeLast()
        case .cancel(let id):
            cancelEffects(withID: id)
        case .cancelRemoved(let children):
            cancelEffects(madeIn: children)
        case .cancelLoad(let id, let newer):
            // A superseded load is cancelled if the load that superseded it
            // says so: the policy belongs to the newer start.
            // No `Optional.map` here: its closure would check its executor
            // on every call (see `withPointer(to:_:)`).
            // A queued load is always withdrawn: the state has dropped it,
            // and it has no work to let finish — started later, it would
            // run after the load that superseded it.
            var cancels = true
            if let newer, let running = _loads[newer] { cancels = running._cancelsEarlier }
            if let load = _loads[id], cancels || load._isQueued { cancelEffect(load._token) }
        case .joinLoad(let id):
            // The joiner waits in a task of its own, so cancelling the joiner's
            // `StoreTask` withdraws it at once without cancelling the shared
            // load. It is launched after the load, whose task exists by then.
            if let load = _loads[id] {
                _pending.append(PendingEffect(.join(load._token), token: -1, isOwned: _launch._token == nil))
            }
        case .queueLoad(let queued):
            // A queued load takes its ID at once, so the state counts it
            // waiting and a newer start can supersede it; until its turn the
            // queued run stands for it in `_loads`, so cancelling the load
            // cancels the run.
            let id = _nextLoadID
            _nextLoadID = id.next
            _queue.append(queued._announce((id, false)))
            let token = enqueue(.queue(queued, id: id), cancelID: queued._load._cancelID)
            _loads.insert(RunningLoad(token: token, cancelsEarlier: true, isQueued: true), forKey: id)
        }
    }

    /// Schedules load `id`: queues its start, and its plan if it has a retry
    /// policy, and enters it in the tables.
    @inlinable
    func scheduleLoad(_ start: LoadStart<Action>, cancelID: CancelID?, _ id: LoadID) {
        // The reporter at +0 (a retain and a release a load fewer): the
        // store holds it for its whole life once made.
        if _unretainedLoadReporter == nil { _ = _loadReporter }
        let body = withGuaranteed(_unretainedLoadReporter.unsafelyUnwrapped) { start(id, $0, &_queue) }
        let token = enqueue(.load(consume body), cancelID: cancelID)
        _loads.insert(RunningLoad(token: token, cancelsEarlier: start._cancelsEarlier), forKey: id)
    }

    @inlinable
    @discardableResult
    func enqueue(_ kind: consuming PendingEffect.Kind, cancelID: CancelID?) -> Int {
        let token = _nextEffectToken
        _nextEffectToken += 1
        if let cancelID {
            // An ID that is a child's path alone (a child's effect given no
            // ID) is never the target of `.cancel(id:)`: only the scan for
            // removed children reads it, so it skips the index by ID — its
            // hash and a set per child, on every load of a keyed row.
            if cancelID.isCancellableByID { _effectsByCancelID[cancelID, default: []].insert(token) }
            _cancelIDOfEffect[token] = cancelID
            // Only work that has an ID of its own is marked with more.
            if !_markingCancelIDs.isEmpty { enterMarks(of: token) }
        }
        _pending.append(PendingEffect(consume kind, token: token, isOwned: _launch._token == nil))
        return token
    }

    /// Enters effect `token` under each ID it is being marked with (see
    /// `_markingCancelIDs`).
    @usableFromInline
    func enterMarks(of token: Int) {
        for id in _markingCancelIDs { _effectsByCancelID[id, default: []].insert(token) }
        _marksOfEffect[token] = _markingCancelIDs
    }

    /// Takes ended effect `token` out of the index under `id`.
    @inlinable
    func forget(_ token: Int, under id: CancelID) {
        _effectsByCancelID[id]?.remove(token)
        if _effectsByCancelID[id]?.isEmpty == true { _effectsByCancelID[id] = nil }
    }

    /// Processes every queued action, then launches the pending effects one at
    /// a time, processing what each one sent before launching the next.
    /// Nested inside a drain (a `send` from an effect's first synchronous
    /// part), it only processes the queue: the outer drain launches.
    @inlinable
    @inline(never)
    func drainQueue(startingInto started: inout StoreTask) {
        let isOutermost = !_isDraining
        _isDraining = true
        var launched = 0
        while true {
            if _queue.count == 1 {
                // The everyday queue, a load's `.started`: moved out, it is
                // destroyed in this specialized code, where emptying the list
                // destroyed it through the runtime's generic `arrayDestroy`
                // and the action's value witnesses — a tenth of the store's
                // cost per load (BENCHMARKS.md, step 19). The list is empty
                // while it is processed, so what it sends is queued anew.
                let next = _queue.removeLast()
                process(next, startingInto: &started)
                continue
            }
            var index = 0
            while index < _queue.count {
                let next = _queue[index]
                index += 1
                process(next, startingInto: &started)
            }
            // Nothing to discard when the fast path above emptied the
            // queue: a swap and an empty list's release saved, twice a load.
            if !_queue.isEmpty { discardProcessedActions() }
            // Destroying an action can run a deinit that sends, which queues.
            if !_queue.isEmpty { continue }
            guard isOutermost else { break }
            if launched < _pending.count {
                // Moved out of `_pending`, so that the effect — whose
                // closures may hold the last reference to a user's object —
                // is destroyed here, outside any access to the list. What a
                // deinit sends is processed by the next pass.
                let token = _pending[launched]._token
                let isCancelled = _pending[launched]._isCancelled
                let isOwned = _pending[launched]._isOwned
                let kind = takeKind(at: launched)
                launched += 1
                launch(kind, token: token, isCancelled: isCancelled, isOwned: isOwned, into: &started)
                continue
            }
            // Every pending effect has been moved out: what is left are
            // placeholders, destroyed without running any code — one, most
            // often, removed here rather than by the runtime's generic
            // `arrayDestroy` (as for the queue above).
            if _pending.count == 1 { _ = _pending.removeLast() } else { _pending.removeAll(keepingCapacity: true) }
            break
        }
        if isOutermost { _isDraining = false }
    }

    /// Empties `_queue`, keeping its capacity, once every action in it has
    /// been processed. The actions are destroyed outside any access to
    /// `_queue`: destroying one can run user code — the deinit of something
    /// it carries — which may `send`, and that appends to `_queue`. Inside
    /// `_queue.removeAll` the append would reallocate the buffer being
    /// emptied (the store's properties skip exclusivity checks; see
    /// `Store`). The store is processing, so such a `send` only queues.
    @inlinable
    func discardProcessedActions() {
        var processed: [Action] = []
        swap(&processed, &_queue)
        processed.removeAll(keepingCapacity: true)
        if _queue.isEmpty { swap(&processed, &_queue) }
    }

    /// Moves the kind of the pending effect at `index` out of `_pending` to
    /// launch it, leaving `.launched` in its place. A copy would cost a
    /// retain, and a release when the list is emptied; moving the whole
    /// effect out and then its kind out of it cost a copy and two releases
    /// of the kind (the optimizer did not forward the second move).
    @inlinable
    func takeKind(at index: Int) -> PendingEffect.Kind {
        var taken = PendingEffect.Kind.launched
        swap(&taken, &_pending[index]._kind)
        return taken
    }

    /// Starts the task of a pending effect and registers it — unless it ended
    /// before `Task.immediate` returned, which leaves no entry behind.
    ///
    /// Always inlined into `drainQueue`'s loop, where the optimizer also
    /// inlines `Task.immediate` (see `EffectLaunch.startTask` for why it
    /// must).
    @inlinable @inline(__always)
    func launch(
        _ kind: consuming PendingEffect.Kind, token: Int, isCancelled: Bool, isOwned: Bool, into started: inout StoreTask
    ) {
        // The kind is switched over consumed, and `enqueue` takes it
        // consuming: a load's kind holds its task's body, and each copy of it
        // cost a retain and a release (78 instructions a load).
        let task: Task<Void, Never>
        let hasEnded: Bool
        switch consume kind {
        case .launched:
            // `drainQueue` takes each pending effect once.
            assertionFailure("A pending effect was launched twice.")
            return
        case .join(let loadToken):
            if isOwned, let load = _runningEffects[loadToken] {
                started.append(Task { await JoinWaiter.wait(for: load) })
                if _collectedEffects != nil { collectAwaited(loadToken, isJoin: true) }
            }
            return
        case .concatenate(let effects):
            // Always enqueued: a concatenation waits for each part's tasks,
            // which it can only have once it runs outside the drain that
            // launched it.
            task = Task { [weak self] in
                for effect in effects {
                    guard !Task.isCancelled, let started = self?.startPart(effect, waitingAs: token) else { break }
                    await started.finish()
                    self?._awaitedEffects[token] = nil
                }
                self?.effectEnded(token)
            }
            if isCancelled { task.cancel() }
            hasEnded = false
        case .queue(let queued, let id):
            let (load, behind, announce) = (queued._load, queued._behind, queued._announce)
            // Always enqueued, like a concatenation: it waits for the runs
            // queued before it — their chain — or for the load it was queued
            // behind, so runs start in the order they were queued. The wait
            // ends early if the run is cancelled: a caller whose task is
            // cancelled leaves the queue at once, and the run withdraws its
            // load with `announce` — it never starts — while the chain the
            // next run waits for still waits for everything before. Its
            // `_awaitedEffects` name every effect the chain waits for, so
            // `waitingEffectCount` counts it as waiting exactly until the
            // last of them ends.
            let queue = queueNumber(for: behind)
            _queueOfLoad[id] = queue
            let ahead: Task<Void, Never>?
            let aheadTokens: [Int]
            if let tail = _queueTails[queue] {
                (ahead, aheadTokens) = (tail._chain, tail._tokens)
            } else if let loadToken = _loads[behind]?._token, let loadTask = _runningEffects[loadToken] {
                (ahead, aheadTokens) = (loadTask, [loadToken])
            } else {
                (ahead, aheadTokens) = (nil, [])
            }
            if ahead != nil { _awaitedEffects[token] = AwaitedEffects(effects: aheadTokens) }
            task = Task { [weak self] in
                if let ahead { await JoinWaiter.wait(for: ahead) }
                self?._awaitedEffects[token] = nil
                if Task.isCancelled {
                    self?.queuedLoadWithdrawn(id, with: announce((id, true)))
                } else if let started = self?.startPart(Effect(.startQueued(load, id)), waitingAs: token) {
                    await started.finish()
                    self?._awaitedEffects[token] = nil
                }
                // A run with nothing ahead is its own chain.
                if ahead == nil { self?.queuedRunEnded(token, in: queue) }
                self?.effectEnded(token)
            }
            if isCancelled { task.cancel() }
            let run = task
            let chain =
                ahead.map { ahead in
                    Task { [weak self] in
                        await ahead.value
                        await run.value
                        self?.queuedRunEnded(token, in: queue)
                    }
                } ?? task
            _queueTails[queue] = QueuedRun(token: token, chain: chain, tokens: aheadTokens + [token])
            hasEnded = false
        case .load(let body):
            // The body its start returned (see `LoadStart`).
            beginLaunch(token, isCancelled: isCancelled)
            task = _launch.startTask(body)
            let isOwedCancellation: Bool
            (hasEnded, isOwedCancellation) = endLaunch()
            if isOwedCancellation { task.cancel() }
        case .run(let run):
            let body = run._body
            let send = _sender
            let launch = _launch
            (task, hasEnded) = launchTask(token, isCancelled: isCancelled) { @MainActor [weak self] in
                launch.effectBegan()
                do {
                    try await body(send)
                } catch is CancellationError {
                } catch {
                    self?.effectThrew(error, token: token)
                }
                self?.effectEnded(token)
            }
        }
        if isOwned {
            if hasEnded {
                started.appendEnded()
            } else {
                started.append(task)
                // Nil but inside `startPart`: one load and a branch
                // here; the rest is out of line, keeping `drainQueue` small.
                if _collectedEffects != nil { collectAwaited(token, isJoin: false) }
            }
        }
        if hasEnded { return }
        _runningEffects[token] = task
        _onRunningEffectsChange?(RunningEffectChange(token: token, partOf: _partOf, count: _runningEffects.count))
    }

    /// Starts the task of effect `token`, running `body`, as `_effectStart`
    /// says, and returns it, and whether it already ended inside
    /// `Task.immediate`. While it runs synchronously the store is not
    /// processing, so a `send` from it is processed at once, as it would be
    /// from an enqueued task; and the store knows which effect runs, so that
    /// cancelling it from there reaches it. Generic for the reason
    /// `TaskBody` is, and always inlined into `launch`, like
    /// `EffectLaunch.startTask`, for the reason given there.
    @inlinable @inline(__always)
    func launchTask<Result>(
        _ token: Int, isCancelled: Bool, _ body: @escaping @isolated(any) @Sendable () async -> Result
    ) -> (Task<Result, Never>, hasEnded: Bool) {
        beginLaunch(token, isCancelled: isCancelled)
        let task = _launch.startTask(TaskBody(body))
        let (hasEnded, isOwedCancellation) = endLaunch()
        if isOwedCancellation { task.cancel() }
        return (task, hasEnded)
    }

    /// Before an effect's task starts: the store is not processing while the
    /// effect runs synchronously, and `_launch` says which effect that is.
    @inlinable
    func beginLaunch(_ token: Int, isCancelled: Bool) {
        _launch.begin(token, isCancelled: isCancelled)
        _isProcessing = false
    }

    /// After an effect's task has started (and, with `Task.immediate`, run to
    /// its first suspension): whether it already ended, and whether its
    /// caller must cancel it because it is still owed a cancellation — an
    /// enqueued task, which has not run yet, of an effect cancelled while
    /// pending: it then starts cancelled, as it would had it been enqueued
    /// and cancelled before it ran.
    ///
    /// It does not take the task's handle: passed here, the handle of a load
    /// that ended at once was retained and released once more.
    @inlinable
    func endLaunch() -> (hasEnded: Bool, isOwedCancellation: Bool) {
        _isProcessing = true
        let (hasEnded, isOwedCancellation) = _launch.end()
        return (hasEnded, !hasEnded && isOwedCancellation)
    }

    /// Load `id` ended with `result`: forgets the load, processes `result`,
    /// and ends the load's effect.
    ///
    /// Not inlined into the load's work: everything inlined into an async
    /// closure can enlarge its frame, which lives in the task's allocator,
    /// and `send` inlined there pushed an in-flight load's frames past the
    /// task's first slab — 1,016 bytes more per load.
    @inlinable
    @inline(never)
    func loadEnded(_ id: LoadID, with result: consuming Action) {
        // Every load is in `_loads` from `schedule` until it ends here, once:
        // each load's task calls `LoadReporter.end` exactly once
        // (`LoadEndTests`). A second end would be a bug in a load's work; it
        // is not processed.
        guard let load = _loads.removeValue(forKey: id) else {
            assertionFailure("Load \(id) ended twice.")
            return
        }
        _ = send(handingOver: result)
        effectEnded(load._token)
    }

    /// Queued load `id` was cancelled before its turn: it leaves the tables
    /// and the state learns it with `withdrawal`, its last action.
    @inlinable
    func queuedLoadWithdrawn(_ id: LoadID, with withdrawal: Action) {
        _ = _loads.removeValue(forKey: id)
        send(withdrawal)
    }

    /// The queue (`OverlapPolicy.queue`) that load `behind` belongs to,
    /// starting a new one if it is in none.
    @inlinable
    func queueNumber(for behind: LoadID) -> Int {
        if let existing = _queueOfLoad[behind] { return existing }
        let queue = _nextQueue
        _nextQueue += 1
        _queueOfLoad[behind] = queue
        return queue
    }

    /// Forgets queue `queue` once its last run has ended.
    @inlinable
    func queuedRunEnded(_ token: Int, in queue: Int) {
        guard _queueTails[queue]?._token == token else { return }
        _queueTails[queue] = nil
        _queueOfLoad = _queueOfLoad.filter { $0.value != queue }
    }

    /// Starts `effect` from inside the running effect `effectToken` — a
    /// concatenation, or a queued run — and returns what it started, for
    /// the running effect to wait for. Their tasks are always enqueued, so
    /// they run here outside any `send`: nothing is processing or draining,
    /// and no other part's effects are being collected.
    ///
    /// Synchronous, so the running effect holds the store only while the
    /// part starts and waits holding its weak reference: an effect never
    /// keeps a store alive, and releasing the store cancels the part (an
    /// outside reading found a concatenation — every `delayed` and
    /// `debounced` effect — that kept its store, and its part, running).
    /// While the running effect waits, `_awaitedEffects` names the effects
    /// it waits for, so that `waitingEffectCount` stops counting it the
    /// moment the last of them ends — not when it resumes, which is an
    /// executor switch later; it clears the entry once it resumes.
    @inlinable
    func startPart(_ effect: Effect<Action>, waitingAs effectToken: Int) -> StoreTask {
        assert(_collectedEffects == nil, "A part started while another part's effects were being collected.")
        var started = StoreTask()
        _collectedEffects = AwaitedEffects()
        _isProcessing = true
        let outerPart = _partOf
        _partOf = effectToken
        start(effect, into: &started)
        _partOf = outerPart
        _isProcessing = false
        _queuedTurn = nil
        if let awaited = _collectedEffects, !awaited.isEmpty { _awaitedEffects[effectToken] = awaited }
        _collectedEffects = nil
        return started
    }

    /// Notes that the part `startPart` is starting waits for effect
    /// `token`: one it started, or a load it joined.
    @inlinable
    @inline(never)
    func collectAwaited(_ token: Int, isJoin: Bool) {
        if isJoin {
            _collectedEffects?._joinedLoads.append(token)
        } else {
            _collectedEffects?._effects.append(token)
        }
    }

    @inlinable
    func effectEnded(_ token: Int) {
        if token == _launch._token {
            // Ended inside `Task.immediate`, before `launch` registered it.
            _launch._hasEnded = true
        } else {
            _runningEffects[token] = nil
            _onRunningEffectsChange?(RunningEffectChange(endedToken: token, count: _runningEffects.count))
        }
        if !_cancelIDOfEffect.isEmpty, let cancelID = _cancelIDOfEffect.removeValue(forKey: token) {
            if cancelID.isCancellableByID { forget(token, under: cancelID) }
            // Only an effect with an ID of its own is marked with more.
            if !_marksOfEffect.isEmpty, let marks = _marksOfEffect.removeValue(forKey: token) {
                for id in marks { forget(token, under: id) }
            }
        }
    }
}

extension Store {
    /// Reports an error a `.run` effect threw and nothing caught, naming the
    /// action that started the effect when a test tool knows it. Out of line:
    /// only a misbehaving effect gets here.
    @usableFromInline
    func effectThrew(_ error: any Error, token: Int) {
        // An effect that ends as it launches was never registered: it is
        // a part of what the store starts now, if anything.
        let partOf = _runningEffects[token] == nil ? _partOf : nil
        let origin = _effectOrigin?(token, partOf).map { ", started by \($0)," } ?? ""
        onIssue(
            "An effect\(origin) threw \(error), which nothing handled. Catch the errors an effect expects and send them as actions."
        )
    }
}
