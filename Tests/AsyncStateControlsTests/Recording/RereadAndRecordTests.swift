import AsyncState
import AsyncStateControls
import AsyncStateTesting
import Observation
import Testing

// Found by an outside reading (the first suite, each test failed before its fix), and what that reading checked and found to hold.

struct ProbeError: Error, Equatable {}

/// A counter with a second, unrelated field.
struct ProbeCounter: Reducer {
    struct State: Equatable {
        var count = 0
        var title = "a"
        var rows: KeyedStates<Int, Int> = [1: 1, 2: 2, 3: 3]
    }

    enum Action: Equatable, Codable {
        case increment
        case rename(String)
        case setRow(Int, Int?)
        case nothing
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.count += 1
        case .rename(let title): state.title = title
        case .setRow(let key, let value): state.rows[key] = value
        case .nothing: break
        }
        return .none
    }
}

// MARK: - Found

@Suite("Readers that read again from their handlers, and recordings started mid-step")
@MainActor
struct RereadAndRecordTests {
    /// RuntimeGuide: "a reader is told once the state is whole, and one that
    /// reads from its change handler reads the new state and registers
    /// again"; Cache: "a reader of a key that is not [cached] is told when a
    /// key is added". A reader that reads again from its change handler must
    /// then see the key.
    @Test("cache: a reader that re-reads a missing key from its change handler sees the key once it is added")
    func cacheRereadOnAdd() async {
        // In a child process: on the current code the re-read traps
        // ("Simultaneous accesses ... modification requires exclusive access").
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let cache = Cache<Int, String, ProbeError>(clock: TestClock(), staleAfter: .seconds(30)) { id in
                    LoadRequest { () async throws(ProbeError) in "v\(id)" }
                }
                var seen: [Bool] = []
                let reader = ProbeReader(rereads: true) { seen.append(cache[7] != nil) }
                let subscription = cache.subscribe(7)
                // The reader read "missing" first; the last thing it read must be the added key.
                precondition(seen.first == false && seen.last == true, "reads: \(seen)")
                withExtendedLifetime((subscription, reader)) {}
            }
        }
    }

    /// OperationTracker: "a reader of a key that has none is told when a key
    /// is added"; a reader that re-reads from its change handler must see
    /// the key's run.
    // Time limits here are hang guards of ten minutes, as `.hangGuard` in
    // AsyncStateTests explains: wall-clock time under CI's sanitized run.
    @Test("tracker: a reader that re-reads isActive from its change handler sees the first run of a key", .timeLimit(.minutes(10)))
    func trackerRereadOnFirstRun() async {
        let tracker = OperationTracker<String, ProbeError>()
        var reads: [Bool] = []
        let reader = ProbeReader(rereads: true) { reads.append(tracker.isActive("save")) }
        let gate = Gate<Int>()
        let run = Task {
            await tracker.run("save", LoadRequest<Int, ProbeError> { () async throws(ProbeError) -> Int in (try? await gate.wait()) ?? 0 })
        }
        await gate.waitForArrivals(1)
        #expect(tracker.isActive("save"))
        #expect(reads.last == true, "reads: \(reads)")
        gate.open(with: 1)
        _ = await run.value
        withExtendedLifetime(reader) {}
    }

    /// A counter store whose first change of `count` starts recording it, from
    /// the observation change handler.
    static func storeThatRecordsOnChange() -> (
        Store<ProbeCounter.State, ProbeCounter.Action>, Recorder<ProbeCounter.State, ProbeCounter.Action>
    ) {
        let store = Store(initialState: ProbeCounter.State(), reducer: ProbeCounter())
        let recorder = Recorder<ProbeCounter.State, ProbeCounter.Action>()
        withObservationTracking {
            _ = store.count
        } onChange: {
            MainActor.assumeIsolated { store.record(into: recorder) }
        }
        return (store, recorder)
    }

    /// Recording.Step.state: "The store's state right after it." A recording
    /// started from a change handler (say, "start recording when the count
    /// changes") must start after the action that changed it, as one started
    /// by a transition observer does.
    @Test("a recording started from an observation change handler matches what the store did")
    func recordFromChangeHandler() throws {
        let (store, recorder) = Self.storeThatRecordsOnChange()
        store.send(.increment) // count 1: the handler starts recording
        store.send(.increment) // count 2
        let recording = try #require(recorder.recording)
        #expect(store.state.count == 2)
        #expect(recording.initialState.count == 1)
        #expect(recording.steps.map(\.state.count) == [2], "recorded states \(recording.steps.map(\.state.count)), store ended at 2")
        #expect(recording.steps.last?.state.count == store.state.count)
    }

    /// Recording: "replaying the actions through the feature's reducer from
    /// initialState gives the same states again". The same recording, past
    /// its first checkpoint (64 steps), no longer replays.
    @Test("a recording started from an observation change handler replays past its first checkpoint")
    func recordFromChangeHandlerReplays() throws {
        let (store, recorder) = Self.storeThatRecordsOnChange()
        for _ in 0..<100 { store.send(.increment) }
        let recording = try #require(recorder.recording)
        let transcript = RecordingTranscript(recording)
        #expect(throws: Never.self) { try transcript.replay(from: recording.initialState, through: ProbeCounter()) }
    }

    /// RecordingTranscript(jsonLines:) "Reads a transcript written by
    /// jsonLines()": a file written from a recording reads back as it.
    @Test(
        "a recording whose action carries a Unicode line or paragraph separator reads back",
        arguments: ["\u{2028}", "\u{2029}", "\u{85}"])
    func unicodeSeparatorsRoundTrip(separator: String) throws {
        let recording = Recording(
            replaying: [.rename("before\(separator)after"), .increment], from: ProbeCounter.State(), through: ProbeCounter())
        let text = try recording.jsonLines()
        let transcript: RecordingTranscript<ProbeCounter.Action>
        do {
            transcript = try RecordingTranscript<ProbeCounter.Action>(jsonLines: text)
        } catch {
            Issue.record("the file jsonLines() wrote does not read back: \(error)")
            return
        }
        #expect(transcript.actions == recording.actions)
        #expect(throws: Never.self) { try transcript.replay(from: ProbeCounter.State(), through: ProbeCounter()) }
    }
}

// MARK: - Held

/// A reader that counts how often it is told, and optionally reads again from its handler.
@MainActor
final class ProbeReader {
    private(set) var told = 0
    private let body: @MainActor () -> Void
    private let rereads: Bool

    init(rereads: Bool = false, _ body: @escaping @MainActor () -> Void) {
        self.body = body
        self.rereads = rereads
        arm()
    }

    func arm() {
        withObservationTracking {
            body()
        } onChange: { [self] in
            MainActor.assumeIsolated {
                told += 1
                if rereads { arm() }
            }
        }
    }
}

@Suite("Observation and recording hold under rereading readers, bounded buffers and corrupt files")
@MainActor
struct ObservationAndRecordingTests {
    @Test("rows added, removed and changed tell only their readers; a removed row re-added tells its reader again")
    func rowsAddedRemoved() {
        let store = Store(initialState: ProbeCounter.State(), reducer: ProbeCounter())
        let four = ProbeReader(rereads: true) { _ = store[part: \.rows, key: 4] }
        let two = ProbeReader(rereads: true) { _ = store[part: \.rows, key: 2] }
        let one = ProbeReader(rereads: true) { _ = store[part: \.rows, key: 1] }
        store.send(.setRow(4, 40)) // added
        #expect((four.told, two.told, one.told) == (1, 0, 0))
        store.send(.setRow(2, nil)) // removed: row 3 moves up, row 1 stays
        #expect((four.told, two.told, one.told) == (1, 1, 0))
        store.send(.setRow(2, 2)) // re-added at the end
        #expect((four.told, two.told, one.told) == (1, 2, 0))
        store.send(.setRow(1, 1)) // same value
        store.send(.nothing)
        #expect((four.told, two.told, one.told) == (1, 2, 0))
    }

    @Test("a part read by several observers tells each once; no-op and same-value actions tell nobody")
    func severalObservers() {
        let store = Store(initialState: ProbeCounter.State(), reducer: ProbeCounter())
        let a = ProbeReader { _ = store.count }
        let b = ProbeReader { _ = store[part: \.count] }
        let whole = ProbeReader { _ = store.state }
        let title = ProbeReader { _ = store.title }
        store.send(.nothing)
        store.send(.rename("a"))
        #expect((a.told, b.told, whole.told, title.told) == (0, 0, 0, 0))
        store.send(.increment)
        #expect((a.told, b.told, whole.told, title.told) == (1, 1, 1, 0))
    }

    @Test("a reader registered between actions, and one registered from a transition observer mid-send, is told of the next change")
    func registeredBetweenAndDuringSend() {
        let store = Store(initialState: ProbeCounter.State(), reducer: ProbeCounter())
        let first = ProbeReader { _ = store.count }
        store.send(.increment)
        #expect(first.told == 1)
        let late = ProbeReader { _ = store.count } // registered between actions, after the part was announced
        var duringSend: ProbeReader?
        store.observeTransitions { transition in
            if transition.action == .rename("x"), duringSend == nil {
                duringSend = ProbeReader { _ = store.count }
                store.send(.increment) // queued, processed before the outer send returns
            }
        }
        store.send(.rename("x"))
        #expect(late.told == 1)
        #expect(duringSend?.told == 1)
    }

    @Test("a bounded recorder rebuilds every kept state as the store had it, far past its checkpoints")
    func boundedRecorderMatches() async throws {
        for capacity in [1, 5, 63, 64, 65, 130] {
            await Task.yield()
            let store = Store(initialState: ProbeCounter.State(), reducer: ProbeCounter())
            let recorder = Recorder<ProbeCounter.State, ProbeCounter.Action>(capacity: capacity)
            store.record(into: recorder)
            var states: [ProbeCounter.State] = []
            var random = SplitMix64(seed: 7)
            for _ in 0..<500 {
                let action: ProbeCounter.Action =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: .increment
                    case 1: .setRow(Int.random(in: 1...6, using: &random), Bool.random(using: &random) ? nil : 9)
                    default: .rename("t\(Int.random(in: 0..<3, using: &random))")
                    }
                store.send(action)
                states.append(store.state)
            }
            let recording = try #require(recorder.recording)
            #expect(recording.steps.count == capacity)
            #expect(recording.discardedStepCount == 500 - capacity)
            #expect(recording.steps.map(\.state) == Array(states.suffix(capacity)))
            #expect(recording.initialState == states[500 - capacity - 1])
            #expect(assertReplay(recording, reducer: ProbeCounter()) != nil)
            let transcript = try RecordingTranscript<ProbeCounter.Action>(jsonLines: recording.jsonLines())
            #expect(throws: Never.self) { try transcript.replay(from: recording.initialState, through: ProbeCounter()) }
        }
    }

    @Test("a divergence names the first step that differs")
    func firstDivergence() throws {
        let recording = Recording(
            replaying: [.nothing, .increment, .increment], from: ProbeCounter.State(), through: ProbeCounter())
        struct Doubling: Reducer {
            func reduce(into state: inout ProbeCounter.State, action: ProbeCounter.Action) -> Effect<ProbeCounter.Action> {
                if action == .increment { state.count += 2 }
                return .none
            }
        }
        let transcript = RecordingTranscript(recording)
        do {
            _ = try transcript.replay(from: ProbeCounter.State(), through: Doubling())
            Issue.record("no divergence")
        } catch {
            #expect(error.step == 2)
            #expect(error.reason == .state(fieldChanges: ["count: 1 → 2"]))
        }
    }

    @Test("minimizing keeps the failure and is 1-minimal")
    func minimizedKeepsFailure() {
        var actions: [ProbeCounter.Action] = []
        var random = SplitMix64(seed: 11)
        for _ in 0..<60 { actions.append(Bool.random(using: &random) ? .nothing : .rename("z")) }
        actions.insert(.increment, at: 13)
        actions.insert(.increment, at: 47)
        let recording = Recording(replaying: actions, from: ProbeCounter.State(), through: ProbeCounter())
        let minimized = recording.minimized(through: ProbeCounter()) { ($0.steps.last?.state.count ?? 0) >= 2 }
        #expect(minimized.actions == [.increment, .increment])
    }
}

/// Readers that each re-read from their change handler, as a view that
/// re-renders at once would: after any change they depend on, their last
/// read must be what the host shows now.
@MainActor
final class RereadingReaders {
    private(set) var last: [String: String] = [:]
    private var readers: [ProbeReader] = []
    private var current: [String: @MainActor () -> String] = [:]

    func add(_ name: String, _ read: @escaping @MainActor () -> String) {
        current[name] = read
        readers.append(ProbeReader(rereads: true) { [unowned self] in last[name] = read() })
    }

    /// The readers whose last read is not what they would read now.
    func stale() -> [String] {
        current.compactMap { name, read in
            let now = withObservationTracking {
                read()
            } onChange: {
            }
            return last[name] == now ? nil : "\(name): read \(last[name] ?? "-"), now \(now)"
        }.sorted()
    }
}

@MainActor
final class GatedBackend {
    private(set) var gates: [Gate<Int>] = []
    func request() -> LoadRequest<Int, ProbeError> {
        LoadRequest { () async throws(ProbeError) -> Int in
            let gate = Gate<Int>()
            self.gates.append(gate)
            do { return try await gate.wait() } catch { throw ProbeError() }
        }
    }
}

extension ObservationAndRecordingTests {
    @Test("AsyncValue: readers that re-read each member from their handlers always hold what it shows", .timeLimit(.minutes(10)))
    func asyncValueRereads() async {
        let value = AsyncValue<Int, ProbeError>()
        let backend = GatedBackend()
        let readers = RereadingReaders()
        readers.add("value") { "\(String(describing: value.value))" }
        readers.add("isLoading") { "\(value.isLoading)" }
        readers.add("state") { "\(value.state)" }
        readers.add("activity") { "\(String(describing: value.activity))" }
        readers.add("error") { "\(String(describing: value.error))" }
        readers.add("isInvalidated") { "\(value.isInvalidated)" }
        readers.add("waitingCount") { "\(value.waitingCount)" }
        readers.add("runningCount") { "\(value.runningCount)" }
        var problems: [String] = []
        func check(_ step: String) { problems += readers.stale().map { "after \(step): \($0)" } }

        let first = Task { await value.load(backend.request()) }
        await waitForGate(backend, 1)
        check("load #1 started")
        let second = Task { await value.load(backend.request()) }
        await waitForGate(backend, 2)
        check("load #2 superseded #1")
        backend.gates[0].open(with: 10)
        await first.value
        check("#1 answered late")
        backend.gates[1].open(with: 20)
        await second.value
        check("#2 answered")
        value.setValue(20)
        check("same value set")
        value.setValue(30)
        check("value set")
        let third = Task { await value.load(backend.request()) }
        await waitForGate(backend, 3)
        check("load #3 started")
        value.cancel()
        await third.value
        check("#3 cancelled")
        value.reset()
        check("reset")
        #expect(problems.isEmpty, "\(problems)")
    }

    private func waitForGate(_ backend: GatedBackend, _ count: Int) async {
        while backend.gates.count < count { await Task.yield() }
        await backend.gates[count - 1].waitForArrivals(1)
    }
}

struct RowsFeature: Reducer {
    struct State: Equatable {
        var rows: KeyedStates<Int, Int> = [1: 0, 2: 0, 3: 0]
        var saved: KeyedStates<Int, Int> = [:]
        var count = 0
    }

    enum Action {
        case set(Int, Int?)
        case setTwo(Int, Int, Int)
        case save
        case restore
        case restoreAndSet(Int, Int)
        case removeAll
        case increment
        case nothing
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .set(let key, let value): state.rows[key] = value
        case .setTwo(let a, let b, let value):
            state.rows[a] = value
            state.rows[b] = value
        case .save: state.saved = state.rows
        case .restore: state.rows = state.saved
        case .restoreAndSet(let key, let value):
            state.rows = state.saved
            state.rows[key] = value
        case .removeAll: state.rows.removeAll()
        case .increment: state.count += 1
        case .nothing: break
        }
        return .none
    }
}

extension ObservationAndRecordingTests {
    @Test("store: readers of rows, parts and the state that re-read from their handlers always hold what the store shows")
    func storeRereadsRandomized() async {
        for seed in UInt64(0)..<100 {
            // A turn for the other tests on the main actor between seeds.
            await Task.yield()
            var random = SplitMix64(seed: seed)
            let store = Store(initialState: RowsFeature.State(), reducer: RowsFeature())
            let readers = RereadingReaders()
            var log: [String] = []
            var problems: [String] = []
            func addReaders() {
                for key in 1...5 where Bool.random(using: &random) {
                    readers.add("row \(key)#\(log.count)") { "\(String(describing: store[part: \.rows, key: key]))" }
                }
                if Bool.random(using: &random) { readers.add("count#\(log.count)") { "\(store.count)" } }
                if Int.random(in: 0..<4, using: &random) == 0 { readers.add("rows#\(log.count)") { "\(store.rows)" } }
                if Int.random(in: 0..<4, using: &random) == 0 { readers.add("state#\(log.count)") { "\(store.state)" } }
            }
            addReaders()
            for _ in 0..<25 {
                let key = Int.random(in: 1...5, using: &random)
                let value = Int.random(in: 0...2, using: &random)
                let action: RowsFeature.Action =
                    switch Int.random(in: 0..<9, using: &random) {
                    case 0: .set(key, Bool.random(using: &random) ? nil : value)
                    case 1: .setTwo(key, key % 5 + 1, value)
                    case 2: .save
                    case 3: .restore
                    case 4: .restoreAndSet(key, value)
                    case 5: .removeAll
                    case 6: .increment
                    case 7: .nothing
                    default: .set(key, value)
                    }
                log.append("\(action)")
                store.send(action)
                problems += readers.stale()
                if !problems.isEmpty { break }
                if Int.random(in: 0..<4, using: &random) == 0 { addReaders() }
            }
            if !problems.isEmpty {
                Issue.record("seed \(seed): \(problems); actions: \(log)")
                return
            }
        }
    }
}

extension ObservationAndRecordingTests {
    @Test("a bounded recorder with a clock keeps each kept step's own time, round the ring, and its file reads back")
    func boundedRecorderTimes() throws {
        for capacity in [1, 3, 70] {
            let clock = TestClock()
            let store = Store(initialState: ProbeCounter.State(), reducer: ProbeCounter())
            let recorder = Recorder<ProbeCounter.State, ProbeCounter.Action>(capacity: capacity, clock: LoadClock(clock))
            store.record(into: recorder)
            for second in 1...300 {
                clock.advance(by: .seconds(1))
                store.send(.increment)
                _ = second
            }
            let recording = try #require(recorder.recording)
            #expect(recording.steps.map(\.time) == (301 - capacity...300).map { Duration?.some(.seconds($0)) })
            #expect(recording.steps.map(\.state.count) == Array(301 - capacity...300))
            let transcript = try RecordingTranscript<ProbeCounter.Action>(jsonLines: recording.jsonLines())
            #expect(transcript.steps.map(\.time) == recording.steps.map(\.time))
        }
    }

    @Test("exploration: a stale result that wins is reported with its ordering; the minimized recording still breaks it")
    func explorationReproducible() async throws {
        struct Search: Reducer {
            struct State: Equatable { var results = Loadable<String, ProbeError>() }
            enum Action: Equatable {
                case search(String)
                case results(LoadAction<String, ProbeError>)
            }
            let fetch: @MainActor @Sendable (String) async throws(ProbeError) -> String
            func reduce(into state: inout State, action: Action) -> Effect<Action> {
                switch action {
                case .search(let query):
                    let fetch = fetch
                    return state.results.load(
                        Action.results, LoadRequest { () async throws(ProbeError) in try await fetch(query) },
                        overlap: .latestWins(cancellingEarlier: false))
                case .results(.finished(_, let value)):
                    state.results = Loadable(value: value) // the bug: stale results are applied
                    return .none
                case .results(let load):
                    return state.results.reduce(load)
                }
            }
        }
        let report = await explore(Search.State(), script: [.search("a"), .search("b")]) { operations in
            Search(fetch: operations.operation("fetch") { (query: String, call: Int) in .success("\(query)\(call)") })
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no stale result wins")
        #expect(!failure.ordering.isEmpty)
        #expect(firstBroken(in: failure.minimized, invariants: [], checkingEnd: false)?.invariant == "no stale result wins")
        #expect(firstBroken(in: failure.recording, invariants: [], checkingEnd: false)?.invariant == "no stale result wins")
        #expect(failure.minimized.steps.count <= failure.recording.steps.count)
    }
}

/// Off the main actor: thousands of decodes, which on it would keep other
/// tests' effects waiting.
@Suite("Recording files: corrupt input")
struct CorruptRecordingFileTests {
    @Test("every prefix and seeded corruption of a file gives a transcript or a RecordingFileError, never a crash")
    func corruptFiles() throws {
        let recording = Recording(
            replaying: [.increment, .rename("b"), .setRow(9, 1), .setRow(1, nil), .increment], from: ProbeCounter.State(),
            through: ProbeCounter())
        let text = try recording.jsonLines()
        let characters = Array(text)
        // Every cut short of the closing line's end is refused; the file without its last newline is whole.
        #expect(characters.last == "\n")
        for length in 0..<(characters.count - 1) {
            let cut = String(characters[..<length])
            #expect(throws: RecordingFileError.self, "cut at \(length) of \(characters.count)") {
                _ = try RecordingTranscript<ProbeCounter.Action>(jsonLines: cut)
            }
        }
        var random = SplitMix64(seed: 3)
        let alphabet = Array("{}[]\":,0123456789-e.\\ntruefalsnul \n")
        for _ in 0..<2_000 {
            var mutated = characters
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                mutated[Int.random(in: 0..<mutated.count, using: &random)] = alphabet.randomElement(using: &random)!
            }
            do {
                let transcript = try RecordingTranscript<ProbeCounter.Action>(jsonLines: String(mutated))
                _ = try? transcript.replay(from: ProbeCounter.State(), through: ProbeCounter())
            } catch {}
        }
    }
}
