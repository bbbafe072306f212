import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Foundation
import Testing

/// A paged `Loadable` against a plain reference model: every sequence of up
/// to four events from four starting lists (exhaustive), and long random
/// sequences (randomized), over list load × page asked for × outcome ×
/// refresh.
@Suite("Reliability: pages")
struct PageModelTests {
    /// The reference: the rules of the two lanes of a paged list, written as
    /// plainly as possible.
    struct Model {
        var window: Int?
        var pages: [[Int]] = []
        /// The number of the first page kept, from 1.
        var firstPage = 1
        /// How many times a list load has succeeded: the elements of a list
        /// carry it, so a page of another list shows.
        var generation = 0
        var next: Int?
        var listInFlight: UInt64?
        var listNewest: UInt64?
        var listError: TestError?
        var listErrorBefore: TestError?
        var more: (id: UInt64, page: Int, list: UInt64?)?
        var moreNewest: UInt64?
        var moreError: TestError?

        var nextPage: Int { firstPage + pages.count }
        var canLoadMore: Bool { next != nil && more == nil && listInFlight == nil && generation > 0 }
        /// Whether a "load more" may start: a newer one for the same page
        /// supersedes the one in flight, as in the value lane.
        var canAskForPage: Bool { next != nil && listInFlight == nil && generation > 0 }

        mutating func listStart(_ id: UInt64) -> Bool {
            if let listNewest, id <= listNewest { return false }
            if listInFlight == nil { listErrorBefore = listError }
            listNewest = id
            listInFlight = id
            more = nil
            return true
        }

        mutating func listSettle(_ id: UInt64, _ outcome: Outcome) -> Bool {
            guard listInFlight == id else { return false }
            listInFlight = nil
            switch outcome {
            case .page(let elements, let next):
                generation += 1
                pages = [elements]
                firstPage = 1
                self.next = next
                listError = nil
                // The list is replaced: the failure of a page of the old one is gone.
                moreError = nil
            case .failure(let error): listError = error
            case .cancel: listError = listErrorBefore
            }
            return true
        }

        mutating func moreStart(_ id: UInt64, page: Int, list: UInt64?) -> Bool {
            if let moreNewest, id <= moreNewest { return false }
            guard canAskForPage, page == nextPage, list == listNewest else { return false }
            more = (id, page, list)
            moreNewest = id
            return true
        }

        mutating func moreSettle(_ id: UInt64, page: Int, list: UInt64?, _ outcome: Outcome) -> Bool {
            guard let more, more.id == id, more.page == page, more.list == list else { return false }
            self.more = nil
            switch outcome {
            case .page(let elements, let next):
                pages.append(elements)
                if let window, pages.count > max(1, window) {
                    let dropped = pages.count - max(1, window)
                    pages.removeFirst(dropped)
                    firstPage += dropped
                }
                self.next = next
                moreError = nil
            case .failure(let error): moreError = error
            case .cancel: break
            }
            return true
        }
    }

    enum Outcome {
        case page([Int], next: Int?)
        case failure(TestError)
        case cancel
    }

    /// One step of a sequence, chosen relative to what has happened so far.
    enum Event: CaseIterable {
        case refresh, listPage, listEnd, listFail, listCancel, staleListPage
        case loadMore, loadMoreOfOldList, loadMoreWrongPage
        case morePage, moreEnd, moreFail, moreCancel, morePageOfOldList, staleMorePage
    }

    /// Plays events, checking the loadable against the model after each.
    struct Player {
        var feed: Loadable<Pages<Int, Int>, TestError>
        var model: Model
        var nextID: UInt64 = 1
        var previousListID: UInt64 = 0
        var previousMore: (id: UInt64, page: Int, list: UInt64?) = (0, 0, nil)
        var nextCursor = 100
        var log: [LoadAction<Pages<Int, Int>, TestError>] = []

        init(window: Int?) {
            feed = Loadable(window: window)
            model = Model(window: window)
        }

        mutating func newID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }

        /// A page of the list of `generation`: its elements carry the generation, so a stale one is visible.
        mutating func page(_ generation: Int, end: Bool) -> ([Int], Int?) {
            nextCursor += 1
            return ([generation * 10_000 + nextCursor, generation * 10_000 + nextCursor + 5_000], end ? nil : nextCursor)
        }

        /// The list load before `list`, to ask a page of a list replaced since.
        func older(_ list: UInt64?) -> UInt64? {
            guard let list, list > 1 else { return nil }
            return list - 1
        }

        /// Applies `event`; returns what went wrong, if anything.
        mutating func play(_ event: Event) -> String? {
            let before = feed
            let expected: Bool
            let action: LoadAction<Pages<Int, Int>, TestError>
            let listID = model.listInFlight ?? previousListID
            let more = model.more ?? previousMore
            let request = PageRequest(page: more.page, list: more.list.map(LoadID.init))
            switch event {
            case .refresh:
                let id = newID()
                if let current = model.listInFlight { previousListID = current }
                action = .started(LoadID(id))
                expected = model.listStart(id)
            case .listPage, .listEnd, .staleListPage:
                let id = event == .staleListPage ? previousListID : listID
                let (elements, next) = page(model.generation + 1, end: event == .listEnd)
                action = .finished(LoadID(id), Pages(elements, next: next))
                expected = model.listSettle(id, .page(elements, next: next))
            case .listFail:
                action = .failed(LoadID(listID), .offline)
                expected = model.listSettle(listID, .failure(.offline))
            case .listCancel:
                action = .cancelled(LoadID(listID))
                expected = model.listSettle(listID, .cancel)
            case .loadMore, .loadMoreOfOldList, .loadMoreWrongPage:
                let id = newID()
                let list = event == .loadMoreOfOldList ? older(model.listNewest) : model.listNewest
                let page = model.nextPage + (event == .loadMoreWrongPage ? 1 : 0)
                if let current = model.more { previousMore = current }
                action = .more(PageRequest(page: page, list: list.map(LoadID.init)), .started(LoadID(id)))
                expected = model.moreStart(id, page: page, list: list)
            case .morePage, .moreEnd, .staleMorePage, .morePageOfOldList:
                let settling = event == .staleMorePage ? previousMore : more
                let list = event == .morePageOfOldList ? older(settling.list) : settling.list
                let (elements, next) = page(model.generation, end: event == .moreEnd)
                let tagged = PageRequest(page: settling.page, list: list.map(LoadID.init))
                action = .more(tagged, .finished(LoadID(settling.id), Pages(elements, next: next)))
                expected = model.moreSettle(settling.id, page: settling.page, list: list, .page(elements, next: next))
            case .moreFail:
                action = .more(request, .failed(LoadID(more.id), .timedOut))
                expected = model.moreSettle(more.id, page: more.page, list: more.list, .failure(.timedOut))
            case .moreCancel:
                action = .more(request, .cancelled(LoadID(more.id)))
                expected = model.moreSettle(more.id, page: more.page, list: more.list, .cancel)
            }
            log.append(action)
            let applied = feed.apply(action) == .applied
            if applied != expected { return "\(action) applied: \(applied), model says \(expected)" }
            if !applied, feed != before { return "dropped \(action) changed the state" }
            return check()
        }

        func check() -> String? {
            let elements = feed.value?.elements ?? []
            guard elements == model.pages.flatMap({ $0 }) else { return "elements \(elements), model \(model.pages)" }
            guard elements.allSatisfy({ $0 / 10_000 == model.generation }) else { return "a page of another list is shown" }
            guard feed.value?.next == model.next, feed.value?.pageCount ?? 0 == model.pages.count,
                feed.value.map({ $0.nextPage }) ?? 1 == model.nextPage
            else {
                return "list \(feed), model \(model.pages.count) pages from \(model.firstPage), next \(String(describing: model.next))"
            }
            // Like any `Loadable`, the list shows its error only while nothing is in flight.
            let listError = model.listInFlight == nil ? model.listError : nil
            guard feed.inFlightID?.rawValue == model.listInFlight, feed.error == listError,
                feed.newestID?.rawValue == model.listNewest
            else {
                return
                    "list lane \(feed), model in flight \(String(describing: model.listInFlight)) error \(String(describing: model.listError))"
            }
            guard feed.moreID?.rawValue == model.more?.id, feed.moreError == model.moreError,
                feed.newestMoreID?.rawValue == model.moreNewest
            else {
                return "more lane \(feed), model \(String(describing: model.more)) error \(String(describing: model.moreError))"
            }
            guard !(feed.isLoading && feed.isLoadingMore) else { return "a load more in flight while the list loads" }
            let nextRequest = model.canLoadMore ? PageRequest(page: model.nextPage, list: model.listNewest.map(LoadID.init)) : nil
            guard feed.nextRequest == nextRequest else {
                return "nextRequest \(String(describing: feed.nextRequest)), model \(String(describing: nextRequest))"
            }
            guard feed.hasMore == (model.next != nil && model.generation > 0) else { return "hasMore \(feed.hasMore)" }
            return nil
        }
    }

    /// The starting lists: empty, loaded with more to come, loading more, and refreshing.
    static func starts(window: Int?) -> [(String, Player)] {
        var empty = Player(window: window)
        var loaded = empty
        _ = loaded.play(.refresh)
        _ = loaded.play(.listPage)
        var loadingMore = loaded
        _ = loadingMore.play(.loadMore)
        var refreshing = loadingMore
        _ = refreshing.play(.refresh)
        empty.log = []
        return [("empty", empty), ("loaded", loaded), ("loading more", loadingMore), ("refreshing over a load more", refreshing)]
    }

    @Test(
        "every sequence of events from four starting lists agrees with the model: up to four with no window, three with a window of one",
        // One event shorter under the thread sanitizer, as `ExhaustiveInterleavingTests.checkedStarts` explains.
        arguments: (RandomizedRun.isSanitized ? [(nil, 3), (1, 2)] : [(nil, 4), (1, 3)]) as [(Int?, Int)])
    func exhaustive(window: Int?, depth: Int) async {
        let events = Event.allCases
        var tally = ExhaustiveTally()
        func extend(_ player: Player, depth: Int, start: String) async {
            for event in events {
                var next = player
                // The log is joined only for a failure: most cases pass.
                let problem = next.play(event).map { "\($0)\n" + next.log.map(\.description).joined(separator: "\n") }
                guard await tally.count(problem, "from \(start)") else { continue }
                if depth > 1 { await extend(next, depth: depth - 1, start: start) }
            }
        }
        for (name, player) in Self.starts(window: window) {
            await extend(player, depth: depth, start: name)
        }
        tally.expect(
            "exhaustive page sequences (window \(window.map(String.init) ?? "none"))",
            checked: 4 * (1...depth).reduce(0) { total, length in total + (0..<length).reduce(1) { product, _ in product * 15 } })
    }

    @Test("random sequences agree with the model (ASYNCSTATE_SEED, ASYNCSTATE_SEQUENCES)")
    func randomized() async {
        let events = Event.allCases
        await RandomizedRun(defaultCount: 5_000, sanitizedMaximum: 1_000).playSequences { seed in
            var random = SplitMix64(seed: seed)
            let window: Int? = [nil, 0, 1, 2, 3].randomElement(using: &random)!
            var player = Player(window: window)
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                if let problem = player.play(events.randomElement(using: &random)!) {
                    return "\(problem)\nwindow \(String(describing: window))\n" + player.log.map(\.description).joined(separator: "\n")
                }
            }
            return nil
        }
    }
}
