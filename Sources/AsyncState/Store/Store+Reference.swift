extension Store {
    /// A weak reference to a store, made once and shared by its effects and
    /// its ``Send``: effects must not keep the store alive (releasing it
    /// cancels them), and one shared reference costs one weak reference per
    /// store, where a `[weak self]` capture forms and destroys one per effect.
    @usableFromInline
    @MainActor
    final class Reference {
        @exclusivity(unchecked) @usableFromInline weak var _store: Store?
        /// The same store, neither retained nor checked, for the moments when
        /// it is certainly alive: while one of its effects is launching.
        ///
        /// Loading the weak reference goes through the store's side table
        /// and retains and releases the store: about 50 ns of a load that
        /// answers at once, which ends inside its launch. Why the shortcut
        /// is sound: `_launch._token` is set by `Store.beginLaunch` and
        /// cleared by `Store.endLaunch`, both called by `Store.launch` on this
        /// store with no suspension between them, and while that method runs
        /// its caller holds the store (`self` is guaranteed for the call). The
        /// token is read only on the main actor, where everything that runs
        /// while it is set runs inside that synchronous call: the effect's
        /// first synchronous part, what that starts at once, and the
        /// cancellation handlers, deinits and `hash(into:)` implementations
        /// it triggers. And this reference reads only its own store's token.
        /// So whenever the token is set, the store outlives the call made
        /// through this reference.
        @usableFromInline let _unretained: Unmanaged<Store>
        /// The store's launch record, whose token says whether one of its
        /// effects is launching.
        @usableFromInline let _launch: EffectLaunch

        @usableFromInline
        init(_ store: Store) {
            _store = store
            _unretained = .passUnretained(store)
            _launch = store._launch
        }

        /// Runs `body` with the store, if it is still alive — without the
        /// weak reference while one of its effects is launching.
        @inlinable
        func withStore(_ body: (Store) -> Void) {
            if _launch._token != nil {
                _unretained._withUnsafeGuaranteedRef(body)
            } else if let store = _store {
                body(store)
            }
        }

        // The action is moved through to the store, not copied: a copy of an
        // action that holds a value retains and releases each reference the
        // value holds. A closure cannot consume what it captures, so the
        // action waits in an optional that the one call takes it out of.

        /// Sends `action` to the store, if it is still alive.
        @inlinable
        func send(_ action: consuming Action) {
            var waiting = Optional(action)
            withStore { _ = $0.send(handingOver: waiting.take()!) }
        }

        /// See ``Store/loadEnded(_:with:)``.
        @inlinable
        @inline(never)
        func loadEnded(_ id: LoadID, with result: consuming Action) {
            var waiting = Optional(result)
            withStore { $0.loadEnded(id, with: waiting.take()!) }
        }
    }
}
