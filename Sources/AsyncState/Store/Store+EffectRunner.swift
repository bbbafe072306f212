// The effect runner: turns the effects a reducer returns into tasks, gives
// each load its generation (`LoadID`), and keeps the tables that cancellation,
// supersession and `cancellable(id:)` need. `Store.swift` is the facade; this
// file is everything that happens after the reducer has run.

extension Store {
    @inlinable
    @inline(never)
    func start(_ effect: Effect<Action>, into started: inout [Task<Void, Never>]) {
        switch effect.operation {
        case .none:
            return
        case .merge(let effects):
            for effect in effects { start(effect, into: &started) }
        case .concatenate(let effects, let cancelID):
            started.append(
                launch(makeEffectToken(), cancelID: cancelID) { store in
                    for effect in effects {
                        guard !Task.isCancelled, let store = store() else { return }
                        await store.runToCompletion(effect)
                    }
                })
        case .run(let run):
            let send = Send<Action> { [weak self] in self?.send($0) }
            started.append(
                launch(makeEffectToken(), cancelID: run._cancelID) { store in
                    do {
                        try await run._body(send)
                    } catch is CancellationError {
                    } catch {
                        store()?.onIssue(
                            "An effect threw \(error), which nothing handled. Catch the errors an effect expects and send them as actions.")
                    }
                })
        case .load(let load):
            let id = _nextLoadID
            _nextLoadID = id.next
            _queue.append(load._started(id))
            let token = makeEffectToken()
            let send = Send<Action> { [weak self] in self?.send($0) }
            _loads[id] = RunningLoad(token: token, cancelsWhenSuperseded: load._cancelsWhenSuperseded)
            started.append(
                launch(token, cancelID: load._cancelID) { store in
                    let result = await load._work(id, send)
                    guard let store = store() else { return }
                    store._loads[id] = nil
                    store.send(result)
                })
        case .cancel(let id):
            cancelEffects(withID: id)
        case .cancelLoad(let id, let force):
            if let load = _loads[id], force || load._cancelsWhenSuperseded {
                _runningEffects[load._token]?.cancel()
            }
        case .joinLoad(let id):
            // The joiner waits in a task of its own, so cancelling the joiner's
            // `StoreTask` withdraws it without cancelling the shared load.
            if let load = _loads[id], let task = _runningEffects[load._token] {
                started.append(Task { await task.value })
            }
        }
    }

    /// Starts `effect` from inside a running effect and waits for all it started.
    @inlinable
    func runToCompletion(_ effect: Effect<Action>) async {
        var started: [Task<Void, Never>] = []
        if _isProcessing {
            start(effect, into: &started)
        } else {
            _isProcessing = true
            start(effect, into: &started)
            drainQueue(startingInto: &started)
            _isProcessing = false
        }
        _waitingEffectCount += 1
        await StoreTask(started).finish()
        _waitingEffectCount -= 1
    }

    /// Creates a task for `body`, registered until it ends. `body` reaches the
    /// store through a weak reference so a running effect never keeps it alive.
    @inlinable
    func launch(
        _ token: Int,
        cancelID: AnyHashable?,
        _ body: @escaping @MainActor @Sendable (_ store: @MainActor () -> Store?) async -> Void
    ) -> Task<Void, Never> {
        let task = Task { [weak self] in
            await body { [weak self] in self }
            self?.effectEnded(token, cancelID: cancelID)
        }
        _runningEffects[token] = task
        if let cancelID { _effectsByCancelID[cancelID, default: []].insert(token) }
        _onRunningEffectCountChange?(_runningEffects.count)
        return task
    }

    @inlinable
    func makeEffectToken() -> Int {
        defer { _nextEffectToken += 1 }
        return _nextEffectToken
    }

    @inlinable
    func effectEnded(_ token: Int, cancelID: AnyHashable?) {
        _runningEffects[token] = nil
        _onRunningEffectCountChange?(_runningEffects.count)
        if let cancelID {
            _effectsByCancelID[cancelID]?.remove(token)
            if _effectsByCancelID[cancelID]?.isEmpty == true { _effectsByCancelID[cancelID] = nil }
        }
    }

    @inlinable
    func cancelEffects(withID id: AnyHashable) {
        guard let tokens = _effectsByCancelID[id] else { return }
        for token in tokens { _runningEffects[token]?.cancel() }
    }
}
