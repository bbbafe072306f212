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
}
