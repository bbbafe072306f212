// A child's effects belong to the child: `forEach` and `ifLet` mark each
// effect of a child with the child's path (`CancelID`), so a child's cancel
// IDs are its own, and the parent cancels all of them when it removes the
// child (`RemovedChildren`).

extension Effect {
    /// This effect, made in child `scope`: every cancel ID it gives or
    /// cancels is the child's, and work without an ID gets the child's, so
    /// removing the child cancels it.
    ///
    /// Loads that had no cancel ID get one, so they are boxed (one allocation
    /// more): the price of cancelling a removed row's load or stream, which
    /// its state can no longer do.
    @inlinable
    func inChild(_ scope: ChildScope) -> Effect {
        if isNone { return self }
        let scoped: Operation
        switch operation {
        case .none:
            return self
        case .run(var run):
            run._cancelID = run._cancelID?.inChild(scope) ?? .child(scope)
            scoped = .run(run)
        case .load(let load):
            scoped = .load(load.inChild(scope))
        case .merge(let effects):
            scoped = .merge(effects.map { $0.inChild(scope) })
        case .concatenate(let effects, let cancelID):
            scoped = .concatenate(effects.map { $0.inChild(scope) }, cancelID: cancelID?.inChild(scope) ?? .child(scope))
        case .cancel(let id):
            scoped = .cancel(id.inChild(scope))
        case .cancelRemoved(let children):
            scoped = .cancelRemoved(children.inChild(scope))
        case .cancelLoad, .joinLoad, .startFrom:
            // Load IDs are the store's, unique to one load wherever it runs.
            return self
        case .queueLoad(let queued):
            scoped = .queueLoad(QueuedLoad(behind: queued._behind, load: queued._load.inChild(scope), announce: queued._announce))
        case .startQueued(let load, let id):
            scoped = .startQueued(load.inChild(scope), id)
        case .markedCancellable(let effect, let id):
            scoped = .markedCancellable(effect.inChild(scope), id.inChild(scope))
        }
        return Effect(scoped, isDropped: _isDropped)
    }
}

extension Effect.Load {
    /// This load, made in child `scope`.
    @inlinable
    func inChild(_ scope: ChildScope) -> Effect.Load {
        withCancelID(_cancelID?.inChild(scope) ?? .child(scope))
    }
}

extension Effect {
    /// This effect, seen from the parent of a ``Scope`` at `scope`: what
    /// was made in children below the scope (`forEach`, `ifLet`) gets the
    /// scope's step in its path, so two scopes of one feature — each with
    /// an `ifLet` at the same key path — keep their children apart. The
    /// scoped child's own cancel IDs stay the parent's, as a `Scope`'s
    /// child is never removed.
    @usableFromInline
    func throughScope(_ scope: ChildScope) -> Effect {
        // An everyday load carries no cancel ID: nothing to rewrite, and
        // the most common effect of a scoped child costs one branch.
        if isNone || _isLoad || !hasChildPaths { return self }
        func through(_ id: CancelID?) -> CancelID? {
            guard let id, id.isInChild else { return id }
            return id.inChild(scope)
        }
        let scoped: Operation
        switch operation {
        case .none, .cancelLoad, .joinLoad, .startFrom:
            return self
        case .run(var run):
            run._cancelID = through(run._cancelID)
            scoped = .run(run)
        case .load(let load):
            scoped = .load(load.withCancelID(through(load._cancelID)))
        case .merge(let effects):
            scoped = .merge(effects.map { $0.throughScope(scope) })
        case .concatenate(let effects, let cancelID):
            scoped = .concatenate(effects.map { $0.throughScope(scope) }, cancelID: through(cancelID))
        case .cancel(let id):
            scoped = .cancel(through(id)!)
        case .cancelRemoved(let children):
            scoped = .cancelRemoved(children.inChild(scope))
        case .queueLoad(let queued):
            let load = queued._load.withCancelID(through(queued._load._cancelID))
            scoped = .queueLoad(QueuedLoad(behind: queued._behind, load: load, announce: queued._announce))
        case .startQueued(let load, let id):
            scoped = .startQueued(load.withCancelID(through(load._cancelID)), id)
        case .markedCancellable(let effect, let id):
            scoped = .markedCancellable(effect.throughScope(scope), through(id)!)
        }
        return Effect(scoped, isDropped: _isDropped)
    }

    /// Whether anything in this effect was made in a child: a cancel ID
    /// with a path, or children to cancel.
    var hasChildPaths: Bool {
        if isNone || _isLoad { return false }
        switch operation {
        case .none, .cancelLoad, .joinLoad, .startFrom:
            return false
        case .run(let run):
            return run._cancelID?.isInChild == true
        case .load(let load), .startQueued(let load, _):
            return load._cancelID?.isInChild == true
        case .merge(let effects):
            return effects.contains { $0.hasChildPaths }
        case .concatenate(let effects, let cancelID):
            return cancelID?.isInChild == true || effects.contains { $0.hasChildPaths }
        case .cancel(let id):
            return id.isInChild
        case .cancelRemoved:
            return true
        case .queueLoad(let queued):
            return queued._load._cancelID?.isInChild == true
        case .markedCancellable(let effect, let id):
            return id.isInChild || effect.hasChildPaths
        }
    }
}
