import AsyncState
import AsyncStateTestSupport
import Testing

/// `Loadable.activity`: why a load runs and which attempt it is on, beside
/// the five-case `AsyncState`.
@Suite("Activity")
struct LoadActivityTests {
    // From mutation testing: equality ignored the wait, so a banner's
    // "retrying in 2 s" did not change to "in 4 s".
    @Test("two retry reports that differ only in their wait are not equal")
    func retryReportsDifferingInWait() {
        let sooner = LoadRetry(attempt: 1, of: 3, failure: TestError.offline, wait: .seconds(1))
        #expect(sooner != LoadRetry(attempt: 1, of: 3, failure: TestError.offline, wait: .seconds(2)))
        #expect(sooner == LoadRetry(attempt: 1, of: 3, failure: TestError.offline, wait: .seconds(1)))
    }

    static func loadable(_ actions: LoadAction<Int, TestError>...) -> Resource {
        var resource = Resource()
        for action in actions { _ = resource.apply(action) }
        return resource
    }

    @Test(
        "the reason comes from the state the chain of loads began in",
        arguments: [
            (loadable(.started(id(1))), LoadActivity<TestError>.Reason.firstLoad, TestError?.none),
            (loadable(.started(id(1)), .finished(id(1), 5), .started(id(2))), .refresh, nil),
            (loadable(.started(id(1)), .failed(id(1), .offline), .started(id(2))), .retryAfterFailure, .offline),
            (
                loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)), .failed(id(2), .timedOut), .started(id(3))),
                .retryAfterFailure, .timedOut
            ),
            // A newer load continues the chain: its reason is the chain's.
            (loadable(.started(id(1)), .failed(id(1), .offline), .started(id(2)), .started(id(3))), .retryAfterFailure, .offline),
        ])
    func reason(resource: Resource, reason: LoadActivity<TestError>.Reason, lastFailure: TestError?) {
        #expect(resource.activity?.reason == reason)
        #expect(resource.activity?.attempt == 1)
        #expect(resource.activity?.lastFailure == lastFailure)
        #expect(resource.error == nil)
    }

    @Test("a retry moves to the next attempt and keeps the value on screen")
    func retry() {
        var resource = Self.loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)))
        let retry = LoadRetry<TestError>(attempt: 1, of: 3, failure: .offline, wait: .seconds(4))
        #expect(resource.apply(.retrying(id(2), retry)) == .applied)
        #expect(resource.state == .refreshing(value: 5))
        #expect(resource.activity?.reason == .refresh)
        #expect(resource.activity?.isRetry == true)
        #expect(
            resource.description
                == "refreshing(value: 5) (#2 in flight) (refresh, attempt 2 of 3 after 4.0 seconds (last failure: offline))")
    }

    @Test("a retry report of attempt Int.max (one read from a file, say) stays there on both lanes; it never traps")
    func retryOfLastAttempt() {
        let retry = LoadRetry<TestError>(attempt: .max, of: 3, failure: .offline, wait: .zero)
        var resource = Self.loadable(.started(id(1)))
        #expect(resource.apply(.retrying(id(1), retry)) == .applied)
        #expect(resource.activity?.attempt == .max)
        var list = Loadable<Pages<Int, Int>, TestError>()
        _ = list.apply(.started(id(1)))
        _ = list.apply(.finished(id(1), Pages([1], next: 2)))
        let more = PageRequest(page: 2, list: id(1))
        _ = list.apply(.more(more, .started(id(2))))
        #expect(list.apply(.more(more, .retrying(id(2), retry))) == .applied)
        #expect(list.moreActivity?.attempt == .max)
    }

    @Test("a plan says how many attempts the load makes, from its first attempt on")
    func plan() {
        var resource = Self.loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)))
        #expect(resource.apply(.planned(id(2), attempts: 3)) == .applied)
        #expect(resource.activity == LoadActivity(reason: .refresh, attempt: 1, attempts: 3))
        #expect(resource.activity?.isRetry == false)
        #expect(resource.activity?.description == "refresh, attempt 1 of 3")
        #expect(resource.description == "refreshing(value: 5) (#2 in flight)", "a first attempt is not a retry")
        _ = resource.apply(.retrying(id(2), LoadRetry(attempt: 1, of: 3, failure: .offline, wait: .seconds(1))))
        #expect(resource.activity == LoadActivity(reason: .refresh, attempt: 2, attempts: 3, wait: .seconds(1), lastFailure: .offline))
    }

    @Test("retries, progress and plans for a load not in flight are dropped and change nothing", arguments: [UInt64(1), 3])
    func staleIsDropped(raw: UInt64) {
        var resource = Self.loadable(.started(id(1)), .started(id(2)))
        let before = resource
        #expect(resource.apply(.retrying(id(raw), LoadRetry(attempt: 1, of: 2, failure: .offline, wait: .zero))) == .dropped)
        #expect(resource.apply(.progress(id(raw), 8)) == .dropped)
        #expect(resource.apply(.planned(id(raw), attempts: 2)) == .dropped)
        #expect(resource == before)
    }

    @Test("with nothing in flight, retries, progress and plans are dropped")
    func settledDrops() {
        var resource = Self.loadable(.started(id(1)), .finished(id(1), 5))
        let before = resource
        #expect(resource.apply(.progress(id(1), 8)) == .dropped)
        #expect(resource.apply(.retrying(id(1), LoadRetry(attempt: 1, of: 2, failure: .offline, wait: .zero))) == .dropped)
        #expect(resource.apply(.planned(id(1), attempts: 2)) == .dropped)
        #expect(resource.state == .success(value: 5))
        #expect(resource == before)
    }

    @Test("a load more of a paged list runs for the next page; after a failed one, as a retry after that failure")
    func moreActivity() {
        var list = Loadable<Pages<Int, Int>, TestError>()
        _ = list.apply(.started(id(1)))
        _ = list.apply(.finished(id(1), Pages([1, 2], next: 2)))
        let more = PageRequest(page: 2, list: id(1))
        #expect(list.apply(.more(more, .started(id(2)))) == .applied)
        #expect(list.moreActivity == LoadActivity(reason: .nextPage))
        #expect(list.activity == nil, "the value lane is settled")
        _ = list.apply(.more(more, .failed(id(2), .offline)))
        #expect(list.moreActivity == nil)
        #expect(list.moreError == .offline)
        _ = list.apply(.more(more, .started(id(3))))
        #expect(list.moreActivity == LoadActivity(reason: .retryAfterFailure, lastFailure: .offline))
    }

    @Test("an activity built by value equals the one the state machine makes")
    func publicInitializer() {
        let resource = Self.loadable(.started(id(1)), .failed(id(1), .offline), .started(id(2)), .planned(id(2), attempts: 2))
        #expect(resource.activity == LoadActivity(reason: .retryAfterFailure, attempt: 1, attempts: 2, wait: nil, lastFailure: .offline))
        #expect(resource.activity != LoadActivity(reason: .retryAfterFailure, attempts: 2))
    }

    @Test(
        "every settling action clears the activity and the partial value",
        arguments: [
            LoadAction<Int, TestError>.finished(id(2), 7), .failed(id(2), .offline), .cancelled(id(2)),
        ])
    func settlingClears(action: LoadAction<Int, TestError>) {
        var resource = Self.loadable(.started(id(1)), .finished(id(1), 5), .started(id(2)), .progress(id(2), 6))
        #expect(resource.value == 6)
        _ = resource.apply(action)
        #expect(resource.activity == nil)
        #expect(resource.partialValue == nil)
        #expect(resource.value == (action == .finished(id(2), 7) ? 7 : 5))
    }

    @Test("load actions print their retries, progress and plans")
    func descriptions() {
        let retry = LoadRetry<TestError>(attempt: 2, of: 3, failure: .offline, wait: .seconds(2))
        #expect(
            LoadAction<Int, TestError>.retrying(id(4), retry).description
                == "retrying(#4, attempt 2 of 3 failed: offline; next in 2.0 seconds)")
        #expect(LoadAction<String, TestError>.progress(id(4), "ab").description == #"progress(#4, "ab")"#)
        #expect(LoadAction<Int, TestError>.progress(id(4), 1).id == id(4))
        #expect(LoadAction<Int, TestError>.planned(id(4), attempts: 3).description == "planned(#4, 3 attempts)")
        #expect(LoadAction<Int, TestError>.planned(id(4), attempts: 3).id == id(4))
    }
}
