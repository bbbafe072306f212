import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

@Suite("OperationTracker")
@MainActor
struct OperationTrackerTests {
    enum Op: Hashable, Sendable { case save, delete }
    typealias Tracker = OperationTracker<Op, AnyError>

    @Test("the failure of a key not equal to itself shows in errors, no call finds it, and clearErrors clears it")
    func keyNotEqualToItself() async {
        let tracker = OperationTracker<Double, AnyError>()
        _ = await tracker.run(.nan) { () async throws -> Int in throw TestError.offline }
        #expect(tracker.errors.count == 1 && tracker.hasErrors)
        #expect(tracker.error(for: .nan) == nil)
        tracker.clearError(for: .nan)
        #expect(tracker.hasErrors)
        tracker.clearErrors()
        #expect(!tracker.hasErrors)
    }

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
        await tracker.run(.save, LoadRequest { () async throws(TestError) in throw .timedOut })
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

    // MARK: Results

    @Test("run's result tells success, failure and cancellation apart", arguments: [0, 1, 2])
    func results(kind: Int) async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let running = Task { await tracker.run(.save) { try await gate.wait() } }
        await gate.waitForArrivals()
        let expected: OperationResult<Int, AnyError>
        switch kind {
        case 0:
            gate.open(with: 1)
            expected = .success(1)
        case 1:
            gate.fail(with: Offline())
            expected = .failure(AnyError(Offline()))
        default:
            running.cancel()
            expected = .cancelled
        }
        let result = await running.value
        #expect(result == expected)
        #expect(result.value == expected.value)
        #expect(result.error == expected.error)
        #expect(result.isCancelled == (kind == 2))
    }

    @Test("an operation that throws CancellationError by itself is cancelled, not failed")
    func throwsCancellation() async {
        let tracker = Tracker()
        let result = await tracker.run(.save) { () async throws -> Int in throw CancellationError() }
        #expect(result == .cancelled)
        #expect(tracker.error(for: .save) == nil)
    }

    @Test("a typed run's failure is typed")
    func typedResult() async {
        let tracker = OperationTracker<Op, TestError>()
        let result = await tracker.run(.save, LoadRequest { () async throws(TestError) -> Int in throw .offline })
        #expect(result == .failure(.offline))
        #expect(await tracker.run(.save, LoadRequest { () async throws(TestError) -> Int in 2 }) == .success(2))
    }

    @Test("a superseded run left running (the newer one's cancellingEarlier: false) returns its own value")
    func supersededRunsToEnd() async {
        let tracker = Tracker()
        let first = Gate<Int>(), second = Gate<Int>()
        let one = Task { await tracker.run(.save) { try await first.wait() } }
        await first.waitForArrivals()
        let two = Task { await tracker.run(.save, overlap: .latestWins(cancellingEarlier: false)) { try await second.wait() } }
        await second.waitForArrivals()
        first.open(with: 1)
        #expect(await one.value == .success(1), "its work finished and was not cancelled")
        #expect(tracker.isActive(.save))
        second.open(with: 2)
        #expect(await two.value == .success(2))
    }

    // MARK: Errors

    @Test("errors lists every key's current failure; hasErrors says whether there is one")
    func errorsList() async {
        let tracker = Tracker()
        #expect(tracker.errors.isEmpty)
        #expect(!tracker.hasErrors)
        await tracker.run(.save) { throw Offline() }
        await tracker.run(.delete) { 1 }
        #expect(tracker.errors == [.save: AnyError(Offline())])
        #expect(tracker.hasErrors)
        await tracker.run(.delete) { throw TestError.timedOut }
        #expect(tracker.errors == [.save: AnyError(Offline()), .delete: AnyError(TestError.timedOut)])
    }

    @Test("clearError(for:) forgets one key's failure and returns it")
    func clearOne() async {
        let tracker = Tracker()
        await tracker.run(.save) { throw Offline() }
        await tracker.run(.delete) { throw Offline() }
        #expect(tracker.clearError(for: .save) == AnyError(Offline()))
        #expect(tracker.error(for: .save) == nil)
        #expect(tracker.errors == [.delete: AnyError(Offline())])
        #expect(!tracker.isActive(.save))
    }

    @Test("clearErrors() forgets every failure")
    func clearAll() async {
        let tracker = Tracker()
        await tracker.run(.save) { throw Offline() }
        await tracker.run(.delete) { throw Offline() }
        tracker.clearErrors()
        #expect(tracker.errors.isEmpty)
        #expect(!tracker.hasErrors)
    }

    @Test("clearing a key that never ran, or has no error, returns nil and changes nothing")
    func clearNothing() async {
        let tracker = Tracker()
        #expect(tracker.clearError(for: .save) == nil)
        await tracker.run(.save) { 1 }
        let changes = ChangeCounter()
        withObservationTracking {
            _ = tracker.errors
            _ = tracker.isActive(.save)
        } onChange: {
            changes.increment()
        }
        #expect(tracker.clearError(for: .save) == nil)
        #expect(tracker.clearError(for: .delete) == nil)
        tracker.clearErrors()
        #expect(changes.value == 0, "nothing changed, so nobody is told")
        #expect(tracker.errors.isEmpty)
    }

    @Test("an error cleared while its key runs again does not come back when that run is cancelled")
    func clearDuringRun() async {
        let tracker = Tracker()
        await tracker.run(.save) { throw Offline() }
        let gate = Gate<Int>()
        let running = Task { await tracker.run(.save) { try await gate.wait() } }
        await gate.waitForArrivals()
        #expect(tracker.error(for: .save) == nil, "a running key shows no error")
        #expect(tracker.clearError(for: .save) == nil, "nothing was showing")
        tracker.cancel(.save)
        #expect(await running.value == .cancelled)
        #expect(tracker.error(for: .save) == nil)
        #expect(!tracker.hasErrors)
    }

    @Test("without clearing, cancelling a re-run brings the earlier error back")
    func cancelledRerunKeepsError() async {
        let tracker = Tracker()
        await tracker.run(.save) { throw Offline() }
        let gate = Gate<Int>()
        let running = Task { await tracker.run(.save) { try await gate.wait() } }
        await gate.waitForArrivals()
        tracker.cancel(.save)
        _ = await running.value
        #expect(tracker.error(for: .save) == AnyError(Offline()))
    }

    @Test("errors, hasErrors and error(for:) are observable: a failure and a clear each notify")
    func errorsObservable() async {
        let tracker = Tracker()
        let failed = ChangeCounter()
        withObservationTracking {
            _ = tracker.errors
            _ = tracker.hasErrors
        } onChange: {
            failed.increment()
        }
        await tracker.run(.save) { throw Offline() }
        #expect(failed.value == 1)

        let cleared = ChangeCounter()
        withObservationTracking {
            _ = tracker.error(for: .save)
        } onChange: {
            cleared.increment()
        }
        tracker.clearError(for: .save)
        #expect(cleared.value == 1)

        await tracker.run(.delete) { throw Offline() }
        let clearedAll = ChangeCounter()
        withObservationTracking {
            _ = tracker.hasErrors
        } onChange: {
            clearedAll.increment()
        }
        tracker.clearErrors()
        #expect(clearedAll.value == 1)
    }

    @Test("cancelling with nothing running changes nothing")
    func cancelNothing() async {
        let tracker = Tracker()
        tracker.cancel(.save)
        tracker.cancelAll()
        #expect(!tracker.isAnyActive)
        await tracker.run(.save) { throw Offline() }
        tracker.cancel(.save)
        tracker.cancelAll()
        #expect(tracker.error(for: .save) == AnyError(Offline()), "a settled failure is not cancelled away")
    }

    /// The README's store: its save's closure captures the store.
    @MainActor
    final class ItemStore {
        let items = AsyncValue<[Int], AnyError>()
        let operations = OperationTracker<Op, AnyError>()

        func save() async -> OperationResult<Int, AnyError> {
            await operations.run(.save) { self.items.value?.count ?? 0 }
        }
    }

    // From an outside reading: each key kept its last run's request, which
    // nothing repeats (a tracker has no `reload()`), and with it what the
    // closure captured — the README's store, which then never went away.
    @Test("a finished run lets go of its closure: a store whose save captures it is freed")
    func runReleasesItsClosure() async {
        weak var released: ItemStore?
        do {
            let store = ItemStore()
            released = store
            #expect(await store.save() == .success(0))
            #expect(!store.operations.isActive(.save))
        }
        #expect(released == nil)
    }
}
