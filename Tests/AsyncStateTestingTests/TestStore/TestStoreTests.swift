import AsyncState
import AsyncStateTesting
import Testing

/// The loadable a profile screen shows, for expected states built by value.
private typealias Profile = Loadable<String, ProfileScreen.LoadFailure>

@Suite("TestStore")
@MainActor
struct TestStoreTests {
    typealias Screen = ProfileScreen

    func makeStore(gates: Int = 2, start: EffectStart = .preferred) -> (TestStore<Screen.State, Screen.Action>, GateQueue) {
        let queue = GateQueue(count: gates)
        let store = TestStore(initialState: Screen.State(), reducer: Screen(gates: queue))
        store.effectStart = start
        return (store, queue)
    }

    @Test("a full load passes with every step asserted", arguments: EffectStart.allCases)
    func fullLoad(start: EffectStart) async {
        let (store, gates) = makeStore(start: start)
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1)) }
        gates[0].open(with: "Lee")
        await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
            $0.profile = Profile(expecting: .success(value: "Lee"), newestID: LoadID(1))
        }
        await store.finish()
        #expect(store.state.profile.value == "Lee")
    }

    @Test("a race released in the test's order: B finishes, then A's result is dropped", arguments: EffectStart.allCases)
    func race(start: EffectStart) async {
        let (store, gates) = makeStore(start: start)
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1)) }
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(2)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(2)) }
        await store.receive(.profile(.cancelled(LoadID(1)))) // #1 was superseded: dropped, no change
        gates[1].open(with: "B")
        await store.receive(.profile(.finished(LoadID(2), "B"))) {
            $0.profile = Profile(expecting: .success(value: "B"), newestID: LoadID(2))
        }
        await store.finish()
    }

    @Test("a wrong mutation fails with a diff of expected and actual state")
    func wrongMutation() {
        let (store, _) = makeStore()
        withKnownIssue {
            store.send(.rename("Settings")) { $0.title = "Setings" }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("State after send(.rename(\"Settings\")) differs from the expected state (expected → actual)")
                && text.contains(#"  title: "Setings" → "Settings""#)
        }
    }

    @Test("an action that arrives unasserted fails at the next send")
    func unassertedBeforeSend() async {
        let (store, _) = makeStore()
        store.send(.refresh)
        withKnownIssue {
            store.send(.cancel) { $0.profile = Profile(expecting: .notLoaded, newestID: LoadID(1)) }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Must receive 1 action(s) before sending .cancel:\n  .profile(.started(#1))")
        }
        await store.receive(.profile(.cancelled(LoadID(1))))
        await store.finish()
    }

    @Test("receiving a different action than the one expected fails")
    func unexpectedAction() async {
        let (store, gates) = makeStore()
        store.send(.refresh)
        await withKnownIssue {
            await store.receive(.profile(.finished(LoadID(1), "X")))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                #"Expected to receive .profile(.finished(#1, "X")), but received .profile(.started(#1))"#)
        }
        gates[0].open(with: "X")
        await store.receive(.profile(.finished(LoadID(1), "X"))) {
            $0.profile = Profile(expecting: .success(value: "X"), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test("an expected action that never comes fails after the bounded wait")
    func neverArrives() async {
        let (store, _) = makeStore()
        store.timeout = .milliseconds(20)
        await withKnownIssue {
            await store.receive(.refresh)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Expected to receive .refresh, but no action arrived within")
        }
    }

    @Test("a timeout longer than the clock can sleep waits as one that is not: no trap")
    func timeoutBeyondTheClock() async {
        let (store, gates) = makeStore()
        store.timeout = .seconds(Int64.max)
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1)) }
        Task {
            await Task.yield() // Once the wait below has begun to count.
            gates[0].open(with: "Lee")
        }
        await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
            $0.profile = Profile(expecting: .success(value: "Lee"), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test("effects still in flight at the end fail the test")
    func inFlightAtEnd() async {
        let (store, gates) = makeStore()
        store.timeout = .milliseconds(20)
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1)) }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("1 effect(s) still in flight at the end of the test")
        }
        gates[0].open(with: "late")
    }

    @Test("received actions never asserted fail at the end")
    func unassertedAtEnd() async {
        let (store, gates) = makeStore()
        store.send(.refresh)
        gates[0].open(with: "x")
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined()
                .contains("2 received action(s) were not asserted:\n  .profile(.started(#1))\n  .profile(.finished(#1, \"x\"))")
        }
    }

    @Test("a test store released with work left reports it")
    func releasedUnfinished() async {
        let gates = GateQueue(count: 1)
        withKnownIssue {
            let store = TestStore(initialState: Screen.State(), reducer: Screen(gates: gates))
            store.send(.refresh)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("were not asserted") || text.contains("still in flight")
        }
        gates[0].open(with: "done")
    }

    // Pinned after mutation testing: a check that started from the actual
    // state, and a release check that ignored `exhaustivity`, passed every test.
    @Test("exhaustive: a change of state the assertion leaves out fails the step")
    func changeLeftOutOfAssertionFails() {
        let (store, _) = makeStore()
        withKnownIssue {
            store.send(.rename("Settings")) // the title changes; nothing asserts it
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("State after send(.rename(\"Settings\")) differs from the expected state")
                && text.contains(#"→ "Settings""#)
        }
    }

    @Test("non-exhaustive: a store released with received actions unasserted reports nothing")
    func nonExhaustiveReleaseIsQuiet() async {
        let gates = GateQueue(count: 1)
        // The store is released when this returns: with exhaustivity off, the
        // two load actions never received must not fail the test then.
        func loadWithoutAsserting() async {
            let store = TestStore(initialState: Screen.State(), reducer: Screen(gates: gates))
            store.exhaustivity = .off
            let loading = store.send(.refresh)
            gates[0].open(with: "Lee")
            await loading.finish()
        }
        await loadWithoutAsserting()
    }

    @Test("non-exhaustive: unasserted actions are skipped and partial assertions pass")
    func nonExhaustive() async {
        let (store, gates) = makeStore()
        store.exhaustivity = .off
        store.send(.refresh)
        gates[0].open(with: "Lee")
        await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
            $0.profile = Profile(expecting: .success(value: "Lee"), newestID: LoadID(1))
        }
        #expect(store.state.profile.state == .success(value: "Lee"))
        await store.finish()
    }

    @Test("non-exhaustive: a mutation that contradicts the state still fails")
    func nonExhaustiveWrong() {
        let (store, _) = makeStore()
        store.exhaustivity = .off
        withKnownIssue {
            store.send(.rename("A")) { $0.title = "B" }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("differs from the expected state")
        }
    }

    @Test("load IDs start at #1 in every test store")
    func idsStartAtOne() async {
        for _ in 0..<2 {
            let (store, gates) = makeStore()
            store.send(.refresh)
            await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1)) }
            gates[0].open(with: "x")
            await store.receive(.profile(.finished(LoadID(1), "x"))) {
                $0.profile = Profile(expecting: .success(value: "x"), newestID: LoadID(1))
            }
            await store.finish()
        }
    }
}

@Suite("TestStore purity check")
@MainActor
struct PurityCheckTests {
    /// A reducer that reads shared mutable state: impure.
    final class Ticker {
        var count = 0
    }

    @Test("a reducer whose result depends on outside state is reported as impure")
    func impure() {
        let ticker = Ticker()
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, Int> { state, _ in
                ticker.count += 1
                state = ticker.count
                return .none
            }, checksPurity: true)
        withKnownIssue {
            store.send(1) { $0 = 2 }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined()
                .contains(
                    "The reducer is not pure: the same state and action 1 gave different states on two runs (first run → second run):\n  (value): 1 → 2"
                )
        }
    }

    @Test("a pure reducer passes the check")
    func pure() async {
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, Int> { state, action in
                state += action
                return .none
            }, checksPurity: true)
        store.send(2) { $0 = 2 }
        await store.finish()
    }
}

@Suite("TestStore skipping")
@MainActor
struct TestStoreSkipTests {
    @Test("skipReceivedActions takes the state the skipped actions left, and checks go on from there")
    func skip() async {
        let gates = GateQueue(count: 1)
        let store = TestStore(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: gates))
        store.send(.refresh)
        store.skipReceivedActions()
        #expect(store.state.profile.state == .loading)
        gates[0].open(with: "Lee")
        await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
            $0.profile = Profile(expecting: .success(value: "Lee"), newestID: LoadID(1))
        }
        await store.finish()
    }
}
