import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

typealias Feed = Loadable<Pages<Post, Int>, TestError>

func t(_ seconds: Int) -> LoadClock.Instant { LoadClock.Instant(offset: .seconds(seconds)) }

@Suite("A paged, fresh, optimistic list is one loadable")
struct ComposedLoadableTests {
    @Test("a like pending across a load more and a refresh stays shown, and is not lost once confirmed")
    func likeAcrossPagesAndRefresh() {
        var feed = Feed()
        #expect(feed.apply(.started(id(1))) == .applied)
        #expect(feed.apply(.at(t(0), .finished(id(1), page(1...3, next: 2)))) == .applied)
        #expect(feed.settledAt == t(0))
        #expect(feed.apply(.edit(.started(id(2), AnyEdit(SetLiked(postID: 5, liked: true))))) == .applied)
        // Post 5 is not loaded yet: the like waits, unshown, as a conflict.
        #expect(feed.conflicts == [id(2)])
        let more = PageRequest(page: 2, list: id(1))
        #expect(feed.nextRequest == more)
        #expect(feed.apply(.more(more, .started(id(3)))) == .applied)
        #expect(feed.apply(.more(more, .finished(id(3), page(4...6, next: nil)))) == .applied)
        // The new page brings post 5: the pending like now shows on it.
        #expect(feed.value?.map(\.description) == ["1", "2", "3", "4", "5♥", "6"])
        #expect(feed.conflicts.isEmpty)
        // A refresh starts; the like is confirmed while it runs; the refresh
        // read the server before the like, yet what settles keeps it.
        #expect(feed.apply(.started(id(4))) == .applied)
        #expect(feed.apply(.edit(.confirmed(id(2)))) == .applied)
        #expect(feed.apply(.at(t(5), .finished(id(4), page(1...6, next: nil)))) == .applied)
        #expect(feed.value?.filter(\.isLiked).map(\.id) == [5])
        #expect(feed.confirmedValue?.filter(\.isLiked).map(\.id) == [5])
        #expect(feed.pendingEdits.isEmpty)
        #expect(!feed.isStale(maxAge: .seconds(60), at: t(30)))
        #expect(feed.isStale(maxAge: .seconds(60), at: t(65)))
    }

    @Test("a refresh supersedes a load more in flight; its page is dropped")
    func refreshSupersedesMore() {
        var feed = Feed()
        _ = feed.apply(.started(id(1)))
        _ = feed.apply(.finished(id(1), page(1...3, next: 2)))
        let more = PageRequest(page: 2, list: id(1))
        _ = feed.apply(.more(more, .started(id(2))))
        #expect(feed.isLoadingMore)
        #expect(feed.apply(.started(id(3))) == .applied)
        #expect(!feed.isLoadingMore)
        #expect(feed.apply(.more(more, .finished(id(2), page(4...6, next: nil)))) == .dropped)
        #expect(feed.value?.count == 3)
    }

    @Test("a load more for a list replaced since it was asked is dropped")
    func moreOfAReplacedList() {
        var feed = Feed()
        _ = feed.apply(.started(id(1)))
        _ = feed.apply(.finished(id(1), page(1...3, next: 2)))
        _ = feed.apply(.started(id(2)))
        _ = feed.apply(.finished(id(2), page(1...3, next: 2)))
        #expect(feed.apply(.more(PageRequest(page: 2, list: id(1)), .started(id(3)))) == .dropped)
    }

    @Test("finding 9: a progress step of a load that predates a confirmed edit keeps the edit, and so does its end")
    func progressKeepsConfirmedEdit() {
        var posts = Loadable<[Int], TestError>(value: [0, 0, 0])
        let like = AnyEdit(SetNumber(index: 1, to: 1))
        _ = posts.apply(.started(id(1)))
        _ = posts.apply(.edit(.started(id(2), like)))
        _ = posts.apply(.edit(.confirmed(id(2))))
        #expect(posts.value == [0, 1, 0])
        _ = posts.apply(.progress(id(1), [0, 0, 0, 0]))
        #expect(posts.value == [0, 1, 0, 0])
        _ = posts.apply(.finished(id(1), [0, 0, 0, 0, 0]))
        #expect(posts.value == [0, 1, 0, 0, 0])
        #expect(posts.confirmedValue == [0, 1, 0, 0, 0])
    }

    @Test("finding 3: a failed background reload leaves the value shown and stale")
    func failedReloadIsStale() {
        var user = Loadable<Int, TestError>()
        _ = user.apply(.started(id(1)))
        _ = user.apply(.at(t(0), .finished(id(1), 7)))
        #expect(!user.isStale(maxAge: .seconds(60), at: t(1)))
        _ = user.apply(.started(id(2)))
        _ = user.apply(.failed(id(2), .offline))
        #expect(user.value == 7)
        #expect(user.isStale(maxAge: .seconds(60), at: t(1)))
    }

    @Test("a queued load waits in the state, starts in its turn, or leaves the queue when cancelled")
    func queue() {
        var save = Loadable<Int, TestError>()
        _ = save.apply(.started(id(1)))
        #expect(save.apply(.queued(id(2))) == .applied)
        #expect(save.apply(.queued(id(3))) == .applied)
        #expect(save.queuedIDs == [id(2), id(3)])
        _ = save.apply(.finished(id(1), 1))
        #expect(save.apply(.started(id(2))) == .applied)
        #expect(save.queuedIDs == [id(3)])
        #expect(save.apply(.cancelled(id(3))) == .applied)
        #expect(save.queuedIDs.isEmpty)
        #expect(save.inFlightID == id(2))
    }
}

/// Sets one number of an array.
struct SetNumber: Edit {
    var index: Int
    var to: Int
    func apply(to numbers: inout [Int]) -> Bool {
        guard numbers.indices.contains(index) else { return false }
        numbers[index] = to
        return true
    }
}
