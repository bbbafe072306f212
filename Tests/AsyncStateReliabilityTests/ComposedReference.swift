import AsyncStateTestSupport

// The reference of the composed model check: what one paged list that is
// also stamped (fresh), queued, retried and edited should do, written as
// plainly as possible — plain Swift, no library code. Rows are numbers
// `row * 1000 + version`; a page is a list of rows.

/// A list kept page by page.
struct PlainPages: Equatable, CustomStringConvertible {
    var pages: [[Int]]
    /// The number of the first page kept, from 1.
    var firstPage = 1
    /// The cursor of the page after the last, or `nil` at the end.
    var next: Int?

    var elements: [Int] { pages.flatMap { $0 } }
    var nextPage: Int { firstPage + pages.count }

    /// Appends `page`'s pages and takes its cursor, keeping at most `window` pages.
    mutating func append(_ page: PlainPages, window: Int?) {
        pages += page.pages
        next = page.next
        keep(window: window)
    }

    /// Lets the oldest pages go until at most `window` are left.
    mutating func keep(window: Int?) {
        if let window, pages.count > max(window, 1) {
            let dropped = pages.count - max(window, 1)
            pages.removeFirst(dropped)
            firstPage += dropped
        }
    }

    var description: String { "\(pages) from page \(firstPage), next \(next.map(String.init) ?? "none")" }
}

/// Sets the version of one row, if the row is there.
struct PlainEdit: Equatable, CustomStringConvertible {
    var row: Int
    var version: Int

    func apply(to list: inout PlainPages) -> Bool {
        for page in list.pages.indices {
            if let index = list.pages[page].firstIndex(where: { $0 / 1_000 == row }) {
                list.pages[page][index] = row * 1_000 + version
                return true
            }
        }
        return false
    }

    var description: String { "row \(row) → v\(version)" }
}

/// Why a lane's load runs, and which attempt it is on.
struct PlainActivity: Equatable {
    enum Reason: Equatable { case firstLoad, refresh, retryAfterFailure, nextPage }
    var reason: Reason
    var attempt = 1
    var attempts: Int?
    var wait: Duration?
    var lastFailure: TestError?
}

/// What a screen sees of the list's value lane.
enum PlainState: Equatable {
    case notLoaded, loading
    case refreshing([Int])
    case success([Int])
    case error(TestError)
}

/// The whole list: value lane with its queue and freshness, more lane, edits.
struct ComposedReference {
    enum Settled: Equatable {
        case notLoaded, success
        case failure(TestError)
    }

    var window: Int?

    // The value lane.
    var confirmed: PlainPages?
    var partial: PlainPages?
    var settled = Settled.notLoaded
    var inFlight: UInt64?
    var newest: UInt64?
    var activity: PlainActivity?
    var queue: [UInt64] = []

    // Freshness.
    var settledAt: Int?
    /// The newest load started (not queued) when last invalidated (`.some(nil)`: none had started); `nil` if not invalidated.
    var mark: UInt64??

    // The more lane.
    var more: (id: UInt64, page: Int, list: UInt64?)?
    var moreNewest: UInt64?
    var moreActivity: PlainActivity?
    var moreError: TestError?

    // Edits.
    var pending: [(id: UInt64, edit: PlainEdit)] = []
    /// Edits confirmed while a load that may have read the server before them runs.
    var unreflected: [PlainEdit] = []
    var editNewest: UInt64?
    var editError: TestError?

    // MARK: What it shows

    /// The value lane's base with every pending edit applied in order.
    var shown: PlainPages? {
        guard var value = partial ?? confirmed else { return nil }
        for (_, edit) in pending { _ = edit.apply(to: &value) }
        return value
    }

    /// The pending edits that do not apply where they come.
    var conflicts: [UInt64] {
        guard var value = partial ?? confirmed else { return [] }
        return pending.compactMap { edit in edit.edit.apply(to: &value) ? nil : edit.id }
    }

    var state: PlainState {
        if inFlight != nil { return shown.map { .refreshing($0.elements) } ?? .loading }
        switch settled {
        case .notLoaded: return .notLoaded
        case .failure(let failure): return .error(failure)
        case .success: return shown.map { .success($0.elements) } ?? .notLoaded
        }
    }

    var error: TestError? {
        guard inFlight == nil, case .failure(let failure) = settled else { return nil }
        return failure
    }

    var nextRequest: (page: Int, list: UInt64?)? {
        guard inFlight == nil, more == nil, let confirmed, confirmed.next != nil else { return nil }
        return (confirmed.nextPage, newest)
    }

    var isInvalidated: Bool { mark != nil }

    func isOvertaken(_ id: UInt64) -> Bool {
        guard case .some(.some(let before)) = mark else { return false }
        return id <= before
    }

    /// Whether a poll tick reloads: no "load more" in flight, and every
    /// load in flight or queued started before the last invalidation.
    var isDueForPollTick: Bool {
        guard more == nil else { return false }
        return ([inFlight].compactMap { $0 } + queue).allSatisfy { id in
            if case .some(.some(let newest)) = mark { id <= newest } else { false }
        }
    }

    func isStale(maxAge: Int, now: Int) -> Bool {
        guard mark == nil, settled == .success, confirmed != nil, let settledAt, maxAge > 0 else { return true }
        return settledAt + maxAge <= now
    }

    func reapplied(_ value: PlainPages) -> PlainPages {
        var value = value
        for edit in unreflected { _ = edit.apply(to: &value) }
        return value
    }

    // MARK: The value lane

    /// `.started(id)`: newer than every ID seen, or a queued load's turn.
    /// Either way a refresh: it supersedes a load more in flight, and reads
    /// the server after every edit confirmed so far.
    mutating func start(_ id: UInt64) -> Bool {
        if let newest, id <= newest {
            guard queue.contains(id) else { return false }
            queue.removeAll { $0 <= id }
        } else {
            newest = id
            queue.removeAll { $0 < id }
        }
        more = nil
        moreActivity = nil
        unreflected = []
        inFlight = id
        partial = nil
        activity = startingActivity
        return true
    }

    var startingActivity: PlainActivity {
        if case .failure(let failure) = settled { return PlainActivity(reason: .retryAfterFailure, lastFailure: failure) }
        return PlainActivity(reason: confirmed == nil ? .firstLoad : .refresh)
    }

    mutating func enqueue(_ id: UInt64) -> Bool {
        if let newest, id <= newest { return false }
        newest = id
        queue.append(id)
        return true
    }

    mutating func finish(_ id: UInt64, _ value: PlainPages, at now: Int) -> Bool {
        guard inFlight == id else { return false }
        confirmed = reapplied(value)
        confirmed?.keep(window: window)
        settledAt = now
        if mark != nil, !isOvertaken(id) { mark = nil }
        // The list is replaced: the failure of a page of the old one is gone.
        moreError = nil
        settle(.success)
        return true
    }

    mutating func fail(_ id: UInt64, _ failure: TestError) -> Bool {
        guard inFlight == id else { return false }
        settle(.failure(failure))
        return true
    }

    mutating func cancel(_ id: UInt64) -> Bool {
        if inFlight == id {
            settle(settled)
            return true
        }
        guard let index = queue.firstIndex(of: id) else { return false }
        queue.remove(at: index)
        return true
    }

    mutating func settle(_ settled: Settled) {
        self.settled = settled
        inFlight = nil
        activity = nil
        partial = nil
        if more == nil { unreflected = [] }
    }

    mutating func progress(_ id: UInt64, _ value: PlainPages) -> Bool {
        guard inFlight == id else { return false }
        partial = reapplied(value)
        partial?.keep(window: window)
        return true
    }

    mutating func retry(_ id: UInt64, attempt: Int, of attempts: Int, failure: TestError, wait: Duration) -> Bool {
        guard inFlight == id, let activity else { return false }
        self.activity = PlainActivity(reason: activity.reason, attempt: attempt + 1, attempts: attempts, wait: wait, lastFailure: failure)
        partial = nil
        return true
    }

    mutating func plan(_ id: UInt64, attempts: Int) -> Bool {
        guard inFlight == id else { return false }
        activity?.attempts = attempts
        return true
    }

    mutating func invalidate() {
        // A queued load starts on its turn, after this: not overtaken.
        mark = .some(queue.first.map { inFlight ?? ($0 > 0 ? $0 - 1 : nil) } ?? newest)
    }

    /// `setValue(value)`: the value set locally is the confirmed one, as a
    /// success, its oldest pages past the window gone; what a load streamed is gone. Its age, a load in flight and
    /// the other lanes stay.
    mutating func setValue(_ value: PlainPages) {
        confirmed = value
        confirmed?.keep(window: window)
        partial = nil
        settled = .success
    }

    // MARK: The more lane

    /// The page a "load more" must ask for, one in flight or not: a newer
    /// start for it supersedes the one in flight, as in the value lane.
    var pageRequest: (page: Int, list: UInt64?)? {
        guard inFlight == nil, let confirmed, confirmed.next != nil else { return nil }
        return (confirmed.nextPage, newest)
    }

    mutating func moreStart(_ id: UInt64, page: Int, list: UInt64?) -> Bool {
        if let moreNewest, id <= moreNewest { return false }
        guard let request = pageRequest, request.page == page, request.list == list else { return false }
        more = (id, page, list)
        moreNewest = id
        moreActivity = PlainActivity(reason: moreError == nil ? .nextPage : .retryAfterFailure, lastFailure: moreError)
        return true
    }

    func isMore(_ id: UInt64, page: Int, list: UInt64?) -> Bool {
        guard let more else { return false }
        return more.id == id && more.page == page && more.list == list
    }

    mutating func moreFinish(_ id: UInt64, page: Int, list: UInt64?, _ value: PlainPages) -> Bool {
        guard isMore(id, page: page, list: list), var confirmed else { return false }
        // Pages that `setValue` replaced with others are not the ones the
        // page was asked of: the lane ends without it.
        guard confirmed.next != nil, confirmed.nextPage == page else {
            endMore(failure: nil)
            return true
        }
        confirmed.append(value, window: window)
        self.confirmed = reapplied(confirmed)
        endMore(failure: nil)
        return true
    }

    mutating func moreFail(_ id: UInt64, page: Int, list: UInt64?, _ failure: TestError) -> Bool {
        guard isMore(id, page: page, list: list) else { return false }
        endMore(failure: failure)
        return true
    }

    mutating func moreCancel(_ id: UInt64, page: Int, list: UInt64?) -> Bool {
        guard isMore(id, page: page, list: list) else { return false }
        endMore(failure: moreError)
        return true
    }

    mutating func moreRetry(_ id: UInt64, page: Int, list: UInt64?, attempt: Int, of attempts: Int, failure: TestError, wait: Duration)
        -> Bool
    {
        guard isMore(id, page: page, list: list), let activity = moreActivity else { return false }
        moreActivity = PlainActivity(reason: activity.reason, attempt: attempt + 1, attempts: attempts, wait: wait, lastFailure: failure)
        return true
    }

    mutating func morePlan(_ id: UInt64, page: Int, list: UInt64?, attempts: Int) -> Bool {
        guard isMore(id, page: page, list: list) else { return false }
        moreActivity?.attempts = attempts
        return true
    }

    mutating func endMore(failure: TestError?) {
        more = nil
        moreActivity = nil
        moreError = failure
        if inFlight == nil { unreflected = [] }
    }

    // MARK: Edits

    mutating func editStart(_ id: UInt64, _ edit: PlainEdit) -> Bool {
        if let editNewest, id <= editNewest { return false }
        editNewest = id
        pending.append((id, edit))
        editError = nil
        return true
    }

    mutating func takePending(_ id: UInt64) -> PlainEdit? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: index).edit
    }

    mutating func editConfirm(_ id: UInt64) -> Bool {
        guard let edit = takePending(id) else { return false }
        if var value = confirmed, edit.apply(to: &value) { confirmed = value }
        if var value = partial, edit.apply(to: &value) { partial = value }
        if inFlight != nil || more != nil { unreflected.append(edit) }
        return true
    }

    mutating func editFail(_ id: UInt64, _ failure: TestError) -> Bool {
        guard takePending(id) != nil else { return false }
        editError = failure
        return true
    }

    mutating func editCancel(_ id: UInt64) -> Bool {
        takePending(id) != nil
    }

    func editRetry(_ id: UInt64) -> Bool {
        pending.contains { $0.id == id }
    }
}
