import AsyncState
import AsyncStateTestSupport
import Testing

typealias Resource = Loadable<Int, TestError>

/// Builds a loadable by applying `actions` in order.
func loadable(_ actions: LoadAction<Int, TestError>...) -> Resource {
    var resource = Resource()
    for action in actions { _ = resource.apply(action) }
    return resource
}

@Suite("Loadable: .started")
struct LoadableStartedTests {
    @Test("a first load shows .loading")
    func firstLoad() {
        var resource = Resource()
        #expect(resource.apply(.started(id(1))) == .applied)
        #expect(resource.state == .loading)
        #expect(resource.inFlightID == id(1))
        #expect(resource.isLoading)
    }

    @Test("a reload keeps the value on screen as .refreshing")
    func reload() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5))
        #expect(resource.apply(.started(id(2))) == .applied)
        #expect(resource.state == .refreshing(value: 5))
    }

    @Test("a reload after a failed refresh shows the last value, not .loading")
    func reloadAfterFailedRefresh() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)), .failed(id(2), .offline))
        _ = resource.apply(.started(id(3)))
        #expect(resource.state == .refreshing(value: 5))
    }

    @Test("a start while another load is in flight supersedes it")
    func supersedes() {
        var resource = loadable(.started(id(1)))
        #expect(resource.apply(.started(id(2))) == .applied)
        #expect(resource.inFlightID == id(2))
        #expect(resource.state == .loading)
    }

    @Test("an ID that is not newer than every ID seen is dropped", arguments: [1, 2] as [UInt64])
    func olderOrEqualDropped(raw: UInt64) {
        var resource = loadable(.started(id(2)), .finished(id(2), 5))
        let before = resource
        #expect(resource.apply(.started(id(raw))) == .dropped)
        #expect(resource == before)
    }
}

@Suite("Loadable: .finished")
struct LoadableFinishedTests {
    @Test("the newest load's value is shown and remembered")
    func newest() {
        var resource = loadable(.started(id(1)))
        #expect(resource.apply(.finished(id(1), 7)) == .applied)
        #expect(resource.state == .success(value: 7))
        #expect(resource.value == 7)
        #expect(!resource.isLoading)
    }

    @Test("a superseded load's value is dropped, however late it arrives")
    func superseded() {
        var resource = loadable(.started(id(1)), .started(id(2)))
        #expect(resource.apply(.finished(id(1), 1)) == .dropped)
        #expect(resource.state == .loading)
        _ = resource.apply(.finished(id(2), 2))
        #expect(resource.apply(.finished(id(1), 1)) == .dropped)
        #expect(resource.state == .success(value: 2))
    }

    @Test("a duplicate finish is dropped")
    func duplicate() {
        var resource = loadable(.started(id(1)), .finished(id(1), 1))
        #expect(resource.apply(.finished(id(1), 9)) == .dropped)
        #expect(resource.value == 1)
    }

    @Test("a finish for a load never started is dropped")
    func unknown() {
        var resource = loadable(.started(id(1)))
        #expect(resource.apply(.finished(id(5), 9)) == .dropped)
        #expect(resource.state == .loading)
    }
}

@Suite("Loadable: .failed")
struct LoadableFailedTests {
    @Test("the newest load's failure is shown")
    func newest() {
        var resource = loadable(.started(id(1)))
        #expect(resource.apply(.failed(id(1), .offline)) == .applied)
        #expect(resource.state == .error(error: .offline))
        #expect(resource.error == .offline)
        #expect(resource.value == nil)
    }

    @Test("after a failed refresh the last value stays readable for content plus a banner")
    func keepsValue() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)))
        _ = resource.apply(.failed(id(2), .offline))
        #expect(resource.state == .error(error: .offline))
        #expect(resource.value == 5)
        #expect(resource.error == .offline)
    }

    @Test("a superseded load's failure is dropped")
    func superseded() {
        var resource = loadable(.started(id(1)), .started(id(2)), .finished(id(2), 2))
        #expect(resource.apply(.failed(id(1), .offline)) == .dropped)
        #expect(resource.state == .success(value: 2))
    }
}

@Suite("Loadable: .cancelled")
struct LoadableCancelledTests {
    @Test("cancelling a first load returns to .notLoaded, not .error")
    func firstLoad() {
        var resource = loadable(.started(id(1)))
        #expect(resource.apply(.cancelled(id(1))) == .applied)
        #expect(resource.state == .notLoaded)
        #expect(!resource.isLoading)
    }

    @Test("cancelling a reload returns to the previous value")
    func reload() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)))
        _ = resource.apply(.cancelled(id(2)))
        #expect(resource.state == .success(value: 5))
    }

    @Test("cancelling after a failed refresh returns to the settled failure")
    func afterFailedRefresh() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)), .failed(id(2), .offline), .started(id(3)))
        #expect(resource.state == .refreshing(value: 5))
        _ = resource.apply(.cancelled(id(3)))
        #expect(resource.state == .error(error: .offline))
        #expect(resource.value == 5)
    }

    @Test("cancelling the newest of overlapping loads returns to the state before the chain began")
    func chain() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)), .started(id(3)))
        _ = resource.apply(.cancelled(id(3)))
        #expect(resource.state == .success(value: 5))
        #expect(resource.apply(.finished(id(2), 2)) == .dropped)
    }

    @Test("a superseded load's cancellation is dropped")
    func superseded() {
        var resource = loadable(.started(id(1)), .started(id(2)))
        #expect(resource.apply(.cancelled(id(1))) == .dropped)
        #expect(resource.state == .loading)
        #expect(resource.inFlightID == id(2))
    }

    @Test("cancel(load:) cancels the load in flight or a queued one and says which; an unknown or settled ID is nil")
    func cancelLoadByID() {
        var resource = loadable(.started(id(1)), .queued(id(2)))
        #expect(resource.cancel(load: id(2)) == id(2))
        #expect(resource.queuedIDs.isEmpty)
        #expect(resource.inFlightID == id(1))
        #expect(resource.cancel(load: id(9)) == nil)
        #expect(resource.cancel(load: id(1)) == id(1))
        #expect(resource.state == .notLoaded)
        #expect(resource.cancel(load: id(1)) == nil)
    }

    @Test("cancel() cancels the load in flight and says which")
    func cancelMethod() {
        var resource = loadable(.started(id(1)))
        #expect(resource.cancel() == id(1))
        #expect(resource.state == .notLoaded)
        #expect(resource.cancel() == nil)
    }
}

@Suite("Loadable: local updates and reset")
struct LoadableLocalTests {
    @Test("setValue while settled succeeds")
    func setValueSettled() {
        var resource = Resource()
        resource.setValue(4)
        #expect(resource.state == .success(value: 4))
        #expect(resource.value == 4)
    }

    @Test("setValue during a load keeps the refresh indicator (streamed partial results)")
    func setValueInFlight() {
        var resource = loadable(.started(id(1)))
        resource.setValue(4)
        #expect(resource.state == .refreshing(value: 4))
        resource.setValue(5)
        #expect(resource.state == .refreshing(value: 5))
        _ = resource.apply(.finished(id(1), 6))
        #expect(resource.state == .success(value: 6))
    }

    @Test("cancelling after a partial result returns to that result")
    func cancelAfterPartial() {
        var resource = loadable(.started(id(1)))
        resource.setValue(4)
        _ = resource.apply(.cancelled(id(1)))
        #expect(resource.state == .success(value: 4))
    }

    @Test("reset forgets the value and drops the load in flight")
    func reset() {
        var resource = loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)))
        #expect(resource.reset() == id(2))
        #expect(resource.state == .notLoaded)
        #expect(resource.value == nil)
        #expect(resource.apply(.finished(id(2), 9)) == .dropped)
        #expect(resource.apply(.started(id(2))) == .dropped)
        #expect(resource.apply(.started(id(3))) == .applied)
        #expect(resource.state == .loading)
    }

    @Test("init(value:) starts as a success")
    func initWithValue() {
        let resource = Resource(value: 3)
        #expect(resource.state == .success(value: 3))
        #expect(resource.value == 3)
    }

    @Test("description shows the state, the load in flight and the loads queued")
    func description() {
        #expect(loadable(.started(id(1)), .finished(id(1), 5), .started(id(2))).description == "refreshing(value: 5) (#2 in flight)")
        #expect(
            loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)), .failed(id(2), .offline)).description
                == "error(error: offline) (last value: 5)")
        #expect(loadable(.started(id(1)), .queued(id(2)), .queued(id(3))).description == "loading (#1 in flight) (queued: #2, #3)")
    }
}
