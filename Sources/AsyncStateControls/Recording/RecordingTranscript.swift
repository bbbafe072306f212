import AsyncState

/// What a recording says, with each state as the fields it prints: the form
/// a recording file holds, and what a replay checks a reducer against.
///
/// A transcript needs no `Codable` state: each step keeps the fields that
/// changed (`path: text`, as logs print them), so a replay that diverges
/// names those fields. Make one from a `Recording` with
/// ``init(_:)`` or read one from a file with ``init(jsonLines:editTypes:)``.
public struct RecordingTranscript<Action> {
    /// One processed action, with the state after it as printed fields.
    public struct Step {
        /// The action the store processed.
        public var action: Action
        /// Whether the store dropped it as stale.
        public var isDropped: Bool
        /// When it was processed, on the recorder's clock.
        public var time: Duration?
        var fields: FieldLeaves
    }

    /// The steps, oldest first.
    public var steps: [Step]
    /// What effects read from watched clocks and generators.
    public var readings: [RecordedReading]
    /// How many older steps the recorder let go before the first kept.
    public var discardedStepCount: Int
    var initialFields: FieldLeaves

    /// The transcript of `recording`.
    public init<State>(_ recording: Recording<State, Action>) {
        initialFields = FieldLeaves(recording.initialState)
        steps = recording.steps.map { Step(action: $0.action, isDropped: $0.isDropped, time: $0.time, fields: FieldLeaves($0.state)) }
        readings = recording.readings
        discardedStepCount = recording.discardedStepCount
    }

    init(initialFields: FieldLeaves, steps: [Step], readings: [RecordedReading], discardedStepCount: Int) {
        self.initialFields = initialFields
        self.steps = steps
        self.readings = readings
        self.discardedStepCount = discardedStepCount
    }

    /// The recorded actions, in order.
    public var actions: [Action] { steps.map(\.action) }

    /// Replays the actions through `reducer` from `initialState` and returns
    /// the recording that gives, or the first step where it differs from
    /// this transcript: a state that prints differently, or an action dropped
    /// on one side only. `initialState` must print as the recording's first
    /// state did (step 0 otherwise).
    public func replay<R: Reducer>(from initialState: R.State, through reducer: R) throws(ReplayDivergence) -> Recording<
        R.State, Action
    > where R.Action == Action {
        let start = FieldLeaves(initialState)
        if start != initialFields {
            throw ReplayDivergence(
                step: 0, action: nil,
                reason: .state(fieldChanges: start.changes(from: initialFields)), discardedStepCount: discardedStepCount)
        }
        let replayed = Recording(replaying: actions, from: initialState, through: reducer, times: steps.map(\.time))
        for (index, (recorded, step)) in zip(steps, replayed.steps).enumerated() {
            if recorded.isDropped != step.isDropped {
                throw ReplayDivergence(
                    step: index + 1, action: ValueDump.renderOneLine(step.action), reason: .dropped(whenRecorded: recorded.isDropped),
                    discardedStepCount: discardedStepCount)
            }
            let fields = FieldLeaves(step.state)
            if fields != recorded.fields {
                throw ReplayDivergence(
                    step: index + 1, action: ValueDump.renderOneLine(step.action),
                    reason: .state(fieldChanges: fields.changes(from: recorded.fields)), discardedStepCount: discardedStepCount)
            }
        }
        return replayed
    }
}

extension RecordingTranscript: Sendable where Action: Sendable {}
extension RecordingTranscript.Step: Sendable where Action: Sendable {}

/// Where a replay stopped matching its recording.
public struct ReplayDivergence: Error, Equatable, CustomStringConvertible {
    /// What differed.
    public enum Reason: Equatable, Sendable {
        /// The state after the step prints differently: each line is a field,
        /// `path: recorded → replayed`.
        case state(fieldChanges: [String])
        /// The step was dropped as stale on one side only.
        case dropped(whenRecorded: Bool)
    }

    /// The step that diverged, from 1; 0 for the state the replay began from.
    public var step: Int
    /// The step's action as logs print it; `nil` for step 0.
    public var action: String?
    /// What differed.
    public var reason: Reason
    /// How many steps the recording had let go before its first.
    var discardedStepCount: Int

    /// A message naming the step, its action and the fields that differ.
    public var description: String {
        switch reason {
        case .state(let changes) where step == 0:
            let hint =
                discardedStepCount > 0
                ? " The recording let go of its first \(discardedStepCount) steps: replay from the state it kept, or record with a larger capacity."
                : ""
            return "The replay begins from a state other than the recording's (recorded → given):\n"
                + changes.map { "  " + $0 }.joined(separator: "\n") + hint
        case .state(let changes):
            return "The replay diverged at step \(step), \(action ?? ""): the state differs from the recorded one (recorded → replayed):\n"
                + changes.map { "  " + $0 }.joined(separator: "\n")
        case .dropped(let whenRecorded):
            return "The replay diverged at step \(step), \(action ?? ""): "
                + (whenRecorded
                    ? "it was dropped as stale when recorded, but applied on replay."
                    : "it was applied when recorded, but dropped as stale on replay.")
        }
    }
}
