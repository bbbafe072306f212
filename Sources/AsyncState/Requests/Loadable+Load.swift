// Starting loads from a reducer: every start is decided here, against what
// is in flight, by the one `OverlapPolicy.decision`, and built from one
// `LoadRequest` by the one work builder (Effect+Load.swift). The value lane
// (`load`, `loadIfNeeded`), a paged list's more lane (`loadMore`) and
// optimistic edits (`edit`) are the three lanes a start can take.

extension Loadable where Failure: Error {
    /// A load of this value that honours `overlap`: the pure decision of a
    /// reducer that can see whether a load is already in flight.
    ///
    /// ```swift
    /// case .refresh:
    ///     return state.profile.load(Action.profile, LoadRequest(api.user))
    /// case .saveTapped:
    ///     let draft = state.draft   // the closure runs later: capture a copy, not `state`
    ///     return state.save.load(
    ///         Action.save, LoadRequest { () async throws(SaveError) in try await api.save(draft) }, overlap: .firstWins)
    /// ```
    ///
    /// With nothing in flight every policy starts a load. While one is in
    /// flight, the latest-wins policies start a load that supersedes it,
    /// ``OverlapPolicy/firstWins`` returns no work, ``OverlapPolicy/join``
    /// an effect whose ``StoreTask`` waits for it, and ``OverlapPolicy/queue``
    /// one that starts the load once the loads before it have ended. A load in
    /// flight that an invalidation overtook is never joined or yielded to.
    ///
    /// - Parameters:
    ///   - embed: wraps each load action in the feature's action, usually an enum case.
    ///   - request: what to run and how.
    ///   - overlap: what to do if a load of this value is in flight.
    @inlinable
    public func load<Action>(
        _ embed: @escaping (consuming LoadAction<Value, Failure>) -> Action,
        _ request: LoadRequest<Value, Failure>,
        overlap: OverlapPolicy = .latestWins
    ) -> Effect<Action> {
        load(embed, request, overlap: overlap, stampedBy: nil)
    }

    /// ``load(_:_:overlap:)``, stamping the result with `clock` unless the
    /// request has a clock of its own: a host's clock, which it does not copy
    /// into each request.
    @inlinable
    func load<Action>(
        _ embed: @escaping (consuming LoadAction<Value, Failure>) -> Action,
        _ request: LoadRequest<Value, Failure>,
        overlap: OverlapPolicy,
        stampedBy clock: LoadClock?
    ) -> Effect<Action> {
        let overlapped = overlappedID
        switch overlap.decision(inFlight: overlapped, isOvertaken: overlapped.map(isOvertaken) ?? false) {
        case .start:
            return Effect(request.loadEffect(embed, cancelsEarlier: overlap.cancelsEarlier, stampedBy: clock, start: _value))
        case .ignore:
            return .none
        case .join(let id):
            return Effect(.joinLoad(id))
        case .queue(let behind):
            let load = request.loadEffect(embed, cancelsEarlier: true, stampedBy: clock, start: _value)
            // Called only through the wrapper's main-actor `callAsFunction`, like `embed` itself.
            let announce = MainActorFunction<(LoadID, Bool), Action> { id, isWithdrawn in embed(isWithdrawn ? .cancelled(id) : .queued(id))
            }
            return Effect(.queueLoad(Effect.QueuedLoad(behind: behind, load: load, announce: announce)))
        }
    }

    /// The load a new start of the value lane overlaps, as its
    /// ``OverlapPolicy`` sees it: the one in flight — or the last queued
    /// load, which is about to run, when nothing is in flight (the load
    /// before it was cancelled, and the queue waits for its work to wind
    /// down) or what is in flight was overtaken by an invalidation. So a
    /// `.queue` start waits behind the queue, and a `.firstWins` or `.join`
    /// start does not supersede loads already queued.
    @inlinable
    var overlappedID: LoadID? {
        guard let queued = _layers?._contents._queued.last else { return _inFlightID }
        guard let inFlight = _inFlightID, !isOvertaken(inFlight) else { return queued }
        return inFlight
    }

    /// The load a new start would join or yield to: the one it overlaps,
    /// unless an invalidation overtook it — a load whose result is already
    /// out of date is never waited for.
    @inlinable
    var joinableID: LoadID? {
        guard let overlapped = overlappedID, !isOvertaken(overlapped) else { return nil }
        return overlapped
    }

    /// Whether a poll tick reloads the value now — one rule for both caches.
    /// Not while a load that no invalidation has overtaken is in flight or
    /// queued, which already answers it, nor while a "load more" is: a
    /// reload would supersede it and drop the page a user asked for, on every
    /// tick that lands while a page loads.
    package var isDueForPollTick: Bool {
        joinableID == nil && !isLoadingMore
    }

    /// A load of this value only if it needs one: with a load in flight, a
    /// wait for it; after a success that is still fresh, nothing; otherwise a
    /// load, as ``load(_:_:overlap:)`` starts one.
    ///
    /// ```swift
    /// case .appeared(let now):
    ///     return state.posts.loadIfNeeded(Action.posts, page(nil), maxAge: .seconds(60), at: now)
    /// ```
    ///
    /// Without `maxAge`, a success stays fresh until it is invalidated — the
    /// Statable rule, "load unless the last load succeeded". With `maxAge` and
    /// `now`, ``isStale(maxAge:at:)`` decides; `maxAge` without `now` cannot
    /// tell an age, and loads. A load in flight that an invalidation overtook
    /// is superseded rather than joined.
    @inlinable
    public func loadIfNeeded<Action>(
        _ embed: @escaping (consuming LoadAction<Value, Failure>) -> Action,
        _ request: LoadRequest<Value, Failure>,
        maxAge: Duration? = nil,
        at now: LoadClock.Instant? = nil
    ) -> Effect<Action> {
        if let joinable = joinableID { return Effect(.joinLoad(joinable)) }
        guard needsLoad(maxAge: maxAge, at: now) else { return .none }
        return Effect(request.loadEffect(embed, cancelsEarlier: true, start: _value))
    }

    /// Loads the page after the last one and appends it — or starts nothing
    /// before the first page, at the end, or while the list loads — so calling
    /// it every time the last row appears is safe.
    ///
    /// ```swift
    /// case .lastRowAppeared:
    ///     return state.posts.loadMore(Action.posts, page)
    /// ```
    ///
    /// `request` makes the request for the cursor of the next page — here
    /// `page`, a `(Int?) -> LoadRequest<Pages<Post, Int>, FeedError>` that
    /// loads the first page with a `nil` cursor too. While a "load
    /// more" is in flight, the page it loads is the next one:
    /// ``OverlapPolicy/firstWins`` (the default) starts nothing,
    /// ``OverlapPolicy/join`` and ``OverlapPolicy/queue`` wait for it, and the
    /// latest-wins policies load the page again, superseding it. A refresh
    /// supersedes a "load more" in flight, whose page is dropped.
    @inlinable
    public func loadMore<Action, Element, Cursor>(
        _ embed: @escaping (consuming LoadAction<Value, Failure>) -> Action,
        _ request: (Cursor) -> LoadRequest<Value, Failure>,
        overlap: OverlapPolicy = .firstWins
    ) -> Effect<Action> where Value == Pages<Element, Cursor> {
        // Read in place: a copy of the pages retains both of their arrays.
        guard _inFlightID == nil, let cursor = _value?.next, let nextPage = _value?.nextPage else { return .none }
        if let more = moreID {
            switch overlap.decision(inFlight: more) {
            case .start: break
            case .ignore: return .none
            case .join(let id), .queue(let id): return Effect(.joinLoad(id))
            }
        }
        let page = PageRequest(page: nextPage, list: _newestID)
        // Called only through the wrapper's main-actor `callAsFunction`, like `embed` itself.
        let more = MainActorConsumingFunction<LoadAction<Value, Failure>, Action> { embed(.more(page, $0)) }
        return Effect(request(cursor).loadEffect(more, cancelsEarlier: overlap.cancelsEarlier, stampsResult: false))
    }

    /// An optimistic edit: shows `edit` at once, on top of the value, and runs
    /// `request`, which makes it on the server. The edit joins the confirmed
    /// value when the request succeeds and is rolled back — alone — when it
    /// fails or is cancelled; every load that settles meanwhile gets it again.
    ///
    /// ```swift
    /// case .likeTapped(let id):
    ///     return state.posts.edit(
    ///         Action.posts, SetLiked(postID: id, liked: true),
    ///         LoadRequest { () async throws(FeedError) in
    ///             try await api.like(id)
    ///         })
    /// ```
    ///
    /// Without `overlap` (the default) every edit runs on its own, each
    /// settling alone. With a policy, a new edit is measured against the
    /// newest one pending: ``OverlapPolicy/queue`` shows it at once and runs
    /// its request after the requests before it, in order (saves that must all
    /// arrive); ``OverlapPolicy/firstWins`` ignores it; ``OverlapPolicy/join``
    /// waits for the pending one instead; ``OverlapPolicy/latestWins`` rolls
    /// the pending one back at once, as ``cancel(edit:)`` does, and cancels
    /// its request — or, with `cancellingEarlier: false`, lets the request
    /// run to its end, whose result is dropped.
    @inlinable
    public mutating func edit<Action>(
        _ embed: @escaping (consuming LoadAction<Value, Failure>) -> Action,
        _ edit: some Edit<Value>,
        _ request: LoadRequest<Void, Failure>,
        overlap: OverlapPolicy? = nil
    ) -> Effect<Action> {
        let edit = AnyEdit(edit)
        // Called only through the wrapper's main-actor `callAsFunction`, like `embed` itself.
        let editEmbed = MainActorConsumingFunction<LoadAction<EditConfirmation, Failure>, Action> { embed(.edit(EditAction($0, edit))) }
        let confirming = request.confirming
        let newest = newestPendingEdit
        guard let overlap, let newest else {
            return Effect(confirming.loadEffect(editEmbed, cancelsEarlier: false, stampsResult: false, announcesPlan: false))
        }
        switch overlap.decision(inFlight: newest) {
        case .start:
            let load = Effect(confirming.loadEffect(editEmbed, cancelsEarlier: false, stampsResult: false, announcesPlan: false))
            // Rolled back now, not when its request's end comes back: a
            // request that ignores cancellation, or one let finish, may end
            // long after, and its end is then dropped as stale.
            _ = cancel(edit: newest)
            return overlap.cancelsEarlier ? .merge(.cancel(load: newest), load) : load
        case .ignore:
            return .none
        case .join(let id):
            return Effect(.joinLoad(id))
        case .queue(let behind):
            let load = confirming.loadEffect(
                editEmbed, cancelsEarlier: false, stampsResult: false, announcesStart: false, announcesPlan: false)
            let announce = MainActorFunction<(LoadID, Bool), Action> { id, isWithdrawn in
                editEmbed._body(isWithdrawn ? .cancelled(id) : .started(id))
            }
            return Effect(.queueLoad(Effect.QueuedLoad(behind: behind, load: load, announce: announce)))
        }
    }

    /// Whether a load is needed, as ``loadIfNeeded(_:_:maxAge:at:)`` decides.
    @inlinable
    func needsLoad(maxAge: Duration?, at now: LoadClock.Instant?) -> Bool {
        if let maxAge {
            guard let now else { return true }
            return isStale(maxAge: maxAge, at: now)
        }
        guard case .success = _settled, _value.isSome else { return true }
        return _invalidation != nil
    }
}

extension EditAction {
    /// What happened to the edit `edit`, from its request's load action.
    @inlinable
    init(_ load: LoadAction<EditConfirmation, Failure>, _ edit: AnyEdit<Value>) {
        switch load {
        case .started(let id), .queued(let id): self = .started(id, edit)
        case .finished(let id, _): self = .confirmed(id)
        case .failed(let id, let failure): self = .failed(id, failure)
        case .retrying(let id, let retry): self = .retrying(id, retry)
        case .at(_, let load), .more(_, let load): self.init(load, edit)
        case .cancelled(let id), .progress(let id, _), .planned(let id, _), .edit(.cancelled(let id)):
            // An edit's load sends no progress and no plan (its value only
            // says it succeeded, and `announcesPlan` is off); `.cancelled`
            // rolls the edit back, the safe end for anything unforeseen.
            self = .cancelled(id)
        case .edit(let edit): self = .cancelled(edit.id)
        }
    }
}
