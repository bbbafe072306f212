/// What a ``Recorder`` keeps: a ring of the newest processed actions (with
/// their drops and, given a clock, their times) and a copy of the state
/// every `checkpointInterval` steps.
///
/// Not isolated to an actor, unlike the recorder that owns it, so a store
/// appends to it at +0 through `Unmanaged` (``append(_:isDropped:to:)``): a
/// main-actor method called there is checked for its executor at run time,
/// and a strong reference read from the store is retained and released —
/// together two thirds of a recorded step. It is not `Sendable`: the
/// recorder and the store recording into it use it on the main actor only.
@usableFromInline
final class RecordingBuffer<State, Action> {
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

    /// How many steps apart the state is copied.
    @usableFromInline static var checkpointInterval: Int { 64 }

    /// How many steps are kept; older ones are let go.
    @usableFromInline let _capacity: Int
    @usableFromInline let _clock: LoadClock?

    // A ring of the newest `capacity + checkpointInterval` entries, so the
    // checkpoint at or before the oldest kept step always has its steps in
    // it: the first `_entryCount` of `_allocatedCount` places are
    // initialized. Memory of its own, not an array: writing an array's
    // element checks that its buffer is unique and in bounds, a tenth of a
    // recorded step. Exclusivity checks off here and below: each access is
    // one read or write, and none overlaps another (`append` runs no other
    // code until its last step, where an overwritten action is destroyed).
    @exclusivity(unchecked) @usableFromInline var _entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) @usableFromInline var _entryCount = 0
    @exclusivity(unchecked) @usableFromInline var _allocatedCount: Int
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
    /// Set by the recorder's first `watching` call; until then a step tells
    /// it nothing (effects may read off the main actor, so it is told through
    /// an atomic or a lock).
    @usableFromInline var _readings: ReadingLog? {
        didSet { _unretainedReadings = _readings.map(Unmanaged.passUnretained) }
    }
    /// `_readings` at +0, told of every step without a retain and release.
    /// Safe: set only with `_readings`, which holds the same log strongly.
    @exclusivity(unchecked) @usableFromInline var _unretainedReadings: Unmanaged<ReadingLog>?

    init(capacity: Int, clock: LoadClock?) {
        _capacity = capacity
        _clock = clock
        // Grown up to the ring's size as steps come: a large capacity is a
        // limit, not an allocation.
        _allocatedCount = min(capacity + Self.checkpointInterval, 256)
        _entries = .allocate(capacity: _allocatedCount)
    }

    deinit {
        _entries.deinitialize(count: _entryCount)
        _entries.deallocate()
    }

    /// Makes room for more entries, doubling up to the ring's size.
    @usableFromInline
    func grow() {
        let count = min(_ringSize, 2 * _allocatedCount)
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: count)
        entries.moveInitialize(from: _entries, count: _entryCount)
        _entries.deallocate()
        _entries = entries
        _allocatedCount = count
    }

    @usableFromInline var _ringSize: Int { _capacity + Self.checkpointInterval }

    /// Empties the ring and starts it at `state`.
    func reset(at state: State, keepingReadings: Bool) {
        _entries.deinitialize(count: _entryCount)
        _entryCount = 0
        _times.removeAll(keepingCapacity: true)
        if _clock != nil { _times.reserveCapacity(min(_ringSize, 4_096)) }
        _oldest = 0
        _stepCount = 0
        _checkpointSteps = [0]
        _checkpointStates = [state]
        if !keepingReadings { _readings?.reset() }
    }

    /// Keeps one processed action in the buffer `buffer` refers to; `true`
    /// when the state after it is due for a checkpoint. A static method on
    /// an unmanaged reference, so the call costs no retain, and the closure
    /// it passes is not isolated, so it costs no executor check.
    @inlinable @inline(__always)
    static func append(_ action: Action, isDropped: Bool, to buffer: Unmanaged<RecordingBuffer>) -> Bool {
        buffer._withUnsafeGuaranteedRef { $0.append(action, isDropped: isDropped) }
    }

    /// Keeps one processed action; `true` when the state after it is due
    /// for a checkpoint. The state is not passed in: reading a store's state
    /// into an argument copies it — a retain per stored reference — on every
    /// step, when only one in `checkpointInterval` needs it.
    @inlinable @inline(__always)
    func append(_ action: Action, isDropped: Bool) -> Bool {
        let entry = Entry(action: action, isDropped: isDropped)
        _stepCount &+= 1
        if let readings = _unretainedReadings {
            readings._withUnsafeGuaranteedRef { $0.publish(stepCount: _stepCount) }
        }
        if _entryCount < _ringSize {
            if _entryCount == _allocatedCount { grow() }
            (_entries + _entryCount).initialize(to: entry)
            _entryCount &+= 1
            if let clock = _clock { _times.append(clock.now.offset) }
        } else {
            // In bounds: `_oldest` stays below `_entryCount`, all initialized.
            let position = _oldest
            if let clock = _clock { _times[position] = clock.now.offset }
            _oldest = position &+ 1 == _entryCount ? 0 : position &+ 1
            // Written last: the overwritten action's deinit may run any code
            // — stop this recording, or start another into this recorder —
            // and nothing here touches the ring after it.
            _entries[position] = entry
            return _stepCount % Self.checkpointInterval == 0
        }
        return _stepCount % Self.checkpointInterval == 0
    }

    /// Copies the state, letting go of checkpoints no kept step needs.
    @inlinable
    func checkpoint(_ state: State) {
        // Started afresh during the step (by an action's deinit): the
        // checkpoint at step 0 is the new start's.
        guard _stepCount > 0 else { return }
        _checkpointSteps.append(_stepCount)
        _checkpointStates.append(state)
        // Let go in batches, once twice as many as needed are kept: removing
        // the first of them moves all the others, every time (a tenth of a
        // recorded step, one at a time).
        let neededCount = _capacity / Self.checkpointInterval + 2
        guard _checkpointSteps.count >= 2 * neededCount else { return }
        let firstKept = _stepCount - _capacity
        let firstNeeded = _checkpointSteps.lastIndex(where: { $0 <= firstKept }) ?? 0
        _checkpointSteps.removeFirst(firstNeeded)
        _checkpointStates.removeFirst(firstNeeded)
    }

    /// The kept steps as a recording, each state rebuilt by `reducer` from
    /// the checkpoint before it; `nil` when no checkpoint covers them.
    func recording(reducer: (inout State, Action) -> Effect<Action>) -> Recording<State, Action>? {
        let firstKept = max(0, _stepCount - _capacity)
        let firstInRing = _stepCount - _entryCount
        guard var checkpoint = _checkpointSteps.lastIndex(where: { $0 <= firstKept }) else { return nil }
        var state = _checkpointStates[checkpoint]
        var initialState = state
        var steps: [Recording<State, Action>.Step] = []
        steps.reserveCapacity(_stepCount - firstKept)
        for step in _checkpointSteps[checkpoint]..<_stepCount {
            let position = (_oldest + (step - firstInRing)) % _entryCount
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
}
