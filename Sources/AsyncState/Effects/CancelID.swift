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
@usableFromInline
struct CancelID: Hashable {
    @usableFromInline let _box: Storage

    @usableFromInline
    final class Storage {
        /// The ID the effect was given; `nil` for a child's effect given none.
        let id: AnyHashable?
        /// The children the effect was made in, outermost first; empty at the root.
        let path: [ChildScope]

        init(id: AnyHashable?, path: [ChildScope]) {
            self.id = id
            self.path = path
        }
    }

    init(_ id: some Hashable & Sendable) {
        _box = Storage(id: AnyHashable(id), path: [])
    }

    init(id: AnyHashable?, path: [ChildScope]) {
        _box = Storage(id: id, path: path)
    }

    /// The ID of an effect with none of its own, made in child `scope`.
    static func child(_ scope: ChildScope) -> CancelID {
        CancelID(id: nil, path: [scope])
    }

    /// This ID, seen from the parent that runs child `scope`.
    func inChild(_ scope: ChildScope) -> CancelID {
        CancelID(id: _box.id, path: [scope] + _box.path)
    }

    /// The children the effect was made in, outermost first.
    var path: [ChildScope] { _box.path }

    @usableFromInline
    static func == (lhs: CancelID, rhs: CancelID) -> Bool {
        lhs._box === rhs._box || (lhs._box.id == rhs._box.id && lhs._box.path == rhs._box.path)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(_box.id)
        if !_box.path.isEmpty { hasher.combine(_box.path) }
    }
}

/// One child that effects were made in: the state its parent keeps it at,
/// and for a keyed child (`forEach`) its key.
@usableFromInline
struct ChildScope: Hashable {
    /// Where the parent keeps the child's state: the key path `forEach` or
    /// `ifLet` was given.
    let owner: AnyKeyPath
    /// The child's key in a `forEach`; `nil` for an `ifLet`.
    let key: AnyHashable?

    @usableFromInline
    init(owner: AnyKeyPath, key: AnyHashable?) {
        self.owner = owner
        self.key = key
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
    let isRemoved: (AnyHashable?) -> Bool

    @usableFromInline
    init(enclosing: [ChildScope] = [], owner: AnyKeyPath, isRemoved: @escaping (AnyHashable?) -> Bool) {
        self.enclosing = enclosing
        self.owner = owner
        self.isRemoved = isRemoved
    }

    /// These children, seen from the parent that runs child `scope`.
    func inChild(_ scope: ChildScope) -> RemovedChildren {
        RemovedChildren(enclosing: [scope] + enclosing, owner: owner, isRemoved: isRemoved)
    }

    /// Whether the effect with cancel ID `id` was made in one of these children.
    func contains(_ id: CancelID) -> Bool {
        let path = id.path
        guard path.count > enclosing.count, path.starts(with: enclosing) else { return false }
        let child = path[enclosing.count]
        return child.owner == owner && isRemoved(child.key)
    }
}
