/// A value on the heap, shared by copies of whatever holds the reference.
/// ``Effect`` keeps its work in one (see `Effect.Work`).
@usableFromInline
final class Box<Contents> {
    @usableFromInline let _contents: Contents

    @inlinable
    init(_ contents: Contents) {
        _contents = contents
    }
}
