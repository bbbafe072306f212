/// The body of an effect's task, for the store to start
/// (`EffectLaunch.startTask`).
///
/// Generic in its result, though every effect's body returns nothing. A
/// closure literal passed where a generic result is expected is built
/// returning it indirectly, as `Task.immediate` and `Task.init` take their
/// operation, and a generic stored property keeps it that way. A
/// `() async -> Void` value would be wrapped in a reabstraction thunk on its
/// way to either — an allocation and an async frame per effect.
@usableFromInline
struct TaskBody<Result>: Sendable {
    @usableFromInline let _run: @isolated(any) @Sendable () async -> Result

    @inlinable
    init(_ run: @escaping @isolated(any) @Sendable () async -> Result) {
        _run = run
    }
}
