// The more lane of a paged list: a `Loadable` whose value is `Pages` loads
// its first page and every refresh in the value lane, which replaces every
// page, and each "load more" in the more lane, which appends one. Both lanes
// are generation-gated; every other layer — freshness, edits, retries,
// timeouts, overlap — works on the list as on any value.

extension Loadable {
    /// An empty paged list, before its first page.
    ///
    /// - Parameter window: keep at most this many pages, letting the oldest
    ///   go as new ones are appended or a load brings more; `nil` keeps every
    ///   page. A window below one page keeps one.
    @inlinable
    public init<Element, Cursor>(window: Int?) where Value == Pages<Element, Cursor> {
        self.init()
        if let window { withLayers { $0._window = max(window, 1) } }
    }

    /// The most pages a paged list keeps, or `nil` for no limit: in each
    /// lane — a page a "load more" appends, a load's result, what a load
    /// streams so far and a value set with `setValue` — the oldest pages go.
    @inlinable
    public var window: Int? { _layers?._contents._window }

    /// Lets the oldest pages of `value` go until it holds at most `window`
    /// pages; nothing for a value that is not ``Pages`` (a cast the
    /// specialized code resolves as it compiles). Static, so a caller passes
    /// its own `_value` without an access to `self` beside it: a method on
    /// `self` copied the whole loadable through its value witnesses (≈ 1,200
    /// instructions; BENCHMARKS.md, issue 25, seventeenth pass).
    @inlinable
    static func keep(_ window: Int, of value: inout Value) {
        guard let paged = Value.self as? any PageAppending.Type else { return }
        withUnsafeMutablePointer(to: &value) { paged.keep(window, of: $0) }
    }

    /// Whether a "load more" is in flight — a spinner in the last row.
    @inlinable
    public var isLoadingMore: Bool { _layers?._contents._more._inFlight != nil }

    /// What the "load more" in flight asked for, or `nil`.
    @inlinable
    public var loadingMore: PageRequest? { _layers?._contents._more._inFlight?.request }

    /// The ID of the "load more" in flight, or `nil`.
    @inlinable
    public var moreID: LoadID? { _layers?._contents._more._inFlight?.id }

    /// Why the "load more" in flight runs and which attempt it is on — "retrying
    /// this page (2 of 3)" — or `nil`.
    @inlinable
    public var moreActivity: LoadActivity<Failure>? { _layers?._contents._more._activity }

    /// The failure of the latest "load more", until a page loads or the list
    /// is replaced — a retry row. The list's own failure is ``error``.
    @inlinable
    public var moreError: Failure? { _layers?._contents._more._error }

    /// Whether a paged list has a page after the last one shown. `false`
    /// before the first page, and for a value that is not ``Pages``.
    @inlinable
    public var hasMore: Bool {
        nextPage != nil
    }

    /// The request a "load more" would make now, or `nil` when it would start
    /// nothing: before the first page, at the end, while the list loads, or
    /// while a "load more" is in flight.
    @inlinable
    public var nextRequest: PageRequest? {
        isLoadingMore ? nil : pageRequest
    }

    /// The request for the page after the last one, whether or not a "load
    /// more" is in flight — the one a start must ask for: a second start for
    /// it supersedes the one in flight (``OverlapPolicy/latestWins``).
    @inlinable
    var pageRequest: PageRequest? {
        guard _inFlightID == nil, let page = nextPage else { return nil }
        return PageRequest(page: page, list: _newestID)
    }

    /// The number of the page after the value's last one; `nil` after the
    /// last page, and for a value that is not ``Pages``.
    @inlinable
    var nextPage: Int? {
        // Read where the value is stored: a copy retains both of a list's
        // arrays, and alive while a page is appended, it would make the
        // append copy every element.
        // An optional's payload is stored at its start, so the address of a
        // `Value?` that is not `nil` is the address of its `Value`.
        guard let appending = Value.self as? any PageAppending.Type, _value.isSome else { return nil }
        return withUnsafePointer(to: _value) { appending.nextPage(of: UnsafeRawPointer($0)) }
    }

    /// Abandons the "load more" in flight at once, back to the pages shown.
    ///
    /// - Returns: its ID, so a reducer can cancel its work with ``Effect/cancel(load:)``.
    @inlinable
    @discardableResult
    public mutating func cancelMore() -> LoadID? {
        guard let id = moreID else { return nil }
        let request = loadingMore!
        _ = applyMore(.more(request, .cancelled(id)))
        return id
    }

    /// Applies an action of the more lane:
    ///
    /// | what happens | outcome |
    /// |---|---|
    /// | a "load more" starts for ``nextRequest`` | in flight; ``moreActivity`` says why |
    /// | a newer one starts for the same page while one is in flight | it supersedes the one in flight (``OverlapPolicy/latestWins``) |
    /// | it starts for another request — a page of a list replaced since, before the first page, at the end, while the list loads | dropped |
    /// | its page arrives | appended; the oldest pages go past the ``window``; edits confirmed meanwhile are applied again |
    /// | it fails | every page stays; the failure is ``moreError``, apart from the list's ``error`` |
    /// | it is cancelled, or a refresh supersedes it | back to the pages shown before |
    /// | anything for a value that is not ``Pages`` | dropped |
    @inlinable
    @inline(never)
    mutating func applyMore(_ action: LoadAction<Value, Failure>) -> LoadDisposition {
        guard let appending = Value.self as? any PageAppending.Type else { return .dropped }
        // `action` is the whole `.more(request, inner)`, matched in nested
        // patterns: binding the inner action copies it out of its box
        // through value witnesses, twice per "load more".
        if case .more(let request, .started(let id)) = action {
            if let newest = _layers?._contents._more._newestID, id <= newest { return .dropped }
            guard request == pageRequest else { return .dropped }
            withLayers { layers in
                let failure = layers._more._error
                layers._more._inFlight = MoreLane.InFlight(id: id, request: request)
                layers._more._newestID = id
                layers._more._activity = LoadActivity(
                    reason: failure.isSome ? .retryAfterFailure : .nextPage, attempt: 1, attempts: nil, wait: nil,
                    lastFailure: failure)
            }
            return .applied
        }
        // Each case binds its ID in the pattern: `action.id` matched the
        // action again and copied it through the generic value witnesses
        // (358 instructions of a page's 2,700; BENCHMARKS.md, tenth pass).
        switch action {
        case .more(let request, .finished(let id, let page)), .more(let request, .at(_, .finished(let id, let page))):
            guard isMoreInFlight(id, request) else { return .dropped }
            // A page asked of pages that `setValue` has since replaced — with
            // another number of pages, or none after them — would land out
            // of place: the lane ends without it.
            guard nextPage == request.page else {
                endMore(failure: nil)
                return .applied
            }
            let window = _layers?._contents._window
            withUnsafePointer(to: page) { page in
                withUnsafeMutablePointer(to: &_value!) { appending.append(page, to: $0, window: window) }
            }
            if let edits = _layers?._contents._edits, !edits._unreflected.isEmpty {
                // Taken out, so the edits apply to the only copy of the list:
                // read in place, the stored value kept a second reference, and
                // the first edit copied every element.
                _value = edits.reapplyingConfirmed(to: _value.take()!)
            }
            endMore(failure: nil)
        case .more(let request, .failed(let id, let failure)), .more(let request, .at(_, .failed(let id, let failure))):
            guard isMoreInFlight(id, request) else { return .dropped }
            endMore(failure: failure)
        case .more(let request, .cancelled(let id)), .more(let request, .at(_, .cancelled(let id))):
            guard isMoreInFlight(id, request) else { return .dropped }
            let failure = moreError
            endMore(failure: failure)
        case .more(let request, .retrying(let id, let retry)), .more(let request, .at(_, .retrying(let id, let retry))):
            guard isMoreInFlight(id, request) else { return .dropped }
            withLayers { $0._more._activity = $0._more._activity?.retrying(retry) }
        case .more(let request, .planned(let id, let attempts)), .more(let request, .at(_, .planned(let id, let attempts))):
            guard isMoreInFlight(id, request) else { return .dropped }
            withLayers { $0._more._activity = $0._more._activity?.planning(attempts) }
        default:
            // Pages arrive whole: a partial page is never shown. Nothing
            // else belongs in the more lane.
            return .dropped
        }
        return .applied
    }

    /// Whether `id`, asking for `request`, is the "load more" in flight.
    @inlinable
    func isMoreInFlight(_ id: LoadID, _ request: PageRequest) -> Bool {
        guard let inFlight = _layers?._contents._more._inFlight else { return false }
        return inFlight.id == id && inFlight.request == request
    }

    /// The "load more" in flight ended, leaving `failure` as ``moreError``.
    @inlinable
    mutating func endMore(failure: Failure?) {
        let valueLaneInFlight = _inFlightID != nil
        // The base only while edits show, as in `laneSettled()`.
        let base = _layers?._contents._edits.isShowing == true ? _partial ?? _value : nil
        withLayers { layers in
            layers._more.end()
            layers._more._error = failure
            if !valueLaneInFlight { layers._edits.lanesSettled() }
            if layers._edits.isShowing { layers._edits.show(on: base) }
        }
    }
}
