extension Effect {
    /// Sends `tick(clock.now)` every `interval` on `clock`, the first one
    /// `interval` from now, until the feature cancels it with
    /// ``cancel(id:)`` and `id`, or the store is released.
    ///
    /// Starting a poll with an `id` that is already polling replaces the
    /// running one, so two polls never stack. The reducer decides what a tick
    /// does; to pause while a load is in flight, start the load with
    /// ``OverlapPolicy/firstWins``, which ignores a tick while one runs:
    ///
    /// ```swift
    /// case .startPolling:
    ///     return .poll(id: Poll.user, every: .seconds(30), clock: clock, Action.pollTick)
    /// case .stopPolling:
    ///     return .cancel(id: Poll.user)
    /// case .pollTick:
    ///     return state.user.load(Action.user, LoadRequest(api.user).stamped(by: clock), overlap: .firstWins)
    /// ```
    ///
    /// An `interval` of zero or less polls at most once per store turn: each
    /// tick still waits for the clock (which returns at once) and yields, so a
    /// zero interval cannot starve the main actor.
    public static func poll<C: Clock>(
        id: some Hashable & Sendable,
        every interval: C.Duration,
        clock: C,
        _ tick: @escaping (C.Instant) -> Action
    ) -> Effect {
        let tick = MainActorFunction(tick)
        return Effect.run { send in
            while true {
                try await clock.sleepClamped(for: interval)
                await Task.yield()
                try Task.checkCancellation()
                send(tick(clock.now))
            }
        }
        .cancellable(id: id, cancelInFlight: true)
    }

    /// Sends `action(clock.now)` for every element of the sequence
    /// `makeTriggers` makes — the app became active, the network came back —
    /// until the sequence ends, the effect is cancelled, or the store is
    /// released.
    ///
    /// The platform's notifications stay outside the core module: adapt them
    /// to any `AsyncSequence` (an `AsyncStream` fed by a notification
    /// observer, say) and inject a function that makes one. The reducer then
    /// reloads what is stale:
    ///
    /// ```swift
    /// case .appeared:
    ///     return .triggers(id: "active", becameActive, clock: clock, action: Action.becameActive)
    /// case .becameActive(let now):
    ///     return state.user.loadIfNeeded(Action.user, LoadRequest(api.user).stamped(by: clock), maxAge: .seconds(60), at: now)
    /// ```
    ///
    /// Starting triggers again with the same `id` replaces the ones running,
    /// as a poll does: a screen that appears twice listens once. Each start
    /// listens to a sequence of its own, made when it starts, because the
    /// one it replaces is cancelled — and cancelling the task that iterates
    /// an `AsyncStream` ends that stream for good.
    ///
    /// A sequence that ends just ends the effect. A sequence that throws ends
    /// it too, and the store reports the error with ``Store/onIssue``; the
    /// loadables it would have refreshed keep their state.
    public static func triggers<Triggers: AsyncSequence & Sendable, C: Clock>(
        id: some Hashable & Sendable,
        _ makeTriggers: @escaping () -> Triggers,
        clock: C,
        action: @escaping (C.Instant) -> Action
    ) -> Effect {
        let action = MainActorFunction(action)
        let makeTriggers = MainActorFunction(makeTriggers)
        return Effect.run { send in
            do {
                for try await _ in makeTriggers(()) {
                    send(action(clock.now))
                }
            } catch is CancellationError {
                return
            } catch {
                throw TriggerFailure(underlying: error)
            }
        }
        .cancellable(id: id, cancelInFlight: true)
    }
}

/// Why a refetch trigger sequence ended early, as the store reports it.
struct TriggerFailure: Error, CustomStringConvertible {
    let underlying: any Error

    var description: String {
        "a refetch trigger sequence threw \(underlying); triggers stop here and the values keep their state"
    }
}
