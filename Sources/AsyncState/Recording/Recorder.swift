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
/// A store that records nothing pays nothing: its `send` checks one optional.
/// Recording costs a copy of the action and of the state per step (see the
/// PerformanceGuide for the measured cost). A state copy shares its storage,
/// but it also keeps the next in-place change of a collection in the state
/// from happening in place: that collection is copied once per step while
/// recorded.
@MainActor
public final class Recorder<State, Action> {
    /// How many steps the buffer keeps; older ones are let go.
    public let capacity: Int

    // The buffer: `_steps` grows to `capacity`, then `_oldest` walks round it.
    @usableFromInline var _steps: ContiguousArray<Recording<State, Action>.Step> = []
    @usableFromInline var _oldest = 0
    @usableFromInline var _discarded = 0
    /// The state before the oldest step kept.
    @usableFromInline var _windowStart: State?
    @usableFromInline let _clock: LoadClock?
    /// Made by the first `watching` call; until then a step counts nothing
    /// else (counting takes a lock, as effects may read off the main actor).
    @usableFromInline var _readings: ReadingLog?
    private let readingCapacity: Int

    /// A recorder that keeps the newest `capacity` steps (at least one) and
    /// as many readings, stamping each step with the time on `clock` when
    /// given one.
    public init(capacity: Int = 1_000, clock: LoadClock? = nil) {
        self.capacity = max(1, capacity)
        self._clock = clock
        self.readingCapacity = max(1, capacity)
    }

    /// What the buffer holds, as a value: the state before its oldest step,
    /// its steps, and the readings. Empty until a store records into it.
    public var recording: Recording<State, Action>? {
        guard let start = _windowStart else { return nil }
        let ordered = Array(_steps[_oldest...]) + Array(_steps[..<_oldest])
        return Recording(
            initialState: start, steps: ordered, readings: _readings?.current ?? [], discardedStepCount: _discarded)
    }

    /// The number of steps recorded, counting those let go.
    public var stepCount: Int { _discarded + _steps.count }

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

    /// Starts the buffer at `state`; a second store recording into the same
    /// recorder restarts it.
    @usableFromInline
    func begin(at state: State) {
        _steps.removeAll(keepingCapacity: true)
        _steps.reserveCapacity(capacity)
        _oldest = 0
        _discarded = 0
        _windowStart = state
        _readings?.reset()
    }

    /// Keeps one processed action.
    @inlinable
    func record(_ action: Action, isDropped: Bool, state: State) {
        let step = Recording<State, Action>.Step(action: action, isDropped: isDropped, state: state, time: _clock?.now.offset)
        _readings?.countStep()
        if _steps.count < capacity {
            _steps.append(step)
        } else {
            _windowStart = _steps[_oldest].state
            _steps[_oldest] = step
            _oldest = _oldest + 1 == capacity ? 0 : _oldest + 1
            _discarded += 1
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
    /// `recorder`, starting from the current state. Recording into a
    /// recorder another store used starts it afresh.
    public func record(into recorder: Recorder<State, Action>) {
        recorder.begin(at: _currentState)
        _recorder = recorder
    }

    /// Stops recording; what was recorded stays in the recorder.
    public func stopRecording() {
        _recorder = nil
    }
}
