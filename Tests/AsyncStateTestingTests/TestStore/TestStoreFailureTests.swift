import AsyncState
import AsyncStateControls
import AsyncStateTesting
import Testing

private struct Boom: Error {}

// Time limits here are hang guards of ten minutes, as `.hangGuard` in
// AsyncStateTests explains: wall-clock time under CI's sanitized run.
@Suite("TestStore: what fails a test", .timeLimit(.minutes(10)))
@MainActor
struct TestStoreFailureTests {
    // From an outside reading: the failure pointed at the line that made
    // the test store, not at the step that was running.
    @Test("an effect that throws an error nothing handles fails the test, at the step the test was at")
    func unhandledEffectErrorFails() async {
        let store = TestStore(initialState: 0, reducer: Reduce<Int, Bool> { _, _ in .run { _ in throw Boom() } })
        let sendLine = #line + 2
        await withKnownIssue {
            store.send(true)
            await store.finish()
        } matching: { issue in
            // The send's line, or the finish's if the effect ran after it.
            issue.comments.map(\.rawValue).joined().contains("Boom")
                && [sendLine, sendLine + 1].contains(issue.sourceLocation?.line)
        }
    }

    @Test("an effect that throws an error nothing handles is named by the action that started it")
    func unhandledEffectErrorNamesItsAction() async {
        let store = TestStore(initialState: 0, reducer: Reduce<Int, String> { _, _ in .run { _ in throw Boom() } })
        await withKnownIssue {
            store.send("save")
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("An effect, started by \"save\", threw Boom(), which nothing handled.")
        }
    }

    @Test("a later part of a concatenation that throws is named by the action that returned the concatenation")
    func unhandledErrorOfALaterPartNamesItsAction() async {
        let gate = Gate<Int>()
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, String> { _, action in
                guard action == "chain" else { return .none }
                return .concatenate(
                    .run { send in
                        _ = try await gate.wait()
                        send("first part ended")
                    },
                    .run { _ in throw Boom() })
            })
        await withKnownIssue {
            // The effects' tasks begin here, so the known issue covers them.
            store.send("chain")
            gate.open(with: 0)
            // The second part begins after this action, the last processed.
            await store.receive("first part ended")
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("An effect, started by \"chain\", threw Boom()")
        }
    }

    @Test("a state that differs only in what its == compares fails with a note saying so, not an empty diff")
    func differsOnlyByEquality() {
        let store = TestStore(
            initialState: 0.0,
            reducer: Reduce<Double, Bool> { state, _ in
                state = .nan
                return .none
            })
        withKnownIssue {
            store.send(true) { $0 = .nan }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "(no field prints differently: the values differ only in what their == compares)")
        }
    }

    @Test("a first load ID from which the IDs could wrap fails the test")
    func firstLoadIDTooLarge() {
        withKnownIssue {
            _ = TestStore(initialState: 0, reducer: Reduce<Int, Int> { _, _ in .none }, firstLoadID: LoadID(.max))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("A store's first load ID, #18446744073709551615, is past")
        }
    }

    // MARK: Held

    @Test("effects still in flight at the end are named by the actions that started them, in the order they started")
    func inFlightNamesTheirActions() async {
        let first = Gate<Int>()
        let held = Gate<Int>()
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, String> { _, action in
                switch action {
                case "wait":
                    .run { _ in _ = try await held.wait() }
                case "chain":
                    .concatenate(
                        .run { send in
                            _ = try await first.wait()
                            send("first part ended")
                        },
                        .run { _ in _ = try await held.wait() })
                default:
                    .none
                }
            })
        store.timeout = .milliseconds(20)
        store.send("wait")
        store.send("chain")
        first.open(with: 0)
        await store.receive("first part ended")
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            // The chain's second part began after "first part ended", the
            // last action processed: it is named by the chain's action.
            issue.comments.map(\.rawValue).joined().contains(
                "3 effect(s) still in flight at the end of the test, started by:\n  \"wait\"\n  \"chain\"\n"
                    + "  \"chain\" (a later part of its effect)\nRelease their gates")
        }
        held.open(with: 0)
        await store.finish()
    }

    /// A value loaded by `.refresh`, or by `.queue(n)` behind the load in
    /// flight, each from gate `n`.
    enum Loading: Equatable {
        case refresh, queue(Int)
        case value(LoadAction<Int, Never>)
    }

    static func loading(_ gates: [Gate<Int>]) -> Reduce<Loadable<Int, Never>, Loading> {
        Reduce { state, action in
            switch action {
            case .refresh:
                return state.load(Loading.value, LoadRequest { (try? await gates[0].wait()) ?? 0 })
            case .queue(let n):
                return state.load(Loading.value, LoadRequest { (try? await gates[n].wait()) ?? 0 }, overlap: .queue)
            case .value(let action):
                return state.reduce(action)
            }
        }
    }

    // From a second reading: effects were named by the last action the store
    // processed — a load by its own `.started`, which it sends as it begins.
    @Test("a load left in flight is named by the action that started it, not by the actions the load sent")
    func loadInFlightNamesItsAction() async {
        let gates = [Gate<Int>()]
        let store = TestStore(initialState: Loadable<Int, Never>(), reducer: Self.loading(gates))
        store.timeout = .milliseconds(20)
        store.send(.refresh)
        await store.receive(.value(.started(LoadID(1)))) { $0 = Loadable(expecting: .loading, inFlightID: LoadID(1)) }
        await finishFails(store, saying: "1 effect(s) still in flight at the end of the test, started by:\n  .refresh\n")
        gates[0].open(with: 1)
        store.exhaustivity = .off
        await store.finish()
    }

    @Test("a queued load's turn is named by the action that queued it, as a later part of its effect")
    func queuedTurnNamesItsAction() async {
        let gates = [Gate<Int>(), Gate<Int>(), Gate<Int>()]
        let store = TestStore(initialState: Loadable<Int, Never>(), reducer: Self.loading(gates))
        store.timeout = .milliseconds(20)
        store.exhaustivity = .off
        store.send(.queue(1))
        store.send(.queue(2))
        gates[1].open(with: 1)
        await store.receive(.value(.started(LoadID(2)))) // the queued turn began
        store.skipReceivedActions()
        store.exhaustivity = .on
        await finishFails(
            store,
            saying:
                "2 effect(s) still in flight at the end of the test, started by:\n  .queue(2)\n  .queue(2) (a later part of its effect)\n")
        gates[2].open(with: 2)
        store.exhaustivity = .off
        await store.finish()
    }

    @Test("effects that send an action as they begin are named by the action that returned them, not the one they sent")
    func effectsThatSendAtOnceNameTheirAction() async {
        let held = Gate<Int>()
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, String> { _, action in
                guard action == "go" else { return .none }
                return .merge(
                    .run { send in
                        send("hello")
                        _ = try await held.wait()
                    },
                    .run { _ in _ = try await held.wait() })
            })
        store.timeout = .milliseconds(20)
        store.send("go")
        await store.receive("hello")
        await finishFails(store, saying: "2 effect(s) still in flight at the end of the test, started by:\n  \"go\"\n  \"go\"\n")
        held.open(with: 0)
        await store.finish()
    }

    @Test("an effect in flight since the start of a long test is named by its action, and one started late by its own")
    func inFlightAfterManyActions() async {
        let held = Gate<Int>()
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, String> { _, action in
                switch action {
                case "wait", "late": .run { _ in _ = try await held.wait() }
                default: .run { _ in }
                }
            })
        store.timeout = .milliseconds(20)
        store.send("wait")
        for _ in 1...200 { await store.send("tick").finish() }
        store.send("late")
        await finishFails(store, saying: "2 effect(s) still in flight at the end of the test, started by:\n  \"wait\"\n  \"late\"\n")
        held.open(with: 0)
        await store.finish()
    }

    // From a second reading: a join waits among the effects to launch with
    // no token of its own (-1), and cutting the list back by the oldest
    // token let go of every action's entry.
    @Test("effects in flight are named after the list of actions is cut back while a join waits to launch")
    func namedAfterACutWithAJoinPending() async {
        let gates = [Gate<Int>(), Gate<Int>()]
        let store = TestStore(
            initialState: [Loadable<Int, Never>(), Loadable<Int, Never>()],
            reducer: Reduce<[Loadable<Int, Never>], Loading2> { state, action in
                switch action {
                case .both:
                    // The first joins its load in flight; the second starts.
                    return .merge(
                        state[0].load({ Loading2.value(0, $0) }, LoadRequest { (try? await gates[0].wait()) ?? 0 }, overlap: .join),
                        state[1].load({ Loading2.value(1, $0) }, LoadRequest { (try? await gates[1].wait()) ?? 0 }))
                case .first:
                    return state[0].load({ Loading2.value(0, $0) }, LoadRequest { (try? await gates[0].wait()) ?? 0 })
                case .tick:
                    return .run { _ in }
                case .value(let index, let action):
                    return state[index].reduce(action)
                }
            })
        store.timeout = .milliseconds(20)
        store.exhaustivity = .off
        store.send(.first)
        // 63 actions noted: the 64th, the second load's `.started`, cuts the list back.
        for _ in 1...62 { await store.send(.tick).finish() }
        store.send(.both)
        store.skipReceivedActions()
        store.exhaustivity = .on
        await finishFails(store, saying: "2 effect(s) still in flight at the end of the test, started by:\n  .first\n  .both\n")
        gates[0].open(with: 1)
        gates[1].open(with: 2)
        store.exhaustivity = .off
        await store.finish()
    }

    @Test("an effect that sends an action, then throws, is named by the action that returned it")
    func effectThatSendsThenThrowsNamesItsAction() async {
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, String> { _, action in
                guard action == "go" else { return .none }
                return .run { send in
                    send("hello")
                    throw Boom()
                }
            })
        await withKnownIssue {
            store.send("go")
            await store.receive("hello")
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("An effect, started by \"go\", threw Boom()")
        }
    }

    @Test("an action left unreceived fails finish, naming it")
    func unreceivedFailsFinish() async {
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, Int> { state, action in
                state += action
                return action == 1 ? .send(10) : .none
            })
        store.send(1) { $0 = 1 }
        await finishFails(store, saying: "1 received action(s) were not asserted:\n  10")
    }

    @Test("an action sent after finish is checked again: one left unreceived fails when the store is released")
    func sendAfterFinishIsChecked() async {
        // The store is released when this returns, inside the known issue.
        func goOnAfterFinish() async {
            let store = TestStore(initialState: 0, reducer: Reduce<Int, Int> { _, action in action == 1 ? .send(10) : .none })
            await store.finish()
            await store.send(1).finish()
        }
        await withKnownIssue {
            await goOnAfterFinish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "1 received action(s) were not asserted. (found when the test store was released")
        }
    }

    @Test("an effect still running fails finish")
    func runningFailsFinish() async {
        let gate = Gate<Int>()
        let store = TestStore(initialState: 0, reducer: Reduce<Int, Int> { _, _ in .run { _ in _ = try await gate.wait() } })
        store.timeout = .milliseconds(20)
        store.send(1)
        await finishFails(store, saying: "1 effect(s) still in flight")
        gate.open(with: 0)
    }

    @Test("a chain of effects, each started by the last one's action, passes when every action is received")
    func chainPasses() async {
        let store = TestStore(
            initialState: [Int](),
            reducer: Reduce<[Int], Int> { state, action in
                state.append(action)
                return action < 3
                    ? .run { send in
                        await Task.yield(); send(action + 1)
                    } : .none
            })
        store.send(1) { $0 = [1] }
        await store.receive(2) { $0 = [1, 2] }
        await store.receive(3) { $0 = [1, 2, 3] }
        await store.finish()
    }

    /// Counts how often it is dumped.
    final class Tripwire: CustomReflectable, Sendable {
        let dumps = LockedValue(0)
        var customMirror: Mirror {
            dumps.withLock { $0 += 1 }
            return Mirror(self, children: [:])
        }
    }

    enum Tripped: Equatable {
        case ping(Tripwire)
        case pong(Tripwire)

        static func == (lhs: Tripped, rhs: Tripped) -> Bool {
            switch (lhs, rhs) {
            case (.ping(let a), .ping(let b)), (.pong(let a), .pong(let b)): a === b
            default: false
            }
        }
    }

    // From an outside reading: every step dumped its action for a name it
    // needed only to fail, and a dump reads an object's fields without its
    // lock — an action that carried a `LockedValue` another thread changed
    // crashed the test process.
    @Test("a passing send or receive does not dump its action")
    func passingStepsDumpNothing() async {
        let tripwire = Tripwire()
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, Tripped> { state, action in
                state += 1
                guard case .ping(let wire) = action else { return .none }
                return .send(.pong(wire))
            })
        store.send(.ping(tripwire)) { $0 = 1 }
        await store.receive(.pong(tripwire)) { $0 = 2 }
        await store.finish()
        #expect(tripwire.dumps.current == 0)
    }

    @Test("a LockedValue dumps its value, read under its lock; a Gate dumps nothing that changes")
    func lockedDumps() {
        #expect(String(dumping: LockedValue([1: 2])) == "LockedValue<Dictionary<Int, Int>>(value: [1: 2])")
        #expect(String(dumping: Gate<Int>()) == "Gate<Int>()")
    }

    // From an outside reading: the second receive took the first's
    // continuation, which leaked, and the test never ended.
    @Test("a receive while another waits fails at once, and the test ends")
    func overlappingReceives() async {
        let store = TestStore(initialState: 0, reducer: Reduce<Int, Bool> { _, _ in .none })
        store.timeout = .milliseconds(20)
        await withKnownIssue {
            async let first: Void = store.receive(true)
            async let second: Void = store.receive(false)
            _ = await (first, second)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("was called while another receive waits") || text.contains("no action arrived")
        }
    }

}

/// Two values, loaded by `.first` and `.both`; `.tick` runs an effect that ends at once.
enum Loading2: Equatable {
    case first, both, tick
    case value(Int, LoadAction<Int, Never>)
}

/// Runs `store.finish()` and expects it to fail, its message holding `text`.
@MainActor
func finishFails<State, Action>(_ store: TestStore<State, Action>, saying text: String) async {
    await withKnownIssue {
        await store.finish()
    } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains(text)
    }
}
