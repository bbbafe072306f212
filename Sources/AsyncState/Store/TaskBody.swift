/// The body of an effect's task, for the store to start
/// (`EffectLaunch.startTask`).
///
/// Generic in its result, though every effect's body returns nothing. A
/// closure literal passed where a generic result is expected is built
/// returning it indirectly, as `Task.immediate` and `Task.init` take their
/// operation, and a generic stored property keeps it that way. A
/// `() async -> Void` value would be wrapped in a reabstraction thunk on its
/// way to either: measured with a non-generic `TaskBody`, a 48-byte
/// allocation and 90 ns per load.
@usableFromInline
struct TaskBody<Result>: Sendable {
    @usableFromInline let _operation: @isolated(any) @Sendable () async -> Result

    @inlinable
    init(_ operation: @escaping @isolated(any) @Sendable () async -> Result) {
        _operation = operation
    }
}
