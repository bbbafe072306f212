import AsyncState

/// Runs a feature like `Store` does, and checks every step a test asserts:
/// the state after each action, each action an effect sends back, and that
/// nothing is left running at the end.
///
/// ```swift
/// @Test @MainActor func refresh() async {
///     let gate = Gate<Profile>()
///     let store = TestStore(initialState: Feature.State(), reducer: Feature(fetch: { try await gate.wait() }))
///     store.send(.refresh)
///     await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(1)) }
///     gate.open(with: .lee)
///     await store.receive(.profile(.finished(LoadID(1), .lee))) {
///         $0.profile = Loadable(expecting: .success(value: .lee), newestID: LoadID(1))
///     }
///     await store.finish()
/// }
/// ```
///
/// Load IDs start at `#1` in every test store, so expectations stay stable.
/// Failures go to Swift Testing or XCTest, whichever runs the test, and show
/// a field diff of the expected and actual state. What a `Store` reports
/// through `onIssue` — an effect that throws an error nothing handled, a
/// reducer that calls `send` — fails the test too.
@MainActor
public final class TestStore<State: Equatable, Action> {
    /// How strictly this store checks; ``Exhaustivity/on`` by default.
    public var exhaustivity: Exhaustivity = .on {
        didSet { ledger.counts.withLock { $0.isExhaustive = exhaustivity == .on } }
    }

    /// How long ``receive(_:assert:timeout:fileID:filePath:line:column:)`` and ``finish(timeout:fileID:filePath:line:column:)``
    /// wait for an effect before failing; 5 seconds by default. Tests drive
    /// effects with gates and test clocks, so this bound is only reached when
    /// something is wrong.
    ///
    /// The time is counted in short ticks that queue on the cooperative pool
    /// and the main actor as an effect's work does, not on the wall clock: on
    /// an idle machine a wait lasts `timeout`, and when other tests running in
    /// parallel keep those queues busy it stretches with them instead of
    /// failing a correct test.
    public var timeout: Duration = .seconds(5)

    /// The state as of the last asserted action.
    public private(set) var state: State

    private let store: Store<State, Action>
    private var pending: [Transition<State, Action>] = [] {
        didSet { ledger.counts.withLock { $0.unasserted = pending.count } }
    }
    private var arrival: CheckedContinuation<Bool, Never>?
    private let location: TestLocation
    /// Where the test's latest step — a send, a receive, `finish` — was
    /// written: what the store reports meanwhile (an effect's error nothing
    /// handled) is reported there, nearer its cause than where the test
    /// store was made.
    private var stepLocation: TestLocation?

    private let ledger = EndOfTestLedger()

    /// Which action started each effect, to name it in a failure.
    private let origins = EffectOrigins<Action>()

    /// Creates a test store that runs `reducer` from `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: the feature's state before the first action, which
    ///     is also the state the first assertion starts from.
    ///   - reducer: the feature under test, run by a real `Store`.
    ///   - checksPurity: runs the reducer twice for every action, from
    ///     equal states, and fails the test when the two runs leave different
    ///     states — catching a reducer that reads a clock, a random number or
    ///     shared mutable state. Off by default, because an impure reducer's
    ///     outside effects then happen twice.
    ///   - firstLoadID: the ID the first load gets; pass the next one after
    ///     the loads an `initialState` already records (its `newestID`s).
    ///   - fileID: where the test store was created, for failures found when it
    ///     is released; the caller's by default.
    ///   - filePath: the same place, as a path.
    ///   - line: the same place's line.
    ///   - column: the same place's column.
    public init<R: Reducer>(
        initialState: State,
        reducer: R,
        checksPurity: Bool = false,
        firstLoadID: LoadID = LoadID(1),
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where R.State == State, R.Action == Action {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.state = initialState
        self.location = location
        if let problem = LoadID.problem(ofFirst: firstLoadID) { reportFailure(problem, at: location) }
        if checksPurity {
            let checked = PurityCheckedReducer(base: reducer) { reportFailure($0, at: location) }
            self.store = Store(initialState: initialState, reducer: checked, firstLoadID: firstLoadID)
        } else {
            self.store = Store(initialState: initialState, reducer: reducer, firstLoadID: firstLoadID)
        }
        store.observeTransitions { [weak self] transition in
            guard let self else { return }
            origins.noteScheduling(by: transition.action, firstToken: store.nextEffectToken) { self.store.liveEffectTokens }
            pending.append(transition)
            resumeArrival(true)
        }
        // What a store reports as misuse — an effect's error nothing
        // handled, a reducer that sends — fails the test, where a plain
        // store prints it.
        store.onIssue = { [weak self] in reportFailure($0, at: self?.stepLocation ?? location) }
        store._onRunningEffectsChange = { [ledger, origins] change in
            ledger.counts.withLock { $0.runningEffects = change.count }
            origins.noteRunning(change)
        }
        store._effectOrigin = { [weak self] token, partOf in
            guard let self, let action = origins.action(of: token, partOf: partOf) else { return nil }
            return describe(action)
        }
    }

    // Not an `isolated deinit`: that runs without task-local values, so Swift
    // Testing could not tell which test a failure belongs to. A plain deinit
    // runs inline where the test drops its last reference, and reads only the
    // lock-protected ledger.
    deinit {
        let ledger = ledger.counts.withLock { $0 }
        guard !ledger.isFinished, ledger.isExhaustive else { return }
        for message in Self.endFailures(unasserted: ledger.unasserted, running: ledger.runningEffects, names: nil) {
            reportFailure(message + " (found when the test store was released; call `await store.finish()` for details)", at: location)
        }
    }

    /// How the underlying store starts effects — for tests that check the
    /// same behaviour on both paths.
    /// The store this test store drives, for tests of what it tells observers.
    package var underlyingStore: Store<State, Action> { store }

    package var effectStart: EffectStart {
        get { store._effectStart }
        set { store._effectStart = newValue }
    }

    /// Effects still running in the underlying store.
    public var runningEffectCount: Int { store.runningEffectCount }

    /// Sends `action`, then checks that the state changed exactly as
    /// `updateExpected` describes (no closure: the state must not change).
    ///
    /// - Returns: the task of the effects the action started.
    @discardableResult
    public func send(
        _ action: Action,
        assert updateExpected: ((inout State) -> Void)? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> StoreTask {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        stepLocation = location
        // A test that goes on after `finish()` is checked again when the
        // store is released: what this action starts is not yet finished.
        ledger.counts.withLock { $0.isFinished = false }
        if !pending.isEmpty {
            if exhaustivity == .on {
                reportFailure(
                    "Must receive \(pending.count) action(s) before sending \(describe(action)):\n"
                        + pending.map { "  \(describe($0.action))" }.joined(separator: "\n"),
                    at: location
                )
            }
            state = pending.last!.state
            pending.removeAll()
        }
        let task = store.send(action)
        guard !pending.isEmpty else {
            reportFailure("The store did not process \(describe(action)).", at: location)
            return task
        }
        let sent = pending.removeFirst()
        check(sent, step: "send(\(self.describe(action)))", updateExpected, at: location)
        return task
    }

    /// Waits for the next action an effect sends, checks it is `expected`, and
    /// checks the state changed as `updateExpected` describes.
    ///
    /// With ``Exhaustivity/off``, actions that do not match are skipped.
    public func receive(
        _ expected: Action,
        assert updateExpected: ((inout State) -> Void)? = nil,
        timeout: Duration? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            named: self.describe(expected), matching: { $0 == expected }, assert: updateExpected, timeout: timeout, at: location)
    }

    /// Waits for the next action an effect sends, checks it satisfies
    /// `matches`, and checks the state changed as `updateExpected` describes —
    /// for actions that are not `Equatable`.
    public func receive(
        _ name: String,
        matching matches: (Action) -> Bool,
        assert updateExpected: ((inout State) -> Void)? = nil,
        timeout: Duration? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(named: name, matching: matches, assert: updateExpected, timeout: timeout, at: location)
    }

    /// `receive`, naming the action only for a failure: a name is a dump of
    /// the action, which a passing step does not need — and a dump reads
    /// what an object in the action holds without its lock.
    private func receive(
        named name: @autoclosure () -> String,
        matching matches: (Action) -> Bool,
        assert updateExpected: ((inout State) -> Void)?,
        timeout: Duration?,
        at location: TestLocation
    ) async {
        stepLocation = location
        // One continuation waits for the next arrival: a second `receive`
        // while one waits would take it, and the first would never return.
        guard arrival == nil else {
            reportFailure(
                "receive(\(name())) was called while another receive waits for an action. Await each receive before the next.",
                at: location)
            return
        }
        while true {
            guard await nextArrival(timeout: timeout ?? self.timeout) else {
                reportFailure("Expected to receive \(name()), but no action arrived within \(timeout ?? self.timeout).", at: location)
                return
            }
            let transition = pending.removeFirst()
            if matches(transition.action) {
                check(transition, step: "receive(\(name()))", updateExpected, at: location)
                return
            }
            if exhaustivity == .on {
                reportFailure("Expected to receive \(name()), but received \(describe(transition.action)).", at: location)
                state = transition.state
                return
            }
            state = transition.state
        }
    }

    /// Waits (up to the timeout) for every running effect to end, then — when
    /// exhaustive — fails for each received action not asserted and for each
    /// effect still in flight.
    public func finish(
        timeout: Duration? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        stepLocation = location
        ledger.counts.withLock { $0.isFinished = true }
        let running = store.runningEffectsTask
        _ = await firstOf(timeout: timeout ?? self.timeout) { await running.wait() }
        checkEnd(at: location)
    }

    /// Skips every received action not yet asserted, taking the state they left.
    public func skipReceivedActions() {
        guard let last = pending.last else { return }
        state = last.state
        pending.removeAll()
    }

    // MARK: Checking

    private func check(
        _ transition: Transition<State, Action>,
        step: @autoclosure () -> String,
        _ updateExpected: ((inout State) -> Void)?,
        at location: TestLocation
    ) {
        var expected: State
        switch exhaustivity {
        case .on:
            expected = state
            updateExpected?(&expected)
        case .off:
            expected = transition.state
            updateExpected?(&expected)
        }
        if expected != transition.state {
            let diff = fieldChanges(from: expected, to: transition.state)
            reportFailure("State after \(step()) differs from the expected state (expected → actual):\n\(diff)", at: location)
        }
        state = transition.state
    }

    private func checkEnd(at location: TestLocation) {
        guard exhaustivity == .on else { return }
        let names = pending.map { describe($0.action) }
        // In the order the effects were scheduled; a later part of an effect
        // runs beside it, counted.
        let origins = store.runningEffectTokens.map { token in
            (self.origins.action(of: token).map(describe) ?? "an action before this test store")
                + (self.origins.isPart(token) ? " (a later part of its effect)" : "")
        }
        for message in Self.endFailures(
            unasserted: pending.count, running: store.runningEffectCount, names: names, origins: origins)
        {
            reportFailure(message, at: location)
        }
        pending.removeAll()
    }

    /// The failures of an exhaustive test that ends with `unasserted` received
    /// actions and `running` effects, naming the actions received (`names`)
    /// and the actions that started the effects (`origins`) when known.
    private nonisolated static func endFailures(
        unasserted: Int, running: Int, names: [String]?, origins: [String]? = nil
    ) -> [String] {
        var failures: [String] = []
        if unasserted > 0 {
            let list = names.map { ":\n" + $0.map { "  \($0)" }.joined(separator: "\n") } ?? "."
            failures.append("\(unasserted) received action(s) were not asserted\(list)")
        }
        if running > 0 {
            let list =
                origins.flatMap { $0.isEmpty ? nil : ", started by:\n" + $0.map { "  \($0)" }.joined(separator: "\n") + "\n" } ?? ". "
            failures.append(
                "\(running) effect(s) still in flight at the end of the test\(list)"
                    + "Release their gates, advance their clocks, or cancel them before the test ends."
            )
        }
        return failures
    }

    // MARK: Waiting

    private func nextArrival(timeout: Duration) async -> Bool {
        if !pending.isEmpty { return true }
        let timer = Task { [weak self] in
            guard await Timeout.expires(after: timeout, unless: { self?.arrival == nil }) else { return }
            self?.resumeArrival(false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { arrival = $0 }
    }

    /// Runs `work`, returning `true` when it ends within `timeout` and `false`
    /// when the time runs out first (the work goes on, unawaited).
    private func firstOf(timeout: Duration, _ work: @escaping @MainActor @Sendable () async -> Void) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let outcome = Outcome(continuation)
            outcome.timer = Task {
                guard await Timeout.expires(after: timeout, unless: { outcome.isResolved }) else { return }
                outcome.resume(false)
            }
            Task {
                await work()
                outcome.resume(true)
            }
        }
    }

    private func resumeArrival(_ arrived: Bool) {
        guard let arrival else { return }
        self.arrival = nil
        arrival.resume(returning: arrived)
    }

    private func describe(_ action: Action) -> String {
        ValueDump.renderOneLine(action)
    }
}

/// Resumes a continuation once, with whichever result comes first.
@MainActor
private final class Outcome {
    private var continuation: CheckedContinuation<Bool, Never>?
    var timer: Task<Void, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = continuation
    }

    /// Whether a result came.
    var isResolved: Bool { continuation == nil }

    func resume(_ value: Bool) {
        timer?.cancel()
        continuation?.resume(returning: value)
        continuation = nil
    }
}

/// What a test store's end-of-test check needs, shared with the store's
/// effect-count callback and readable from `deinit`, which is not isolated to
/// the main actor.
private final class EndOfTestLedger: Sendable {
    struct Counts {
        var isFinished = false
        var isExhaustive = true
        var unasserted = 0
        var runningEffects = 0
    }

    let counts = LockedValue(Counts())
}
