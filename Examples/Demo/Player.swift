import AsyncState
import AsyncStateControls
import Observation

/// One thing a scenario's script does at a moment of simulated time.
enum Step<Action> {
    /// A user action, such as a tap.
    case send(Action)
    /// Something in the world, such as the network going down, with a line of narration.
    case happen(String, @MainActor () -> Void)
}

/// Plays a scenario in simulated time: sends its scripted actions at their
/// moments, lets effects run until the store is idle on the clock
/// (`Store.waitUntilIdle(on:)`), then moves the clock to the next moment
/// anything is due.
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
    /// Whether to count the views that re-render after each action.
    let countsRenders: Bool
    /// Where to write what the store processed, as JSON lines (`--record`).
    var recordPath: String?
    /// A recording to play back instead of running the scenario (`replay`).
    var replayText: String?
    /// Why the last play could not record or replay, if it could not.
    private(set) var failure: String?

    init(renderer: Renderer, pace: Double, countsRenders: Bool = false) {
        self.renderer = renderer
        self.pace = pace
        self.countsRenders = countsRenders
    }

    /// Plays `script` against a new store of `reducer`, printing each step.
    func play<R: Reducer>(
        _ scenario: Scenario,
        reducer: R,
        initialState: R.State,
        clock: TestClock,
        presenter: Presenter<R.State, R.Action>,
        editTypes: [any (Decodable & Sendable).Type] = [],
        script: [(at: Duration, step: Step<R.Action>)]
    ) async -> Timeline where R.Action: Codable {
        if let replayText {
            return replay(
                replayText, scenario, reducer: reducer, initialState: initialState, presenter: presenter, editTypes: editTypes)
        }
        let store = Store(initialState: initialState, reducer: reducer)
        let recorder = recordPath.map { _ in Recorder<R.State, R.Action>(capacity: 100_000, clock: LoadClock(clock)) }
        if let recorder {
            store.record(into: recorder)
            recorder.note(Self.scenarioMark + scenario.name)
        }
        onStart?(initialState)
        var timeline = Timeline()
        let screen = countsRenders ? RenderCounter(presenter.views(store)) : nil
        store.observeTransitions { [renderer, onTransition] transition in
            onTransition?(Transition(action: transition.action, state: transition.state, isDropped: transition.isDropped))
            let entry = Timeline.Entry(
                time: clock.now.offset,
                action: presenter.action(transition.action),
                state: presenter.state(transition.state),
                isDropped: transition.isDropped,
                renders: screen?.rerender()
            )
            timeline.record(entry, load: presenter.load(transition.action))
            renderer.entry(entry, scenario: scenario)
        }
        renderer.header(scenario)

        var pending = script.sorted { $0.at < $1.at }[...]
        let waitUntilIdle = {
            if await !store.waitUntilIdle(on: clock) {
                Output.error("asyncstate-demo: an effect is waiting on something other than the simulated clock; continuing")
            }
        }
        while true {
            await waitUntilIdle()
            let nextStep = pending.first?.at
            let nextWake = clock.nextDeadline?.offset
            guard let moment = [nextStep, nextWake].compactMap({ $0 }).min() else { break }
            await wait(from: clock.now.offset, to: moment)
            clock.advance(to: .init(offset: moment))
            await waitUntilIdle()
            while let next = pending.first, next.at <= moment {
                pending.removeFirst()
                switch next.step {
                case .send(let action):
                    store.send(action)
                case .happen(let narration, let body):
                    renderer.note(narration, at: moment)
                    recorder?.note(narration)
                    body()
                }
            }
        }
        renderer.lanes(timeline)
        if let screen { renderer.renders(screen.total, views: presenter.views(store).count) }
        if let recordPath, let recording = recorder?.recording {
            do {
                try Files.write(try recording.jsonLines(), to: recordPath)
            } catch let error as Files.Problem {
                failure = "asyncstate-demo: could not write the recording to \(recordPath): \(error)"
            } catch {
                failure = "asyncstate-demo: could not encode the recording: \(error)"
            }
        }
        return timeline
    }

    /// The first note of a recording the demo writes names its scenario.
    static let scenarioMark = "asyncstate-demo scenario "

    /// The scenario a recording file was made from, by its first note.
    static func scenarioName(in text: String) -> String? {
        guard let range = text.range(of: #""note":""# + scenarioMark) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Plays a recording back: replays its actions through `reducer` (no
    /// effects run) and prints each step, its notes and the lanes, as the
    /// recorded run printed them.
    private func replay<R: Reducer>(
        _ text: String, _ scenario: Scenario, reducer: R, initialState: R.State, presenter: Presenter<R.State, R.Action>,
        editTypes: [any (Decodable & Sendable).Type]
    ) -> Timeline where R.Action: Codable {
        var timeline = Timeline()
        let replayed: Recording<R.State, R.Action>
        let transcript: RecordingTranscript<R.Action>
        do {
            transcript = try RecordingTranscript(jsonLines: text, editTypes: editTypes)
            replayed = try transcript.replay(from: initialState, through: reducer)
        } catch {
            failure = "asyncstate-demo: cannot replay this recording: \(error)"
            return timeline
        }
        renderer.header(scenario)
        var notes = transcript.readings.compactMap { reading -> (step: Int, text: String, time: Duration)? in
            guard case .note(let text, let time) = reading.value, !text.hasPrefix(Self.scenarioMark) else { return nil }
            return (reading.step, text, time ?? .zero)
        }[...]
        func printNotes(through step: Int) {
            while let note = notes.first, note.step <= step {
                notes.removeFirst()
                renderer.note(note.text, at: note.time)
            }
        }
        for (index, step) in replayed.steps.enumerated() {
            printNotes(through: index)
            let entry = Timeline.Entry(
                time: step.time ?? .zero, action: presenter.action(step.action), state: presenter.state(step.state),
                isDropped: step.isDropped, renders: nil)
            timeline.record(entry, load: presenter.load(step.action))
            renderer.entry(entry, scenario: scenario)
        }
        printNotes(through: .max)
        renderer.lanes(timeline)
        return timeline
    }

    /// Lets a person watch: waits in real time for the simulated interval, scaled by `pace`.
    private func wait(from start: Duration, to end: Duration) async {
        guard pace > 0, end > start else { return }
        try? await ContinuousClock().sleep(for: (end - start) * pace)
    }
}

/// Stands in for a screen's views: each reads its part of the store inside
/// `withObservationTracking`, as a SwiftUI body does, and is marked for a
/// re-render when told of a change.
@MainActor
final class RenderCounter {
    private let views: [ScreenView]
    private var isStale: [Bool]
    /// Re-renders so far, and actions.
    private(set) var total = (renders: 0, actions: 0)

    init(_ views: [ScreenView]) {
        self.views = views
        self.isStale = Array(repeating: false, count: views.count)
        for index in views.indices { render(index) }
    }

    /// Re-renders the views told of a change since the last call, and says how many, of how many.
    func rerender() -> (count: Int, of: Int) {
        let stale = isStale.indices.filter { isStale[$0] }
        total.renders += stale.count
        total.actions += 1
        for index in stale {
            isStale[index] = false
            render(index)
        }
        return (stale.count, views.count)
    }

    private func render(_ index: Int) {
        withObservationTracking {
            views[index].read()
        } onChange: { [self] in
            MainActor.assumeIsolated { isStale[index] = true }
        }
    }
}
