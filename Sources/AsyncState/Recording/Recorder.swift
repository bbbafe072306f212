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
    public static var checkpointInterval: Int { 64 }

    /// One processed action, without its state (or its time, kept apart
    /// when there is a clock: a smaller entry is a third cheaper to store).
    @usableFromInline
    struct Entry {
        @usableFromInline var action: Action
        @usableFromInline var isDropped: Bool

        @inlinable
        init(action: Action, isDropped: Bool) {
            self.action = action
            self.isDropped = isDropped
        }
    }

    // A ring of the newest `capacity + checkpointInterval` entries, so the
    // checkpoint at or before the oldest kept step always has its steps in
    // it. Exclusivity checks off: the recorder is main-actor isolated and
    // `record` makes no overlapping access.
    @exclusivity(unchecked) @usableFromInline var _entries: ContiguousArray<Entry> = []
    /// Each entry's time on `_clock`, at the same place in its ring; empty without a clock.
    @exclusivity(unchecked) @usableFromInline var _times: ContiguousArray<Duration> = []
    /// Where the oldest entry is, once the ring is full.
    @exclusivity(unchecked) @usableFromInline var _oldest = 0
    /// The state after `step` steps, every `checkpointInterval` steps, oldest
    /// first (two arrays: an array of tuples looked up its tuple's metadata
    /// on every checkpoint).
    @exclusivity(unchecked) @usableFromInline var _checkpointSteps: [Int] = []
    @exclusivity(unchecked) @usableFromInline var _checkpointStates: [State] = []
    /// Steps recorded, counting those let go.
    @exclusivity(unchecked) @usableFromInline var _stepCount = 0
    /// The reducer of the store recording, to rebuild the states between checkpoints.
    @usableFromInline var _reducer: ((inout State, Action) -> Effect<Action>)?
    /// Stops the store recording here, when another starts.
    private var _detach: (() -> Void)?
    @usableFromInline let _clock: LoadClock?
    /// Made by the first `watching` call; until then a step counts nothing
    /// else (counting takes a lock, as effects may read off the main actor).
    @exclusivity(unchecked) @usableFromInline var _readings: ReadingLog?
    private let readingCapacity: Int

    /// A recorder that keeps the newest `capacity` steps (at least one) and
    /// as many readings, stamping each step with the time on `clock` when
    /// given one.
    public init(capacity: Int = 1_000, clock: LoadClock? = nil) {
        // At most a quarter of `Int.max`, so the ring's size cannot overflow.
        self.capacity = min(max(1, capacity), Int.max / 4)
        self._clock = clock
        self.readingCapacity = self.capacity
    }

    @usableFromInline var _ringSize: Int { capacity + Self.checkpointInterval }

    /// What the buffer holds, as a value: the state before its oldest step,
    /// its steps, and the readings; `nil` until a store records into it.
    public var recording: Recording<State, Action>? {
        guard let reducer = _reducer else { return nil }
        let firstKept = max(0, _stepCount - capacity)
        let firstInRing = _stepCount - _entries.count
        guard var checkpoint = _checkpointSteps.lastIndex(where: { $0 <= firstKept }) else { return nil }
        var state = _checkpointStates[checkpoint]
        var initialState = state
        var steps: [Recording<State, Action>.Step] = []
        steps.reserveCapacity(_stepCount - firstKept)
        for step in _checkpointSteps[checkpoint]..<_stepCount {
            let position = (_oldest + (step - firstInRing)) % _entries.count
            let entry = _entries[position]
            _ = reducer(&state, entry.action)
            // Take the copied state where there is one: the truth, should the
            // reducer not be as pure as it must.
            if checkpoint + 1 < _checkpointSteps.count, _checkpointSteps[checkpoint + 1] == step + 1 {
                checkpoint += 1
                state = _checkpointStates[checkpoint]
            }
            if step < firstKept {
                initialState = state
            } else {
                let time = _times.isEmpty ? nil : _times[position]
                steps.append(Recording.Step(action: entry.action, isDropped: entry.isDropped, state: state, time: time))
            }
        }
        // Readings of steps let go went with them.
        let readings = (_readings?.current ?? []).filter { $0.step >= firstKept }
        return Recording(initialState: initialState, steps: steps, readings: readings, discardedStepCount: firstKept)
    }

    /// The number of steps recorded, counting those let go.
    public var stepCount: Int { _stepCount }

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
        if let log = _readings { return log }
        // Made late, it counts the steps already recorded, so its readings
        // still say after which step they came.
        let log = ReadingLog(capacity: readingCapacity, stepCount: stepCount)
        _readings = log
        return log
    }

    /// Writes `text` into the recording after the steps so far — something
    /// that happened outside the store, for whoever reads the recording.
    public func note(_ text: String) {
        readingLog().append(.note(text, time: _clock?.now.offset), from: "note")
    }

    // MARK: Recording

    /// Starts the buffer at `state`, for a store running `reducer`; a
    /// second store recording into the same recorder starts it afresh.
    func begin(
        at state: State, reducer: @escaping (inout State, Action) -> Effect<Action>, detaching detach: @escaping () -> Void
    ) {
        // One store at a time: the one that recorded here before stops.
        _detach?()
        _detach = detach
        _entries.removeAll(keepingCapacity: true)
        // Reserved up to a bound: a large capacity is a limit, not an allocation.
        _entries.reserveCapacity(min(_ringSize, 4_096))
        _times.removeAll(keepingCapacity: true)
        if _clock != nil { _times.reserveCapacity(min(_ringSize, 4_096)) }
        _oldest = 0
        _stepCount = 0
        _checkpointSteps = [0]
        _checkpointStates = [state]
        _reducer = reducer
        _readings?.reset()
    }

    /// Keeps one processed action; `true` when the state after it is due
    /// for a checkpoint. The state is not passed in: reading a store's state
    /// into an argument copies it — a retain per stored reference — on every
    /// step, when only one in `checkpointInterval` needs it.
    @inlinable
    func record(_ action: Action, isDropped: Bool) -> Bool {
        let entry = Entry(action: action, isDropped: isDropped)
        _stepCount &+= 1
        if let readings = _readings { readings.countStep() }
        if _entries.count < _ringSize {
            _entries.append(entry)
            if let clock = _clock { _times.append(clock.now.offset) }
        } else {
            _entries[_oldest] = entry
            if let clock = _clock { _times[_oldest] = clock.now.offset }
            _oldest = _oldest + 1 == _entries.count ? 0 : _oldest + 1
        }
        return _stepCount % Self.checkpointInterval == 0
    }

    /// Copies the state, letting go of checkpoints no kept step needs.
    @inlinable
    func checkpoint(_ state: State) {
        _checkpointSteps.append(_stepCount)
        _checkpointStates.append(state)
        let firstKept = _stepCount - capacity
        if _checkpointSteps.count > 1, _checkpointSteps[1] <= firstKept {
            _checkpointSteps.removeFirst()
            _checkpointStates.removeFirst()
        }
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
    /// `recorder`, starting from the current state. A recorder records one
    /// store at a time: recording another store into it starts it afresh,
    /// and this store stops.
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

    /// Stops recording; what was recorded stays in the recorder.
    public func stopRecording() {
        _recorder = nil
    }
}
