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

    // MARK: Held

    @Test("an action left unreceived fails finish, naming it")
    func unreceivedFailsFinish() async {
        let store = TestStore(
            initialState: 0,
            reducer: Reduce<Int, Int> { state, action in
                state += action
                return action == 1 ? .send(10) : .none
            })
        store.send(1) { $0 = 1 }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("1 received action(s) were not asserted:\n  10")
        }
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
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("1 effect(s) still in flight")
        }
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
