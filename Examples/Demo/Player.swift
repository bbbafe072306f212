import AsyncState

/// One thing a scenario's script does at a moment of simulated time.
enum Step<Action> {
    /// A user action, such as a tap.
    case send(Action)
    /// Something in the world, such as the network going down, with a line of narration.
    case happen(String, @MainActor () -> Void)
}

/// Plays a scenario in simulated time: sends its scripted actions at their
/// moments, lets effects run until everything is waiting on the clock, then
/// moves the clock to the next moment anything is due.
@MainActor
final class Player {
    let renderer: Renderer
    /// Real seconds per simulated second; `0` plays as fast as possible.
    let pace: Double

    /// Told each scenario's initial state before it plays — with
    /// ``onTransition``, lets tests record state sequences of any feature.
    var onStart: ((Any) -> Void)?
    /// Told every transition of the scenario playing, with its types erased.
    var onTransition: ((Transition<Any, Any>) -> Void)?

    init(renderer: Renderer, pace: Double) {
        self.renderer = renderer
        self.pace = pace
    }

    /// Plays `script` against a new store of `reducer`, printing each step.
    func play<R: Reducer>(
        _ scenario: Scenario,
        reducer: R,
        initialState: R.State,
        clock: SimulatedClock,
        presenter: Presenter<R.State, R.Action>,
        script: [(at: Duration, step: Step<R.Action>)]
    ) async -> Timeline {
        let store = Store(initialState: initialState, reducer: reducer)
        onStart?(initialState)
        var timeline = Timeline()
        var processed = 0
        store.observeTransitions { [renderer, onTransition] transition in
            processed += 1
            onTransition?(Transition(action: transition.action, state: transition.state, isDroppedAsStale: transition.isDroppedAsStale))
            let entry = Timeline.Entry(
                time: clock.now.offset,
                action: presenter.action(transition.action),
                state: presenter.state(transition.state),
                isDropped: transition.isDroppedAsStale
            )
            timeline.record(entry, load: presenter.load(transition.action))
            renderer.entry(entry, scenario: scenario)
        }
        renderer.header(scenario)

        var pending = script.sorted { $0.at < $1.at }[...]
        let fingerprint = { (processed, clock.sleeperCount, store.runningEffectCount) }
        // Idle: every running effect is asleep on the clock or waiting for
        // effects it started. Checked explicitly, because an effect calling
        // `clock.sleep` leaves the main actor to get there, which no amount
        // of main-actor yielding can observe.
        let isIdle = { clock.sleeperCount + store.waitingEffectCount == store.runningEffectCount }
        let settle = { await self.settle(until: isIdle, fingerprint) }
        while true {
            await settle()
            let nextStep = pending.first?.at
            let nextWake = clock.nextDeadline?.offset
            guard let moment = [nextStep, nextWake].compactMap({ $0 }).min() else { break }
            await wait(from: clock.now.offset, to: moment)
            clock.advance(to: .init(offset: moment))
            await settle()
            while let next = pending.first, next.at <= moment {
                pending.removeFirst()
                switch next.step {
                case .send(let action):
                    store.send(action)
                case .happen(let narration, let body):
                    renderer.note(narration, at: moment)
                    body()
                }
            }
        }
        renderer.lanes(timeline)
        return timeline
    }

    /// Lets every effect run until only advancing the clock can make progress.
    ///
    /// Waits until `isIdle` holds — every running effect asleep on the clock
    /// or waiting for effects it started — and then until a few rounds of
    /// `Task.yield()` change nothing, so that actions already queued on the
    /// main actor (a serial FIFO executor) are processed too.
    private func settle(until isIdle: () -> Bool, _ fingerprint: () -> (Int, Int, Int)) async {
        var last = fingerprint()
        var quietRounds = 0
        var rounds = 0
        while quietRounds < 8 || !isIdle() {
            await Task.yield()
            let current = fingerprint()
            if current == last { quietRounds += 1 } else { quietRounds = 0; last = current }
            rounds += 1
            if rounds == 10_000_000 {
                Output.error("asyncstate-demo: an effect is waiting on something other than the simulated clock; continuing")
                return
            }
        }
    }

    /// Lets a person watch: waits in real time for the simulated interval, scaled by `pace`.
    private func wait(from start: Duration, to end: Duration) async {
        guard pace > 0, end > start else { return }
        try? await ContinuousClock().sleep(for: (end - start) * pace)
    }
}
