import AsyncState
import AsyncStateControls
import Testing

@Suite("Exploring every ordering")
@MainActor
struct ExplorerTests {
    typealias Action = SearchFeature.Action
    typealias State = SearchFeature.State

    /// The search feature, answering the `call`-th fetch with "r<call>".
    func feature(_ operations: ControlledOperations, broken: (inout SearchFeature) -> Void = { _ in }) -> SearchFeature {
        let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
        var feature = SearchFeature(fetch: { _ throws(SearchFailure) in try await fetch() })
        broken(&feature)
        return feature
    }

    @Test("two overlapping searches: three orderings, every promise kept", arguments: [(1, 1), (2, 3), (3, 15), (4, 105)])
    func overlapping(searches: Int, orderings: Int) async {
        let report = await explore(State(), script: (1...searches).map { .search("q\($0)") }) { feature($0) }
        #expect(report.failure == nil)
        #expect(report.isComplete)
        #expect(report.orderingCount == orderings)
    }

    @Test("a cancel at every moment: the late answer is dropped, nothing stays loading")
    func cancelAnywhere() async {
        let report = await explore(State(), script: [.search("s"), .cancel]) { feature($0) }
        #expect(report.failure == nil)
        #expect(report.orderingCount == 2)
    }

    @Test("a reducer that applies stale results is caught, and its minimized recording replays the failure")
    func staleResultCaught() async throws {
        let report = await explore(State(), script: [.search("s"), .search("sw")]) {
            feature($0) {
                $0.appliesStaleResults = true
                $0.overlap = .latestWins(cancellingEarlier: false)
            }
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no stale result wins")
        #expect(failure.message.hasPrefix("a result of load #1, which was no longer running, was applied"))
        #expect(failure.ordering == [#"send(.search("s"))"#, #"send(.search("sw"))"#, "answer fetch #0", "answer fetch #1"])
        #expect(
            failure.minimized.actions == [
                .results(.started(LoadID(1))), .results(.started(LoadID(2))), .results(.finished(LoadID(1), "r0")),
                .results(.finished(LoadID(2), "r1")),
            ])
        #expect(failure.minimized.actions.count < failure.recording.actions.count)
    }

    /// A search state that writes late results into a log of its own.
    protocol LateResultLog: Equatable {
        init()
        var results: Loadable<String, SearchFailure> { get set }
        mutating func noteLate(_ value: String)
    }

    /// A search that writes a stale result into its state's log, where a
    /// check might not look, instead of dropping it.
    struct LateLogging<State: LateResultLog>: Reducer {
        let fetch: @MainActor @Sendable () async throws(SearchFailure) -> String

        func reduce(into state: inout State, action: SearchFeature.Action) -> Effect<SearchFeature.Action> {
            switch action {
            case .search:
                let fetch = fetch
                return state.results.load(
                    SearchFeature.Action.results, LoadRequest { () async throws(SearchFailure) in try await fetch() },
                    overlap: .latestWins(cancellingEarlier: false))
            case .cancel: return .cancel(load: state.results.cancel())
            case .results(.finished(let id, let value)) where state.results.inFlightID != id:
                state.noteLate(value)
                return .none
            case .results(let load): return state.results.reduce(load)
            }
        }
    }

    /// Late results kept deep in the state, past the dump's depth: a stale
    /// result written there changes no dump.
    struct DeepLog: LateResultLog {
        indirect enum Chain: Equatable {
            case end([String])
            case link(Chain)

            static func deep(_ depth: Int) -> Chain { depth == 0 ? .end([]) : .link(deep(depth - 1)) }

            mutating func append(_ text: String) {
                switch self {
                case .end(let texts): self = .end(texts + [text])
                case .link(var inner):
                    inner.append(text)
                    self = .link(inner)
                }
            }
        }

        var results = Loadable<String, SearchFailure>()
        var late = Chain.deep(40)

        mutating func noteLate(_ value: String) { late.append(value) }
    }

    /// The explorer's verdict on a search that logs late results into `State`.
    static func staleVerdict<State: LateResultLog>(_: State.Type) async -> String? {
        let report = await explore(State(), script: [.search("s"), .search("sw")]) { operations in
            LateLogging<State>(fetch: operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") })
        }
        return report.failure?.invariant
    }

    // From an earlier reading: the check compared dumps only, which stop at a
    // depth of 32 — a stale result written deeper went unseen.
    @Test("a stale result written deeper than the dump shows is caught in an Equatable state")
    func staleResultPastDumpDepth() async {
        #expect(await Self.staleVerdict(DeepLog.self) == "no stale result wins")
    }

    @Test("a load that never ends is reported as stuck loading")
    func stuckCaught() async throws {
        let report = await explore(State(), script: [.search("s")]) { feature($0) { $0.ignoresResults = true } }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "nothing stuck loading")
        #expect(failure.message == "results still has load #1 running after every effect ended")
        #expect(failure.minimized.actions == [.results(.started(LoadID(1))), .results(.finished(LoadID(1), "r0"))])
    }

    @Test("an invariant of your own is checked on every state")
    func ownInvariant() async throws {
        let neverEmpty = Invariant<State>("the query shows only with results") {
            $0.query.isEmpty || $0.results.value != nil || $0.results.isLoading
        }
        let report = await explore(State(), script: [.search("s")], invariants: [neverEmpty]) { feature($0) }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "the query shows only with results")
        #expect(failure.message == #"the state after .search("s") breaks it"#)
        #expect(failure.minimized.actions == [.search("s")])
    }

    /// A screen that shows its search in one of its cases.
    struct Screen: Reducer {
        enum State: Equatable {
            case idle
            case searching(Loadable<String, SearchFailure>)
        }

        let fetch: @MainActor @Sendable () async throws(SearchFailure) -> String

        func reduce(into state: inout State, action: SearchFeature.Action) -> Effect<SearchFeature.Action> {
            var results: Loadable<String, SearchFailure>
            switch state {
            case .idle: results = Loadable()
            case .searching(let loadable): results = loadable
            }
            defer { state = .searching(results) }
            switch action {
            case .search:
                let fetch = fetch
                return results.load(
                    SearchFeature.Action.results, LoadRequest { () async throws(SearchFailure) in try await fetch() })
            case .cancel: return .cancel(load: results.cancel())
            case .results(let load): return results.reduce(load)
            }
        }
    }

    @Test("loadables inside an enum case are checked too")
    func loadableInAnEnumCase() async {
        let report = await explore(Screen.State.idle, script: [.search("s"), .search("sw")]) { operations in
            Screen(fetch: operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") })
        }
        #expect(report.failure == nil)
        #expect(report.orderingCount == 3)
    }

    @Test("no effect stays suspended after an exploration: its operations are let go")
    func nothingLeftSuspended() async {
        weak var operationsSeen: ControlledOperations?
        let report = await explore(State(), script: [.search("s")], maximumSteps: 1) { operations in
            operationsSeen = operations
            return feature(operations)
        }
        #expect(report.failure?.message == "the ordering made 1 choices without settling")
        for _ in 0..<100 where operationsSeen != nil { await Task.yield() }
        #expect(operationsSeen == nil)
    }

    @Test("each ordering gets a fresh clock at zero, stepped from deadline to deadline")
    func freshClock() async throws {
        let report = await explore(State(), script: [.search("a"), .search("b")]) { operations in
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            let clock = operations.clock
            return SearchFeature(fetch: { _ throws(SearchFailure) in
                try? await clock.sleep(for: .seconds(1))
                return try await fetch()
            })
        }
        #expect(report.failure == nil)
        #expect(report.orderingCount > 3)
        // Two searches sleep a second each, so no ordering's clock passes
        // 2 s (a cancelled sleep ends at once): a later ordering's clock does
        // not start where an earlier one stopped.
        let wakes = LockedValue<[[Duration]]>([])
        let again = await explore(State(), script: [.search("a"), .search("b")]) { operations in
            let clock = operations.clock
            let ordering = wakes.withLock {
                $0.append([]); return $0.count - 1
            }
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            return SearchFeature(fetch: { _ throws(SearchFailure) in
                try? await clock.sleep(for: .seconds(1))
                wakes.withLock { $0[ordering].append(clock.now.offset) }
                return try await fetch()
            })
        }
        #expect(again.orderingCount == report.orderingCount)
        #expect(wakes.current.count == again.orderingCount)
        #expect(wakes.current.allSatisfy { $0.allSatisfy { $0 <= .seconds(2) } }, "\(wakes.current)")
    }

    // From a mutation round: a report that counted only the last ordering's
    // choices passed every test.
    @Test("the step count adds up the choices of every ordering")
    func stepCountAddsUp() async {
        let report = await explore(State(), script: [.search("q1"), .search("q2")]) { feature($0) }
        #expect(report.orderingCount == 3)
        // Each ordering sends the two searches and answers their two fetches.
        #expect(report.stepCount == 12)
    }

    @Test("the promises checked are the kit's, then yours")
    func promisesInOrder() async {
        let mine = Invariant<State>("mine") { _ in true }
        let report = await explore(State(), script: [], invariants: [mine]) { feature($0) }
        #expect(
            report.promises == [
                "no stale result wins", "nothing stuck loading", "no confirmed edit lost", "no invalidation lost",
                "cancellation is never failure", "mine",
            ])
    }

    @Test("at each moment the script's next action is tried before the clock moves")
    func sendsBeforeAdvancing() async throws {
        let noResults = Invariant<State>("no results") { $0.results.value == nil }
        let report = await explore(State(), script: [.search("a"), .search("b")], invariants: [noResults]) { operations in
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            let clock = operations.clock
            return SearchFeature(fetch: { _ throws(SearchFailure) in
                try? await clock.sleep(for: .seconds(1))
                return try await fetch()
            })
        }
        let failure = try #require(report.failure)
        // The second search cancels the first one's sleep, so its fetch is
        // called at once; the second's waits for the clock.
        #expect(
            failure.ordering == [
                #"send(.search("a"))"#, #"send(.search("b"))"#, "answer fetch #0", "advance the clock to 1.0 seconds",
                "answer fetch #1",
            ])
    }

    @Test("a call made after an ordering ended answers at once: no effect is left suspended")
    func callAfterTheEndAnswers() async {
        let finished = LockedValue(false)
        let report = await explore(State(), script: [.search("s")], maximumSteps: 1) { operations in
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            return SearchFeature(fetch: { _ throws(SearchFailure) in
                _ = try await fetch()
                // Called once the ordering is over and its waiting calls answered.
                let second = try await fetch()
                finished.withLock { $0 = true }
                return second
            })
        }
        #expect(report.failure?.message == "the ordering made 1 choices without settling")
        for _ in 0..<100 where !finished.current { await Task.yield() }
        #expect(finished.current)
    }

    @Test("a feature that runs differently when an ordering is replayed is reported")
    func differentReplayReported() async throws {
        let orderings = LockedValue(0)
        let report = await explore(State(), script: [.search("a"), .search("b")]) { operations in
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            let isFirst = orderings.withLock {
                $0 += 1
                return $0 == 1
            }
            // Only the first ordering waits for the explorer's answers.
            return SearchFeature(fetch: { _ throws(SearchFailure) in isFirst ? try await fetch() : "at once" })
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "the feature runs the same way every time")
        #expect(report.orderingCount == 2)
    }

    @Test("the largest step bound does not overflow")
    func largestStepBound() async {
        let report = await explore(State(), script: [.search("s")], maximumSteps: .max) { feature($0) }
        #expect(report.failure == nil)
        #expect(report.orderingCount == 1)
    }

    @Test("an exploration past its bound stops and says it is incomplete")
    func bounded() async {
        let report = await explore(State(), script: [.search("a"), .search("b")], maximumOrderings: 2) { feature($0) }
        #expect(!report.isComplete)
        #expect(report.orderingCount == 2)
        #expect(report.failure == nil)
    }

    // From an outside reading: a bound below zero was no bound at all.
    @Test("a bound of orderings of zero or less explores none and says it is incomplete", arguments: [0, -1, Int.min])
    func boundBelowOne(maximum: Int) async {
        let report = await explore(State(), script: [.search("a"), .search("b")], maximumOrderings: maximum) { feature($0) }
        #expect(!report.isComplete)
        #expect(report.orderingCount == 0)
    }
}
