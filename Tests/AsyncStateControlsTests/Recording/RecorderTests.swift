import AsyncState
import AsyncStateControls
import Testing

@Suite("Recording what a store processes")
@MainActor
struct RecorderTests {
    typealias Action = SearchFeature.Action

    func feature() -> SearchFeature {
        SearchFeature(fetch: { query throws(SearchFailure) in "results for \(query)" })
    }

    @Test("a store that records nothing has no recording")
    func offByDefault() {
        let recorder = Recorder<SearchFeature.State, Action>()
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.send(.results(.started(LoadID(1))))
        #expect(recorder.recording == nil)
        #expect(recorder.stepCount == 0)
    }

    @Test("each step keeps its action, whether it was dropped, and the state after it")
    func steps() {
        let recorder = Recorder<SearchFeature.State, Action>()
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        store.send(.results(.started(LoadID(2))))
        store.send(.results(.finished(LoadID(1), "old")))
        store.send(.results(.finished(LoadID(2), "new")))
        let recording = try! #require(recorder.recording)
        #expect(recording.initialState == SearchFeature.State())
        #expect(
            recording.actions == [
                .results(.started(LoadID(1))), .results(.started(LoadID(2))),
                .results(.finished(LoadID(1), "old")), .results(.finished(LoadID(2), "new")),
            ])
        #expect(recording.steps.map(\.isDropped) == [false, false, true, false])
        #expect(recording.steps.last?.state.results.value == "new")
        #expect(recording.steps[2].state == recording.steps[1].state)
    }

    @Test("the buffer keeps the newest steps; the recording starts from the state before them")
    func bounded() {
        let recorder = Recorder<SearchFeature.State, Action>(capacity: 2)
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        let afterFirst = store.state
        store.send(.results(.finished(LoadID(1), "a")))
        store.send(.results(.started(LoadID(2))))
        let recording = try! #require(recorder.recording)
        #expect(recording.discardedStepCount == 1)
        #expect(recording.initialState == afterFirst)
        #expect(recording.actions == [.results(.finished(LoadID(1), "a")), .results(.started(LoadID(2)))])
        #expect(recorder.stepCount == 3)
    }

    @Test(
        "past its first allocation, round the ring and through many checkpoints, the buffer keeps exactly the newest steps",
        arguments: [1, 63, 64, 65, 300, 700])
    func growsAndWraps(capacity: Int) throws {
        let recorder = Recorder<SearchFeature.State, Action>(capacity: capacity)
        let log = recorder.watching(TestClock(), named: "clock")
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.record(into: recorder)
        var states: [SearchFeature.State] = [store.state]
        var actions: [Action] = []
        for step in UInt64(1)...3_000 {
            let action: Action = .results(step.isMultiple(of: 2) ? .finished(LoadID(step - 1), "r\(step)") : .started(LoadID(step)))
            store.send(action)
            actions.append(action)
            states.append(store.state)
        }
        _ = log.now
        let recording = try #require(recorder.recording)
        #expect(recording.discardedStepCount == 3_000 - capacity)
        #expect(recording.initialState == states[3_000 - capacity])
        #expect(recording.actions == Array(actions.suffix(capacity)))
        #expect(recording.steps.map(\.state) == Array(states.suffix(capacity)))
        #expect(recording.readings.map(\.step) == [3_000])
    }

    /// An action payload that runs code when the ring lets its step go.
    final class Token: Sendable {
        let onRelease: @Sendable () -> Void
        init(onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
        deinit { onRelease() }
    }

    @Test("an action whose deinit stops the recording when the ring lets it go: the step completes, and the recorder is let go after")
    func deinitStopsRecording() throws {
        let store = Store(
            initialState: 0,
            reducer: Reduce<Int, Token> { count, _ in
                count += 1
                return .none
            })
        weak var released: Recorder<Int, Token>?
        do {
            // Held by the store alone: stopping the recording frees it and its ring.
            let recorder = Recorder<Int, Token>(capacity: 1)
            store.record(into: recorder)
            released = recorder
        }
        // Held by the ring alone; its deinit runs inside `store.send`, on the main actor.
        store.send(Token { [weak store] in MainActor.assumeIsolated { store?.stopRecording() } })
        for _ in 1..<(1 + Recorder<Int, Token>.checkpointInterval) { store.send(Token(onRelease: {})) }
        #expect(released?.stepCount == 65)
        // The next step overwrites the first, whose token stops the recording:
        // the step is recorded whole, and the store keeps the recorder until
        // it records or stops again.
        store.send(Token(onRelease: {}))
        #expect(released?.stepCount == 66)
        store.send(Token(onRelease: {}))
        #expect(released?.stepCount == 66)
        #expect(store.state == 67)
        store.stopRecording()
        #expect(released == nil)
    }

    @Test("a capacity below one keeps one step")
    func capacityAtLeastOne() {
        #expect(Recorder<Int, Int>(capacity: 0).capacity == 1)
        #expect(Recorder<Int, Int>(capacity: -5).capacity == 1)
    }

    @Test("stopping keeps what was recorded and records no more")
    func stop() {
        let recorder = Recorder<SearchFeature.State, Action>()
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        store.stopRecording()
        store.send(.results(.started(LoadID(2))))
        #expect(recorder.recording?.steps.count == 1)
    }

    @Test("steps carry the recorder clock's time; watched clocks and generators note what effects read")
    func readings() {
        let clock = TestClock()
        let recorder = Recorder<SearchFeature.State, Action>(clock: LoadClock(clock))
        let watched = recorder.watching(clock, named: "clock")
        var generator = recorder.watching(SplitMix64(seed: 7), named: "jitter")
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.record(into: recorder)
        clock.advance(by: .seconds(2))
        store.send(.results(.started(LoadID(1))))
        let now = watched.now
        let draw = generator.next()
        let recording = try! #require(recorder.recording)
        #expect(recording.steps.map(\.time) == [.seconds(2)])
        #expect(now.offset == .seconds(2))
        #expect(
            recording.readings == [
                RecordedReading(step: 1, source: "clock", value: .time(.seconds(2))),
                RecordedReading(step: 1, source: "jitter", value: .random(draw)),
            ])
        var fresh = SplitMix64(seed: 7)
        #expect(draw == fresh.next())
    }

    @Test("a note written after some steps, the recorder's first reading, comes after those steps")
    func noteAfterSteps() throws {
        let recorder = Recorder<SearchFeature.State, Action>()
        let store = Store(initialState: SearchFeature.State(), reducer: feature())
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        store.send(.results(.finished(LoadID(1), "a")))
        recorder.note("network down")
        let recording = try #require(recorder.recording)
        #expect(recording.readings == [RecordedReading(step: 2, source: "note", value: .note("network down", time: nil))])
    }
}

@Suite("Recording: one store at a time, and bounds")
@MainActor
struct RecorderBoundsTests {
    typealias Action = SearchFeature.Action
    typealias State = SearchFeature.State

    let feature = SearchFeature(fetch: { query throws(SearchFailure) in "results for \(query)" })

    @Test("a second store recording into a recorder stops the first")
    func oneStoreAtATime() throws {
        let recorder = Recorder<State, Action>()
        let first = Store(initialState: State(), reducer: feature)
        let second = Store(initialState: State(), reducer: feature)
        first.record(into: recorder)
        first.send(.results(.started(LoadID(1))))
        second.record(into: recorder)
        second.send(.results(.started(LoadID(7))))
        first.send(.results(.finished(LoadID(1), "first")))
        let recording = try #require(recorder.recording)
        #expect(recording.actions == [.results(.started(LoadID(7)))])
        #expect(recording.steps.last?.state == second.state)
    }

    @Test("a recording started by an observer during a step begins after that step")
    func startedMidStep() throws {
        let recorder = Recorder<State, Action>()
        let store = Store(initialState: State(), reducer: feature)
        var started = false
        store.observeTransitions { [weak store] _ in
            guard let store, !started else { return }
            started = true
            store.record(into: recorder)
        }
        store.send(.results(.started(LoadID(1))))
        store.send(.results(.finished(LoadID(1), "a")))
        let recording = try #require(recorder.recording)
        #expect(recording.actions == [.results(.finished(LoadID(1), "a"))])
        #expect(recording.steps.last?.state == store.state)
    }

    @Test("the largest capacity is a limit, not an allocation, and does not overflow")
    func largestCapacity() throws {
        let recorder = Recorder<State, Action>(capacity: .max)
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        #expect(try #require(recorder.recording).steps.count == 1)
        #expect(recorder.capacity == Int.max / 4)
    }

    @Test("a note before the first store records is kept before the first step; a second store starts without it")
    func noteBeforeRecording() throws {
        let recorder = Recorder<State, Action>()
        recorder.note("launched")
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        let first = try #require(recorder.recording)
        #expect(first.readings.map(\.step) == [0])
        #expect(first.readings.map(\.source) == ["note"])

        recorder.note("between the stores")
        let second = Store(initialState: State(), reducer: feature)
        second.record(into: recorder)
        #expect(try #require(recorder.recording).readings.isEmpty)
    }

    @Test("readings of steps the buffer let go leave with them, so the file reads back")
    func readingsOfDiscardedSteps() throws {
        let recorder = Recorder<State, Action>(capacity: 1)
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        recorder.note("before the first step")
        store.send(.results(.started(LoadID(1))))
        recorder.note("after the first step")
        store.send(.results(.finished(LoadID(1), "a")))
        let recording = try #require(recorder.recording)
        #expect(recording.readings.map(\.step) == [1])
        let transcript = try RecordingTranscript<Action>(jsonLines: try recording.jsonLines())
        #expect(transcript.readings == recording.readings)
    }

    @Test("a recorder keeps at most its capacity of readings: the newest")
    func readingsBounded() throws {
        let recorder = Recorder<SearchFeature.State, SearchFeature.Action>(capacity: 2)
        let store = Store(initialState: SearchFeature.State(), reducer: SearchFeature(fetch: { query throws(SearchFailure) in query }))
        store.record(into: recorder)
        for text in ["a", "b", "c"] { recorder.note(text) }
        let recording = try #require(recorder.recording)
        #expect(recording.readings.map(\.value) == [.note("b", time: nil), .note("c", time: nil)])
    }
}

@Suite("Recording beside transition observers")
@MainActor
struct RecorderObserverTests {
    @Test("observers registered before, during and after a recording are each told every action once")
    func observersToldOnce() throws {
        let store = Store(
            initialState: 0,
            reducer: Reduce<Int, Int> { state, action in
                state += action
                return .none
            })
        var before: [Int] = [], during: [Int] = []
        store.observeTransitions { before.append($0.state) }
        let recorder = Recorder<Int, Int>()
        store.send(1)
        store.record(into: recorder)
        store.observeTransitions { during.append($0.state) }
        store.send(2)
        store.stopRecording()
        store.send(3)
        store.record(into: recorder)
        store.send(4)
        #expect(before == [1, 3, 6, 10])
        #expect(during == [3, 6, 10])
        #expect(try #require(recorder.recording).steps.map(\.state) == [10])
    }
}
