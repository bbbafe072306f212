import AsyncState
import AsyncStateTesting
import Observation
import Testing

@Suite("OperationTracker")
@MainActor
struct OperationTrackerTests {
    enum Op: Hashable, Sendable { case save, delete }
    typealias Tracker = OperationTracker<Op, AnyError>

    @Test("two different operations run at the same time, each tracked on its own")
    func twoAtOnce() async {
        let tracker = Tracker()
        let save = Gate<Int>(), delete = Gate<Int>()
        let saving = Task { await tracker.run(.save) { try await save.wait() } }
        let deleting = Task { await tracker.run(.delete) { try await delete.wait() } }
        await save.waitForArrivals()
        await delete.waitForArrivals()
        #expect(tracker.isActive(.save) && tracker.isActive(.delete))
        #expect(tracker.activeKeys == [.save, .delete])
        delete.open(with: 2)
        #expect(await deleting.value == .success(2))
        #expect(tracker.isActive(.save))
        #expect(!tracker.isActive(.delete))
        save.open(with: 1)
        #expect(await saving.value == .success(1))
        #expect(!tracker.isAnyActive)
    }

    @Test("the same operation twice: the later run stays active when the earlier one ends")
    func sameTwice() async {
        let tracker = Tracker()
        let first = Gate<Int>(), second = Gate<Int>()
        let one = Task { await tracker.run(.save) { await first.value() ?? -1 } }
        await first.waitForArrivals()
        let two = Task { await tracker.run(.save) { try await second.wait() } }
        await second.waitForArrivals()
        first.open(with: 1)
        #expect(await one.value == .cancelled, "a superseded run was cancelled; its value is not its result")
        #expect(tracker.isActive(.save), "the earlier run must not mark the later one inactive")
        second.open(with: 2)
        #expect(await two.value == .success(2))
        #expect(!tracker.isActive(.save))
    }

    @Test("first wins: a double-tapped Save runs once")
    func doubleTap() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let calls = ChangeCounter()
        let first = Task {
            await tracker.run(.save, overlap: .firstWins) {
                calls.increment(); return try await gate.wait()
            }
        }
        await gate.waitForArrivals()
        let second = await tracker.run(.save, overlap: .firstWins) {
            calls.increment(); return 99
        }
        #expect(second == .ignored)
        gate.open(with: 1)
        #expect(await first.value == .success(1))
        #expect(calls.value == 1)
    }

    @Test("a failed operation reports its error until it runs again")
    func failure() async {
        let tracker = Tracker()
        await tracker.run(.save) { throw Offline() }
        #expect(tracker.error(for: .save) == AnyError(Offline()))
        #expect(tracker.error(for: .delete) == nil)
        await tracker.run(.save) { 1 }
        #expect(tracker.error(for: .save) == nil)
    }

    @Test("a cancelled operation is not an error")
    func cancelled() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let saving = Task { await tracker.run(.save) { try await gate.wait() } }
        await gate.waitForArrivals()
        tracker.cancel(.save)
        #expect(await saving.value == .cancelled)
        #expect(!tracker.isActive(.save))
        #expect(tracker.error(for: .save) == nil)
        #expect(gate.observedCancellation)
    }

    @Test("cancelAll stops every operation")
    func cancelAll() async {
        let tracker = Tracker()
        let a = Gate<Int>(), b = Gate<Int>()
        let saving = Task { await tracker.run(.save) { try await a.wait() } }
        let deleting = Task { await tracker.run(.delete) { try await b.wait() } }
        await a.waitForArrivals()
        await b.waitForArrivals()
        tracker.cancelAll()
        _ = await (saving.value, deleting.value)
        #expect(!tracker.isAnyActive)
    }

    @Test("typed operations keep their failure type")
    func typed() async {
        let tracker = OperationTracker<Op, TestError>()
        await tracker.run(.save) { () async throws(TestError) in throw .timedOut }
        #expect(tracker.error(for: .save) == .timedOut)
    }

    @Test("isActive is observable, even for a key that never ran before")
    func observation() async {
        let tracker = Tracker()
        let changes = ChangeCounter()
        withObservationTracking {
            _ = tracker.isActive(.save)
        } onChange: {
            changes.increment()
        }
        await tracker.run(.save) { 1 }
        #expect(changes.value == 1)
    }
}
