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
        while true {
            await settle(fingerprint)
            let nextStep = pending.first?.at
            let nextWake = clock.nextDeadline?.offset
            guard let moment = [nextStep, nextWake].compactMap({ $0 }).min() else { break }
            await wait(from: clock.now.offset, to: moment)
            clock.advance(to: .init(offset: moment))
            await settle(fingerprint)
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

    /// Lets every effect run until nothing changes any more.
    ///
    /// All effects run on the main actor, a serial FIFO executor: each
    /// `Task.yield()` lets every job queued before it run. When several rounds
    /// in a row change nothing — no action processed, no sleeper added or
    /// woken, no effect started or ended — every effect is waiting on the
    /// simulated clock, and only advancing it can make progress.
    private func settle(_ fingerprint: () -> (Int, Int, Int)) async {
        var last = fingerprint()
        var quietRounds = 0
        while quietRounds < 8 {
            await Task.yield()
            let current = fingerprint()
            if current == last { quietRounds += 1 } else { quietRounds = 0; last = current }
        }
    }

    /// Lets a person watch: waits in real time for the simulated interval, scaled by `pace`.
    private func wait(from start: Duration, to end: Duration) async {
        guard pace > 0, end > start else { return }
        try? await ContinuousClock().sleep(for: (end - start) * pace)
    }
}
