/// The ID an effect is cancellable by (``Effect/cancellable(id:cancelInFlight:)``):
/// any hashable value, boxed.
///
/// Boxed because `AnyHashable` is stored inline as an existential, which makes
/// every type holding it — an effect's operation, a pending effect — copied
/// through value witnesses, on every load, though almost none has an ID.
/// One reference keeps them plain values (BENCHMARKS.md, step 19).
@usableFromInline
struct CancelID: Hashable {
    @usableFromInline let _box: Storage

    @usableFromInline
    final class Storage {
        let id: AnyHashable
        init(_ id: AnyHashable) { self.id = id }
    }

    init(_ id: some Hashable & Sendable) {
        _box = Storage(AnyHashable(id))
    }

    @usableFromInline
    static func == (lhs: CancelID, rhs: CancelID) -> Bool {
        lhs._box === rhs._box || lhs._box.id == rhs._box.id
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(_box.id)
    }
}
