/// A list that loads page by page — infinite scroll with pull to refresh —
/// settling correctly under any race, as ``Loadable`` does for one value.
///
/// Two lanes, each generation-checked:
///
/// - **The list lane** loads the first page and every refresh; a page it
///   loads replaces all pages and starts a new ``ListGeneration``. It is a
///   ``Loadable``, so the last started load wins and cancelling a refresh
///   returns to the pages shown before.
/// - **The more lane** loads one page at a time, tagged with the generation
///   and the cursor it asked for (a ``PageRequest``). Its page is appended only
///   to that generation, after the page whose `next` was that cursor.
///
/// The rules, each kept by ``apply(_:)``:
///
/// | what happens | outcome |
/// |---|---|
/// | a page from an older list generation arrives | dropped, and reported as dropped |
/// | a second "load more" for the same cursor starts while one is in flight | dropped (``loadMore(_:operation:)`` starts nothing) |
/// | a "load more" for a cursor that is not ``nextCursor`` (unknown, or past the end) | dropped |
/// | a refresh starts while a "load more" is in flight | the load more is superseded: its work is cancelled, its page dropped |
/// | a "load more" starts while the first page or a refresh is in flight | dropped: its page would belong to the list being replaced |
/// | a "load more" fails | every page stays; the failure is ``pageError``, apart from the list's ``listError`` |
/// | a "load more" or a refresh is cancelled | back to the pages shown before it began |
/// | the last page has no `next` cursor | ``hasMore`` is `false`; "load more" starts nothing |
/// | more pages than the ``window`` | the oldest pages are let go |
///
/// Appending a page costs O(page): the elements live in one array that only grows at its end.
///
/// ```swift
/// var feed = PagedLoadable<Int, Int, LoadError>()
/// _ = feed.apply(.list(.started(LoadID(1))))
/// _ = feed.apply(.list(.finished(LoadID(1), Page([1, 2], next: 2))))
/// let request = PageRequest(generation: feed.generation, cursor: 2)
/// _ = feed.apply(.more(request, .started(LoadID(2))))
/// _ = feed.apply(.more(request, .finished(LoadID(2), Page([3], next: nil))))
/// feed.elements   // [1, 2, 3]
/// feed.hasMore    // false
/// ```
public struct PagedLoadable<Element: Equatable, Cursor: Hashable, Failure: Equatable>: Equatable {
    /// The list lane; its value is the generation of the pages shown.
    @usableFromInline var _list: Loadable<ListGeneration, Failure>
    /// Every element shown, in order; pages are appended at the end.
    @usableFromInline var _elements: [Element]
    /// The end offset in `_elements` of each page kept, in order.
    @usableFromInline var _pageEnds: [Int]
    /// The cursor of the page after the last one, or `nil` at the end.
    @usableFromInline var _nextCursor: Cursor?
    /// The "load more" in flight.
    @usableFromInline var _more: (id: LoadID, request: PageRequest<Cursor>)?
    /// The newest ID a "load more" started with; a start must be newer.
    @usableFromInline var _newestMoreID: LoadID?
    @usableFromInline var _pageError: Failure?
    @usableFromInline let _window: Int?

    /// An empty list, before its first page.
    ///
    /// - Parameter window: keep at most this many pages, letting the oldest go
    ///   as new ones are appended; `nil` keeps every page. A window below one
    ///   page keeps one page — a list always shows the page it loaded last.
    public init(window: Int? = nil) {
        _list = Loadable()
        _elements = []
        _pageEnds = []
        _nextCursor = nil
        _more = nil
        _newestMoreID = nil
        _pageError = nil
        _window = window.map { max(1, $0) }
    }

    /// Equal when every field is equal, the load in flight included.
    public static func == (lhs: PagedLoadable, rhs: PagedLoadable) -> Bool {
        lhs._list == rhs._list && lhs._elements == rhs._elements && lhs._pageEnds == rhs._pageEnds
            && lhs._nextCursor == rhs._nextCursor && lhs._more?.id == rhs._more?.id && lhs._more?.request == rhs._more?.request
            && lhs._newestMoreID == rhs._newestMoreID && lhs._pageError == rhs._pageError && lhs._window == rhs._window
    }

    // MARK: What a list binds to

    /// Every element of the pages kept, in order — what a `List` or `ForEach` shows.
    @inlinable
    public var elements: [Element] { _elements }

    /// The list lane: first page and refreshes. Its ``Loadable/value`` is the
    /// generation of the pages shown, `nil` before the first page.
    @inlinable
    public var list: Loadable<ListGeneration, Failure> { _list }

    /// The generation of the pages shown: `g0` before the first page.
    @inlinable
    public var generation: ListGeneration { _list.value ?? ListGeneration(0) }

    /// Whether the first page has loaded (possibly empty).
    @inlinable
    public var hasLoaded: Bool { _list.value != nil }

    /// Whether the first page or a refresh is in flight — a pull-to-refresh spinner.
    @inlinable
    public var isLoadingList: Bool { _list.isLoading }

    /// The failure of the latest first page or refresh, or `nil`; the pages shown stay.
    @inlinable
    public var listError: Failure? { _list.error }

    /// Where the next page starts, or `nil` before the first page and at the end.
    @inlinable
    public var nextCursor: Cursor? { _nextCursor }

    /// Whether there are more pages to load — show a "loading more" row at the bottom.
    @inlinable
    public var hasMore: Bool { _nextCursor != nil }

    /// Whether a "load more" is in flight.
    @inlinable
    public var isLoadingMore: Bool { _more != nil }

    /// What the "load more" in flight asked for, or `nil`.
    @inlinable
    public var loadingMore: PageRequest<Cursor>? { _more?.request }

    /// The ID of the "load more" in flight, or `nil`.
    @inlinable
    public var loadingMoreID: LoadID? { _more?.id }

    /// The failure of the latest "load more", until a page loads — show a retry row.
    @inlinable
    public var pageError: Failure? { _pageError }

    /// How many pages are kept.
    @inlinable
    public var pageCount: Int { _pageEnds.count }

    /// The most pages kept, or `nil` for no limit.
    @inlinable
    public var window: Int? { _window }

    /// The request a "load more" would make now, or `nil` when it would start
    /// nothing: before the first page, at the end, while the list is loading,
    /// or while a "load more" is in flight.
    @inlinable
    public var nextRequest: PageRequest<Cursor>? {
        guard let cursor = _nextCursor, _more == nil, !_list.isLoading, let generation = _list.value else { return nil }
        return PageRequest(generation: generation, cursor: cursor)
    }

    // MARK: Applying actions

    /// Applies `action` and says whether it was applied or dropped as stale;
    /// see the table in the type's description. A dropped action changes nothing.
    ///
    /// Inside a reducer, return ``reduce(_:)`` instead: it also cancels
    /// superseded work and reports drops to the store.
    @inlinable
    public mutating func apply(_ action: PageAction<Element, Cursor, Failure>) -> LoadDisposition {
        switch action {
        case .list(let load):
            return applyList(load)
        case .more(let request, let load):
            return applyMore(request, load)
        }
    }

    @inlinable
    mutating func applyList(_ load: LoadAction<Page<Element, Cursor>, Failure>) -> LoadDisposition {
        switch load {
        case .started(let id):
            guard _list.apply(.started(id)) == .applied else { return .dropped }
            // A refresh supersedes the "load more" in flight: its page would
            // extend the list this refresh replaces.
            _more = nil
        case .finished(let id, let page):
            guard _list.apply(.finished(id, generation.next)) == .applied else { return .dropped }
            _elements = page.elements
            _pageEnds = [page.elements.count]
            _nextCursor = page.next
            _pageError = nil
        case .failed(let id, let failure):
            return _list.apply(.failed(id, failure))
        case .cancelled(let id):
            return _list.apply(.cancelled(id))
        case .retrying(let id, let retry):
            return _list.apply(.retrying(id, retry))
        case .progress:
            // Pages arrive whole: a partial page is never shown.
            return .dropped
        }
        return .applied
    }

    @inlinable
    mutating func applyMore(_ request: PageRequest<Cursor>, _ load: LoadAction<Page<Element, Cursor>, Failure>) -> LoadDisposition {
        if case .started(let id) = load {
            if let newest = _newestMoreID, id <= newest { return .dropped }
            guard request == nextRequest else { return .dropped }
            _more = (id, request)
            _newestMoreID = id
            return .applied
        }
        guard let more = _more, more.id == load.id, more.request == request, request.generation == generation else { return .dropped }
        switch load {
        case .retrying:
            return .applied // the load more goes on; its row keeps showing it
        case .progress:
            return .dropped // pages arrive whole: a partial page is never shown
        default:
            break
        }
        _more = nil
        switch load {
        case .started, .retrying, .progress:
            break
        case .finished(_, let page):
            append(page)
        case .failed(_, let failure):
            _pageError = failure
        case .cancelled:
            break // Back to the pages shown before: nothing was changed yet.
        }
        return .applied
    }

    /// Appends `page` in O(page) — amortized, as `Array.append` is — then lets
    /// the oldest pages go if there are more than the window.
    @inlinable
    mutating func append(_ page: Page<Element, Cursor>) {
        _elements.append(contentsOf: page.elements)
        _pageEnds.append(_elements.count)
        _nextCursor = page.next
        _pageError = nil
        if let window = _window, _pageEnds.count > window { trim(to: window) }
    }

    /// Keeps the newest `window` pages. Costs O(window): the kept elements move
    /// to the front, which a window exists to keep small.
    @usableFromInline
    mutating func trim(to window: Int) {
        let dropped = _pageEnds.count - window
        let removed = _pageEnds[dropped - 1]
        _elements.removeFirst(removed)
        _pageEnds.removeFirst(dropped)
        for index in _pageEnds.indices { _pageEnds[index] -= removed }
    }

    /// Abandons the "load more" in flight at once, back to the pages shown.
    ///
    /// - Returns: its ID, so a reducer can cancel its work with ``Effect/cancel(load:)``.
    @discardableResult
    public mutating func cancelMore() -> LoadID? {
        guard let more = _more else { return nil }
        _more = nil
        return more.id
    }

    /// Cancels the first page or refresh in flight at once, back to the pages shown.
    ///
    /// - Returns: its ID, so a reducer can cancel its work with ``Effect/cancel(load:)``.
    @discardableResult
    public mutating func cancelList() -> LoadID? {
        _list.cancel()
    }
}

extension PagedLoadable: Sendable where Element: Sendable, Cursor: Sendable, Failure: Sendable {}

extension PagedLoadable: CustomReflectable {
    /// The public fields, for dumps and snapshots.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "elements": elements as Any,
                "list": list as Any,
                "nextCursor": nextCursor as Any,
                "loadingMore": loadingMore as Any,
                "loadingMoreID": loadingMoreID as Any,
                "pageError": pageError as Any,
                "pageCount": pageCount as Any,
            ], displayStyle: .struct)
    }
}

extension PagedLoadable: CustomStringConvertible {
    /// A short form, e.g. `g2: 40 elements in 2 pages, more at 3 (#4 loading more)`.
    public var description: String {
        var text = "\(generation): \(elements.count) elements in \(pageCount) pages"
        text += nextCursor.map { ", more at \(describeValue($0))" } ?? (hasLoaded ? ", end" : "")
        if let inFlight = _list.inFlightID { text += " (\(inFlight) loading list)" }
        if let listError { text += " [list error: \(describeValue(listError))]" }
        if let more = _more { text += " (\(more.id) loading more)" }
        if let pageError { text += " [page error: \(describeValue(pageError))]" }
        return text
    }
}
