import AsyncState

/// Runs `script` against the feature `makeReducer` builds, once for every
/// order in which its operations' answers (and the script's actions, and
/// the deadlines of `operations.clock`) can arrive, and checks every
/// state on the way: the kit's promises — no stale result wins, nothing
/// stuck loading, no confirmed edit lost, no invalidation lost, cancellation
/// is never failure — and `invariants`.
///
/// ```swift
/// let report = await explore(Search.State(), script: [.typed("s"), .typed("sw")]) { operations in
///     Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
/// }
/// // report.orderingCount == 3, report.failure == nil
/// ```
///
/// Each ordering runs a fresh store from `initialState`, made by calling
/// `makeReducer` with fresh ``ControlledOperations``, and records it. At each
/// moment the explorer lists what could happen next — send the script's
/// next action, answer any waiting call, move the operations' clock to its
/// next deadline —
/// and the search tries each in turn (depth first, re-running the prefix:
/// effects cannot be forked). The first ordering that breaks an invariant
/// ends the search; the report holds its recording and that recording
/// minimized (`Recording.minimized(through:maximumReplays:whileFailing:)`),
/// which replays.
///
/// - Parameters:
///   - initialState: where every ordering starts.
///   - script: the user's actions, sent in this order, each at every moment
///     it could come.
///   - invariants: properties of your own every state must have.
///   - maximumOrderings: a bound: an exploration that would go past it stops
///     there and reports ``ExplorationReport/isComplete`` false, which
///     `assertExploration` fails. Zero or less explores no ordering.
///   - maximumSteps: a bound on the choices one ordering makes, for a
///     feature that never settles (a poll without end).
///   - makeReducer: builds the feature, given operations the explorer answers.
@MainActor
public func explore<R: Reducer>(
    _ initialState: R.State,
    script: [R.Action],
    invariants: [Invariant<R.State>] = [],
    maximumOrderings: Int = 10_000,
    maximumSteps: Int = 1_000,
    feature makeReducer: (ControlledOperations) -> R
) async -> ExplorationReport<R.State, R.Action> {
    var report = ExplorationReport<R.State, R.Action>()
    report.promises = KitInvariant.allCases.map(\.rawValue) + invariants.map(\.name)
    var path: [(choice: Int, of: Int)] = []
    while true {
        if report.orderingCount >= maximumOrderings {
            report.isComplete = false
            return report
        }
        let run = OrderingRun(
            initialState: initialState, script: script, invariants: invariants, maximumSteps: maximumSteps, reducer: makeReducer)
        let outcome = await run.play(following: path)
        report.orderingCount += 1
        report.stepCount += outcome.path.count
        if let problem = outcome.problem {
            let recording = run.recording
            report.failure = ExplorationFailure(
                invariant: problem.invariant, message: problem.message, ordering: outcome.choices.map(\.description),
                recording: recording, minimized: minimize(recording, reducer: run.reducer, invariants: invariants, breaking: problem))
            return report
        }
        // The next ordering: the deepest choice with an untried sibling.
        path = outcome.path
        while let last = path.last, last.choice + 1 >= last.of { path.removeLast() }
        guard let last = path.popLast() else { return report }
        path.append((last.choice + 1, last.of))
    }
}

/// The smallest recording that still breaks the invariant `problem` names.
@MainActor
private func minimize<R: Reducer>(
    _ recording: Recording<R.State, R.Action>, reducer: R, invariants: [Invariant<R.State>], breaking problem: OrderingRun<R>.Problem
) -> Recording<R.State, R.Action> {
    guard problem.isReplayable else { return recording }
    return recording.minimized(through: reducer) { candidate in
        firstBroken(in: candidate, invariants: invariants, checkingEnd: problem.invariant == KitInvariant.nothingStuckLoading.rawValue)?
            .invariant == problem.invariant
    }
}

/// The first invariant `recording` breaks, replayed step by step.
package func firstBroken<State, Action>(
    in recording: Recording<State, Action>, invariants: [Invariant<State>], checkingEnd: Bool
) -> (invariant: String, message: String)? {
    var before = recording.initialState
    if let broken = brokenAtStart(before, invariants) { return broken }
    for step in recording.steps {
        if let broken = brokenPromise(before: before, action: step.action, isDropped: step.isDropped, after: step.state, invariants) {
            return broken
        }
        before = step.state
    }
    if checkingEnd, let (kit, message) = KitInvariant.checkEnd(before) { return (kit.rawValue, message) }
    return nil
}

/// The first of `invariants` that the initial state of an exploration or a
/// replay already breaks, with why.
func brokenAtStart<State>(_ initialState: State, _ invariants: [Invariant<State>]) -> (invariant: String, message: String)? {
    guard let broken = invariants.first(where: { !$0.holds(initialState) }) else { return nil }
    return (broken.name, "the initial state breaks it")
}

/// The first promise one step breaks — the kit's, then `invariants` — with why;
/// the one check of an exploration's steps and of a replay's.
func brokenPromise<State, Action>(
    before: State, action: Action, isDropped: Bool, after: State, _ invariants: [Invariant<State>]
) -> (invariant: String, message: String)? {
    if let (kit, message) = KitInvariant.check(before: before, action: action, isDropped: isDropped, after: after) {
        return (kit.rawValue, message)
    }
    if let broken = invariants.first(where: { !$0.holds(after) }) {
        return (broken.name, "the state after \(ValueDump.renderOneLine(action)) breaks it")
    }
    return nil
}

/// What an exploration found.
public struct ExplorationReport<State, Action> {
    /// How many orderings ran, the failing one included.
    public internal(set) var orderingCount = 0
    /// How many choices they made in all.
    public internal(set) var stepCount = 0
    /// Whether every ordering ran: `false` when the bound stopped the search.
    public internal(set) var isComplete = true
    /// What was checked: the kit's promises ("no stale result wins", …;
    /// "nothing stuck loading" at the end of each ordering, the others on
    /// every step), then your invariants' names.
    public internal(set) var promises: [String] = []
    /// The first ordering that broke an invariant, or `nil`.
    public internal(set) var failure: ExplorationFailure<State, Action>?
}

/// An ordering that broke an invariant.
public struct ExplorationFailure<State, Action> {
    /// The invariant's name: one of the kit's, or one of yours.
    public var invariant: String
    /// What happened, in words.
    public var message: String
    /// The choices of the ordering, in order: `send(.refresh)`,
    /// `answer fetch #0`, `advance the clock to 0.3 seconds`.
    public var ordering: [String]
    /// What the store processed in that ordering.
    public var recording: Recording<State, Action>
    /// ``recording`` shrunk to a smallest sequence of actions that still
    /// breaks the invariant when replayed.
    public var minimized: Recording<State, Action>
}

/// One ordering: a fresh store, driven choice by choice.
@MainActor
final class OrderingRun<R: Reducer> {
    struct Problem {
        var invariant: String
        var message: String
        /// Whether a replay of the recording shows it (every invariant
        /// checked on states is; "an effect waits on something else" is not).
        var isReplayable = true
    }

    /// What one ordering did. Its choices are named, and its recording
    /// rebuilt, only for a report (``recording``): most orderings pass.
    struct Outcome {
        var path: [(choice: Int, of: Int)]
        var choices: [Choice]
        var problem: Problem?
    }

    enum Choice: CustomStringConvertible {
        case send(R.Action)
        case answer(Int, CallBoard.Call)
        case advance(TestClock.Instant)

        var description: String {
            switch self {
            case .send(let action): "send(\(ValueDump.renderOneLine(action)))"
            case .answer(_, let call): "answer \(call.name) #\(call.number)" + (call.input.map { " (\($0))" } ?? "")
            case .advance(let deadline): "advance the clock to \(deadline)"
            }
        }
    }

    let reducer: R
    private let operations = ControlledOperations()
    private let store: Store<R.State, R.Action>
    private let recorder: Recorder<R.State, R.Action>
    private let script: [R.Action]
    private var clock: TestClock { operations.clock }
    private let invariants: [Invariant<R.State>]
    private let maximumSteps: Int
    private var problem: Problem?
    private var previous: R.State

    init(
        initialState: R.State, script: [R.Action], invariants: [Invariant<R.State>], maximumSteps: Int,
        reducer makeReducer: (ControlledOperations) -> R
    ) {
        reducer = makeReducer(operations)
        store = Store(initialState: initialState, reducer: reducer)
        // Unbounded in practice (one choice may process many actions), and
        // allocated only as steps come: a minimization must start at the start.
        recorder = Recorder(capacity: .max)
        self.script = script
        self.invariants = invariants
        self.maximumSteps = maximumSteps
        previous = initialState
        if let broken = brokenAtStart(initialState, invariants) {
            problem = Problem(invariant: broken.invariant, message: broken.message)
        }
        store.record(into: recorder)
        store.observeTransitions { [weak self] in self?.check($0) }
    }

    private func check(_ transition: Transition<R.State, R.Action>) {
        defer { previous = transition.state }
        guard problem == nil,
            let broken = brokenPromise(
                before: previous, action: transition.action, isDropped: transition.isDropped, after: transition.state, invariants)
        else { return }
        problem = Problem(invariant: broken.invariant, message: broken.message)
    }

    /// Plays the choices of `prefix`, then the first choice at each later
    /// moment, to the end — even past a problem, so no call is left waiting.
    func play(following prefix: [(choice: Int, of: Int)]) async -> Outcome {
        var path: [(choice: Int, of: Int)] = []
        var taken: [Choice] = []
        var scriptIndex = 0
        while true {
            guard await settle() else {
                problem =
                    problem
                    ?? Problem(
                        invariant: KitInvariant.nothingStuckLoading.rawValue,
                        message: "an effect waits on something the explorer does not control (real time, a gate, a network)",
                        isReplayable: false)
                break
            }
            var choices: [Choice] = []
            if scriptIndex < script.count { choices.append(.send(script[scriptIndex])) }
            for (index, call) in operations.board.waiting.enumerated() { choices.append(.answer(index, call)) }
            if let deadline = clock.nextDeadline { choices.append(.advance(deadline)) }
            guard !choices.isEmpty else { break }
            guard path.count < maximumSteps else {
                problem =
                    problem
                    ?? Problem(
                        invariant: KitInvariant.nothingStuckLoading.rawValue,
                        message: "the ordering made \(maximumSteps) choices without settling", isReplayable: false)
                break
            }
            let depth = path.count
            let choice = depth < prefix.count && prefix[depth].of == choices.count ? prefix[depth].choice : 0
            if depth < prefix.count, prefix[depth].of != choices.count, problem == nil {
                problem = Problem(
                    invariant: "the feature runs the same way every time",
                    message: "replaying an ordering offered \(choices.count) choices where it offered \(prefix[depth].of): "
                        + "an effect depends on something other than the explorer's answers and clock",
                    isReplayable: false)
            }
            path.append((choice, choices.count))
            taken.append(choices[choice])
            switch choices[choice] {
            case .send(let action):
                scriptIndex += 1
                store.send(action)
            case .answer(let index, _):
                _ = operations.board.answer(index)
            case .advance(let deadline):
                clock.advance(to: deadline)
            }
        }
        if problem == nil, store.runningEffectCount == 0, let (kit, message) = KitInvariant.checkEnd(store.state) {
            problem = Problem(invariant: kit.rawValue, message: message)
        }
        // Over: every call answers now, and every later one at once, so no
        // effect of this ordering stays suspended once the store is let go.
        operations.board.close()
        return Outcome(path: path, choices: taken, problem: problem)
    }

    /// What the store processed in the ordering played.
    var recording: Recording<R.State, R.Action> {
        recorder.recording ?? Recording(initialState: store.state, steps: [])
    }

    /// Lets effects run until each is waiting for an answer, asleep on the
    /// clock, or waiting for another effect; `false` if that never happens.
    /// One quiet round is enough, where `waitUntilIdle` asks for eight: the
    /// test is exact here — an effect counts as running from the moment a
    /// choice starts or wakes it until it waits on a call, the clock or
    /// another effect again, and the explorer controls all three — so the
    /// extra rounds only guarded against work it cannot see (a quarter of
    /// the cost of an ordering).
    private func settle() async -> Bool {
        await yieldUntilSettled(quietRounds: 1, maximumRounds: 100_000, fingerprint: fingerprint) {
            operations.board.waiting.count + clock.sleeperCount + store.waitingEffectCount >= store.runningEffectCount
        }
    }

    private func fingerprint() -> [Int] {
        [operations.board.waiting.count, clock.sleeperCount, store.runningEffectCount, store.waitingEffectCount, recorder.stepCount]
    }
}
