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
            started.append(launch(makeEffectToken(), cancelID: cancelID) { store in
                for effect in effects {
                    guard !Task.isCancelled, let store = store() else { return }
                    await store.runToCompletion(effect)
                }
            })
        case .run(let run):
            let send = Send<Action> { [weak self] in self?.send($0) }
            started.append(launch(makeEffectToken(), cancelID: run.cancelID) { store in
                do {
                    try await run.body(send)
                } catch is CancellationError {
                } catch {
                    store()?.onIssue("An effect threw \(error), which nothing handled. Catch the errors an effect expects and send them as actions.")
                }
            })
        case .load(let load):
            let id = nextLoadID
            nextLoadID = id.next
            queue.append(load.started(id))
            let token = makeEffectToken()
            loads[id] = RunningLoad(token: token, cancelsWhenSuperseded: load.cancelsWhenSuperseded)
            started.append(launch(token, cancelID: load.cancelID) { store in
                let result = await load.work(id)
                guard let store = store() else { return }
                store.loads[id] = nil
                store.send(result)
            })
        case .cancel(let id):
            cancelEffects(withID: id)
        case .cancelLoad(let id, let force):
            if let load = loads[id], force || load.cancelsWhenSuperseded {
                runningEffects[load.token]?.cancel()
            }
        case .joinLoad(let id):
            // The joiner waits in a task of its own, so cancelling the joiner's
            // `StoreTask` withdraws it without cancelling the shared load.
            if let load = loads[id], let task = runningEffects[load.token] {
                started.append(Task { await task.value })
            }
        }
    }

    /// Starts `effect` from inside a running effect and waits for all it started.
    @inlinable
    func runToCompletion(_ effect: Effect<Action>) async {
        var started: [Task<Void, Never>] = []
        if isProcessing {
            start(effect, into: &started)
        } else {
            isProcessing = true
            start(effect, into: &started)
            drainQueue(startingInto: &started)
            isProcessing = false
        }
        waitingEffectCount += 1
        await StoreTask(started).finish()
        waitingEffectCount -= 1
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
        runningEffects[token] = task
        if let cancelID { effectsByCancelID[cancelID, default: []].insert(token) }
        onRunningEffectCountChange?(runningEffects.count)
        return task
    }

    @inlinable
    func makeEffectToken() -> Int {
        defer { nextEffectToken += 1 }
        return nextEffectToken
    }

    @inlinable
    func effectEnded(_ token: Int, cancelID: AnyHashable?) {
        runningEffects[token] = nil
        onRunningEffectCountChange?(runningEffects.count)
        if let cancelID {
            effectsByCancelID[cancelID]?.remove(token)
            if effectsByCancelID[cancelID]?.isEmpty == true { effectsByCancelID[cancelID] = nil }
        }
    }

    @inlinable
    func cancelEffects(withID id: AnyHashable) {
        guard let tokens = effectsByCancelID[id] else { return }
        for token in tokens { runningEffects[token]?.cancel() }
    }
}
