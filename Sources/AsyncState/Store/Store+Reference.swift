extension Store {
    /// A weak reference to a store, made once and shared by its effects and
    /// its ``Send``: effects must not keep the store alive (releasing it
    /// cancels them), and one shared reference costs one weak reference per
    /// store, where a `[weak self]` capture forms and destroys one per effect.
    @usableFromInline
    @MainActor
    final class Reference {
        @exclusivity(unchecked) @usableFromInline weak var _store: Store?

        @usableFromInline
        init() {}

        /// See ``Store/loadEnded(_:with:)``.
        @inlinable
        @inline(never)
        func loadEnded(_ id: LoadID, with result: Action) {
            _store?.loadEnded(id, with: result)
        }
    }
}
