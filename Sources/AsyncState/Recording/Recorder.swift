/// Keeps what a store processes in a bounded buffer: the newest `capacity`
/// steps, each an action, whether it was dropped and the state after it —
/// and, when given clocks and random number generators to watch, what the
/// store's effects read from them.
///
/// ```swift
/// let recorder = Recorder<Search.State, Search.Action>(capacity: 500)
/// let jitter = recorder.watching(SplitMix64(seed: 1), named: "jitter")
/// let store = Store(initialState: Search.State(), reducer: Search(fetch: api.search))
/// store.record(into: recorder)
/// ```
///
/// A store that records nothing pays nothing: its `send` checks one
/// optional. A recording store keeps each action (with its drop and time)
/// and, every ``checkpointInterval`` steps, a copy of the state; the states
/// between are rebuilt when ``recording`` is read, by running the store's
/// reducer — which is pure — from the checkpoint before them. So recording
/// does not copy the state on every step, which would cost a retain per
/// stored reference and keep a collection in the state from changing in
/// place. PerformanceGuide, "Recording", has the measured cost.
@MainActor
public final class Recorder<State, Action> {
    /// How many steps the buffer keeps; older ones are let go.
    public let capacity: Int

    /// How many steps apart the recorder copies the state.
    public static var checkpointInterval: Int { RecordingBuffer<State, Action>.checkpointInterval }

    /// The ring and the checkpoints; the store recording here appends to it directly.
    @usableFromInline let _buffer: RecordingBuffer<State, Action>
    /// The reducer of the store recording, to rebuild the states between checkpoints.
    private var reducer: ((inout State, Action) -> Effect<Action>)?
    /// Stops the store recording here, when another starts.
    private var detach: (() -> Void)?
    private let clock: LoadClock?

    /// A recorder that keeps the newest `capacity` steps (at least one) and
    /// as many readings, stamping each step with the time on `clock` when
    /// given one.
    public init(capacity: Int = 1_000, clock: LoadClock? = nil) {
        // At most a quarter of `Int.max`, so the ring's size cannot overflow.
        self.capacity = min(max(1, capacity), Int.max / 4)
        self.clock = clock
        self._buffer = RecordingBuffer(capacity: self.capacity, clock: clock)
    }

    /// What the buffer holds, as a value: the state before its oldest step,
    /// its steps, and the readings; `nil` until a store records into it.
    public var recording: Recording<State, Action>? {
        guard let reducer else { return nil }
        return _buffer.recording(reducer: reducer)
    }

    /// The number of steps recorded, counting those let go.
    public var stepCount: Int { _buffer._stepCount }

    // MARK: Watching what effects read

    /// A clock that reads `base` and notes each time it is read, for the
    /// effects of a recorded feature.
    public func watching<C: Clock>(_ base: C, named name: String) -> LoadClock where C.Duration == Duration {
        let clock = LoadClock(base)
        let log = readingLog()
        return LoadClock(
            elapsed: {
                let elapsed = clock.now.offset
                log.append(.time(elapsed), from: name)
                return elapsed
            },
            sleep: { try await base.sleep(for: $0) })
    }

    /// A random number generator that draws from `base` and notes each draw,
    /// for jitter (`Jitter.proportional(_:using:)`) and other effects.
    public func watching<G: RandomNumberGenerator & Sendable>(_ base: G, named name: String) -> WatchedGenerator<G> {
        WatchedGenerator(base: base, name: name, log: readingLog())
    }

    private func readingLog() -> ReadingLog {
        if let log = _buffer._readings { return log }
        // Made late, it counts the steps already recorded, so its readings
        // still say after which step they came.
        let log = ReadingLog(capacity: capacity, stepCount: stepCount)
        _buffer._readings = log
        return log
    }

    /// Writes `text` into the recording after the steps so far — something
    /// that happened outside the store, for whoever reads the recording.
    /// Noted before any store records here, it is kept, before the first
    /// step; a second store recording here starts afresh, without it.
    public func note(_ text: String) {
        readingLog().append(.note(text, time: clock?.now.offset), from: "note")
    }

    // MARK: Recording

    /// Starts the buffer at `state`, for a store running `reducer`; a
    /// second store recording into the same recorder starts it afresh.
    func begin(
        at state: State, reducer: @escaping (inout State, Action) -> Effect<Action>, detaching detach: @escaping () -> Void
    ) {
        // One store at a time: the one that recorded here before stops.
        self.detach?()
        self.detach = detach
        // Readings noted before the first store came (a note, a watched
        // clock read while the screen was built) belong before its first
        // step; those of a store recorded before belong to that store.
        _buffer.reset(at: state, keepingReadings: self.reducer == nil)
        self.reducer = reducer
    }
}

/// A random number generator that notes each draw in a recorder; made by
/// ``Recorder/watching(_:named:)-(G,_)``.
public struct WatchedGenerator<Base: RandomNumberGenerator & Sendable>: RandomNumberGenerator, Sendable {
    private var base: Base
    private let name: String
    private let log: ReadingLog

    init(base: Base, name: String, log: ReadingLog) {
        self.base = base
        self.name = name
        self.log = log
    }

    /// The next draw of the base generator, noted.
    public mutating func next() -> UInt64 {
        let value = base.next()
        log.append(.random(value), from: name)
        return value
    }
}

extension Store {
    /// Records every action this store processes from now on into
    /// `recorder`, starting from the current state. Called while the store
    /// processes an action — from a reader's change handler or a transition
    /// observer — it starts with the next action, from the state that action
    /// left. A recorder records one store at a time: recording another store
    /// into it starts it afresh, and this store stops. Readings noted before
    /// the first store records into the recorder are kept, before its first
    /// step.
    public func record(into recorder: Recorder<State, Action>) {
        // By identity and through the store's reference, not `weak`: a weak
        // reference to an object makes each of its retains and releases take
        // the slow path (5× the cost of a recorded send).
        let recorderID = ObjectIdentifier(recorder)
        recorder.begin(at: _currentState, reducer: _reducer) { [reference = _reference] in
            guard let store = reference._store, store._recorder.map(ObjectIdentifier.init) == recorderID else { return }
            store._recorder = nil
        }
        _recorder = recorder
    }

    /// Stops recording; what was recorded stays in the recorder. Stopped
    /// while the store processes an action (from an observer, say), the
    /// store keeps the recorder until it records or stops again, or goes:
    /// the step being recorded may still be using it.
    public func stopRecording() {
        _recorder = nil
    }
}
