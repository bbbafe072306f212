/// What a store processed, step by step: each action, whether it was dropped
/// as stale, the state after it — and what its effects read from the clocks
/// and random sources a ``Recorder`` watched.
///
/// Every load result reaches a store as an action tagged with its load's ID,
/// and reducers are pure, so these steps describe a run completely: replaying
/// the actions through the feature's reducer from ``initialState`` gives the
/// same states again (`AsyncStateTesting`'s `assertReplay`). Readings are not
/// needed for that — a reading that matters to the state arrives in an
/// action, as `.at(instant, …)` does — they say why an effect waited as long
/// as it did.
///
/// ```swift
/// let recorder = Recorder<Search.State, Search.Action>()
/// let store = Store(initialState: Search.State(), reducer: Search(fetch: api.search))
/// store.record(into: recorder)
/// store.send(.typed("swift"))
/// let recording = recorder.recording   // initialState, steps, readings
/// ```
public struct Recording<State, Action> {
    /// One processed action.
    public struct Step {
        /// The action the store processed.
        public var action: Action
        /// Whether the store dropped it as stale.
        public var isDropped: Bool
        /// The store's state right after it.
        public var state: State
        /// When it was processed, on the recorder's clock; `nil` without one.
        public var time: Duration?

        /// A step, as a recorder or a decoder makes it.
        // Inlinable, so a recording store builds its step specialized: a
        // call across the module copied the state through value witnesses.
        @inlinable
        public init(action: Action, isDropped: Bool, state: State, time: Duration? = nil) {
            self.action = action
            self.isDropped = isDropped
            self.state = state
            self.time = time
        }
    }

    /// The state before the first step.
    public var initialState: State
    /// The steps, oldest first.
    public var steps: [Step]
    /// What effects read from the clocks and random sources a recorder
    /// watched, in the order they read it.
    public var readings: [RecordedReading]
    /// How many older steps the recorder's buffer let go before the first of
    /// ``steps``; ``initialState`` is the state after the last of them.
    public var discardedStepCount: Int

    /// A recording of `steps` from `initialState`.
    public init(initialState: State, steps: [Step], readings: [RecordedReading] = [], discardedStepCount: Int = 0) {
        self.initialState = initialState
        self.steps = steps
        self.readings = readings
        self.discardedStepCount = discardedStepCount
    }

    /// The recorded actions, in order.
    public var actions: [Action] { steps.map(\.action) }
}

extension Recording: Sendable where State: Sendable, Action: Sendable {}
extension Recording.Step: Sendable where State: Sendable, Action: Sendable {}
extension Recording: Equatable where State: Equatable, Action: Equatable {}
extension Recording.Step: Equatable where State: Equatable, Action: Equatable {}

/// One value an effect read from a clock or random source that a
/// ``Recorder`` watched.
public struct RecordedReading: Hashable, Sendable {
    /// What was read.
    public enum Value: Hashable, Sendable {
        /// The time on a clock, since the recorder began watching it.
        case time(Duration)
        /// A draw from a random number generator.
        case random(UInt64)
        /// A line the app wrote with ``Recorder/note(_:)`` — something that
        /// happened outside the store, such as the network going down — and
        /// the time on the recorder's clock then.
        case note(String, time: Duration?)
    }

    /// How many steps had been recorded when the effect read it (counting
    /// the steps the buffer let go).
    public var step: Int
    /// The name the clock or generator was given when the recorder began
    /// watching it.
    public var source: String
    /// What was read.
    public var value: Value

    /// A reading of `value` from `source` after `step` steps.
    public init(step: Int, source: String, value: Value) {
        self.step = step
        self.source = source
        self.value = value
    }
}

extension Recording {
    /// The steps `reducer` takes through `actions` from `initialState` —
    /// each action's state and whether it was dropped — with no effects run:
    /// what a replay compares with a recording. `times` stamps the steps when
    /// given, one per action.
    public init<R: Reducer>(replaying actions: [Action], from initialState: State, through reducer: R, times: [Duration?]? = nil)
    where R.State == State, R.Action == Action {
        var state = initialState
        var steps: [Step] = []
        steps.reserveCapacity(actions.count)
        for (index, action) in actions.enumerated() {
            let effect = reducer.reduce(into: &state, action: action)
            let time = times.flatMap { index < $0.count ? $0[index] : nil }
            steps.append(Step(action: action, isDropped: effect._isDropped, state: state, time: time))
        }
        self.init(initialState: initialState, steps: steps)
    }
}
