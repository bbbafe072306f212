/// What an effect that does work holds, in one reference (see
/// `Effect._work`): the load's start itself for an everyday load
/// (`LoadStart`), or else the operation in a box (`OperationBox`).
///
/// A load needs no box around its start: the start is already an object, so
/// a load that answers at once makes one allocation fewer (BENCHMARKS.md,
/// "Issue 25, third pass").
@usableFromInline
class EffectWork {
    @inlinable
    init() {}
}

/// An effect's operation on the heap, shared by copies of the effect.
///
/// Generic in what it holds, not nested in `Effect`: a box is destroyed by
/// its class's unspecialized deinit, which finds the metadata of its
/// contents among its own generic arguments, where a class generic in
/// `Action` looked up the metadata of `Effect<Action>.Operation` in the
/// runtime's cache on every destruction — about 40 ns of a load that
/// answers at once.
@usableFromInline
final class OperationBox<Operation>: EffectWork {
    @usableFromInline let _contents: Operation

    @inlinable
    init(_ contents: Operation) {
        _contents = contents
    }
}
