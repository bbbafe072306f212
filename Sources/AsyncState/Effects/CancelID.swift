/// The ID an effect is cancellable by (``Effect/cancellable(id:cancelInFlight:)``):
/// any hashable value, boxed, inside the children the effect was made in.
///
/// Boxed because `AnyHashable` is stored inline as an existential, which makes
/// every type holding it — an effect's operation, a pending effect — copied
/// through value witnesses, on every load, though almost none has an ID.
/// One reference keeps them plain values (BENCHMARKS.md, step 19).
///
/// A child's effects (`forEach`, `ifLet`) carry the path to their child, so
/// two rows that use one ID keep apart, and removing a child cancels every
/// effect under its path (`RemovedChildren`). An effect of a child that has
/// no ID of its own gets its child's path alone.
///
/// The path is a list of boxes, outermost first, that ends in the ID: a
/// parent adds its step in front, so each step is one allocation that
/// shares the rest, and every load of a keyed row — which gets its row's
/// path as its ID — makes one box, not a box and an array.
@usableFromInline
struct CancelID: Hashable {
    @usableFromInline let _box: Storage

    /// One step of an ID's path, or the ID itself at the end of it.
    @usableFromInline
    final class Storage {
        /// The child this step enters; `nil` for the last box of an ID
        /// given at the root of its path.
        let scope: ChildScope?
        /// The rest of the path, inner steps first, then the ID; `nil` in
        /// the last box.
        let inner: Storage?
        /// The ID the effect was given, held by the last box only; `nil`
        /// for a child's effect given none.
        let ownID: AnyHashable?
        /// Whether the ID at the end of the path is set: only such an ID
        /// can be named by `.cancel(id:)`, and only the store's index by ID
        /// hashes it.
        @usableFromInline let hasID: Bool
        /// The hash of the ID and its path, taken once for an ID that has
        /// one (the store hashes it up to four times per effect); 0 for a
        /// child's path alone.
        @usableFromInline let hash: Int

        init(scope: ChildScope?, inner: Storage?, ownID: AnyHashable?) {
            self.scope = scope
            self.inner = inner
            self.ownID = ownID
            hasID = inner?.hasID ?? (ownID != nil)
            hash = hasID ? Storage.hash(scope: scope, inner: inner, ownID: ownID) : 0
        }

        /// The hash of a box with these fields: its step's, then the rest's.
        static func hash(scope: ChildScope?, inner: Storage?, ownID: AnyHashable?) -> Int {
            var hasher = Hasher()
            hasher.combine(scope)
            if let inner { hasher.combine(inner.pathHash) }
            hasher.combine(ownID)
            return hasher.finalize()
        }

        /// The hash of this box and the rest of its path: cached when the
        /// path ends in an ID, taken afresh when it is a child's path alone.
        var pathHash: Int {
            hasID ? hash : Storage.hash(scope: scope, inner: inner, ownID: ownID)
        }

        /// Whether this box and `other` hold the same steps and ID.
        func isEqual(to other: Storage) -> Bool {
            var left = self
            var right = other
            while left !== right {
                guard left.scope == right.scope, left.ownID == right.ownID else { return false }
                switch (left.inner, right.inner) {
                case (let leftInner?, let rightInner?):
                    left = leftInner
                    right = rightInner
                case (nil, nil):
                    return true
                default:
                    return false
                }
            }
            return true
        }
    }

    init(_ id: some Hashable & Sendable) {
        _box = Storage(scope: nil, inner: nil, ownID: AnyHashable(id))
    }

    init(_ box: Storage) {
        _box = box
    }

    /// The ID of an effect with none of its own, made in child `scope`.
    @usableFromInline
    static func child(_ scope: ChildScope) -> CancelID {
        CancelID(Storage(scope: scope, inner: nil, ownID: nil))
    }

    /// This ID, seen from the parent that runs child `scope`.
    @usableFromInline
    func inChild(_ scope: ChildScope) -> CancelID {
        CancelID(Storage(scope: scope, inner: _box, ownID: nil))
    }

    /// Whether the effect was made in a child: the path is not empty.
    @usableFromInline
    var isInChild: Bool { _box.scope != nil }

    @usableFromInline
    static func == (lhs: CancelID, rhs: CancelID) -> Bool {
        lhs._box.isEqual(to: rhs._box)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(_box.pathHash)
    }

    /// Whether ``Effect/cancel(id:)`` can name this ID: it has an ID of its
    /// own, not only the path of the child it was made in.
    @inlinable
    var isCancellableByID: Bool { _box.hasID }
}

/// One child that effects were made in: the state its parent keeps it at,
/// and for a keyed child (`forEach`) its key.
@usableFromInline
struct ChildScope: Hashable {
    /// Where the parent keeps the child's state: the key path `forEach` or
    /// `ifLet` was given.
    let owner: AnyKeyPath
    /// The child's key in a `forEach`; `nil` for an `ifLet`.
    ///
    /// An existential, not an `AnyHashable`: wrapping a key in
    /// `AnyHashable` casts it dynamically, on every action a row receives.
    /// Keys of one owner share one type, which `==` relies on.
    let key: (any Hashable & Sendable)?

    @usableFromInline
    init(owner: AnyKeyPath, key: (any Hashable & Sendable)?) {
        self.owner = owner
        self.key = key
    }

    @usableFromInline
    static func == (lhs: ChildScope, rhs: ChildScope) -> Bool {
        guard lhs.owner == rhs.owner else { return false }
        switch (lhs.key, rhs.key) {
        case (nil, nil): return true
        case (let left?, let right?): return left.isEqual(to: right)
        default: return false
        }
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(owner)
        if let key { hasher.combine(key) }
    }
}

extension Hashable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any Hashable) -> Bool {
        (other as? Self) == self
    }
}

/// The children a parent's action removed, for the store to cancel every
/// effect made in them: those whose path runs through `enclosing`, then a
/// child of `owner` that `isRemoved` says is gone.
///
/// `isRemoved` answers from the state after the action, so a key that was
/// removed and added back in one action keeps its effects: the child under
/// it is, to anyone reading the state, the same child.
@usableFromInline
final class RemovedChildren {
    let enclosing: [ChildScope]
    let owner: AnyKeyPath
    let isRemoved: ((any Hashable & Sendable)?) -> Bool

    @usableFromInline
    init(enclosing: [ChildScope] = [], owner: AnyKeyPath, isRemoved: @escaping ((any Hashable & Sendable)?) -> Bool) {
        self.enclosing = enclosing
        self.owner = owner
        self.isRemoved = isRemoved
    }

    /// These children, seen from the parent that runs child `scope`.
    @usableFromInline
    func inChild(_ scope: ChildScope) -> RemovedChildren {
        RemovedChildren(enclosing: [scope] + enclosing, owner: owner, isRemoved: isRemoved)
    }

    /// Whether the effect with cancel ID `id` was made in one of these children.
    func contains(_ id: CancelID) -> Bool {
        var step: CancelID.Storage? = id._box
        for scope in enclosing {
            guard let box = step, box.scope == scope else { return false }
            step = box.inner
        }
        guard let child = step?.scope else { return false }
        return child.owner == owner && isRemoved(child.key)
    }
}
