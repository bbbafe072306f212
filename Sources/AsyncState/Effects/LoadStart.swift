/// A load's start, and everything its task needs, in one object: called by
/// the store when it schedules the load, with the load's ID, the reporter
/// its task ends it through, and the store's queue of actions, where it
/// appends `.started` (unless it is a queued edit, which showed when it was
/// queued) and `.planned` (with a retry policy). It returns the body of the
/// task, which calls `reporter.began()` first, runs the operation, and ends
/// the load itself (see `LoadReporter`).
///
/// Each shape of load is a subclass that holds what that shape captures —
/// the operation, `embed`, the clock — and hands the base a function that
/// takes the object back. The function is a static method made in code
/// specialized for the feature's types, so it captures nothing and
/// allocates nothing, and the task's body captures only the object, the ID
/// and the reporter. A closure in its place was a second allocation per load,
/// and the body it made copied every capture, a retain and a release each
/// (BENCHMARKS.md, "Issue 25, third pass"). A method overridden per shape
/// would run unspecialized: the base's vtable holds the generic code.
///
/// One object for all of it, not one for each announcement and one for the
/// work: an enum case that carries a load — `Effect.Operation.load` —
/// carries one reference for its start (and its cancel ID); with three
/// closures, the compiler copied every such enum through value witnesses
/// (BENCHMARKS.md, step 19). The
/// announcements go straight into the queue rather than back in a value,
/// which, holding two actions, was destroyed through value witnesses too.
///
/// The start returns the task's body, rather than being called from a body
/// the store builds, so that the operation runs one async frame below the
/// task's body. A frame between them cost a call, a frame in the task's
/// allocator, and an executor switch back to the main actor when it
/// returned. And the store, not the start, starts the task: only the
/// store's launch, inlined into its drain's loop, gets `Task.immediate`
/// inlined (see `EffectLaunch.startTask`).
// Why `@unchecked Sendable` is safe: the class is not final — each shape of
// load subclasses it — and only a final class can conform plainly. Every
// stored property here and in each subclass is a `let` of a `Sendable` type,
// set in `init`, so threads that share the object only read it.
// Each subclass restates the conformance, as Swift requires. A `var` added
// to any of them would break this, and the compiler would not say so.
@usableFromInline
class LoadStart<Action>: EffectWork, @unchecked Sendable {
    /// Queues the announcements of load `id` and returns its task's body;
    /// given this object back, as the subclass that made it.
    @usableFromInline
    typealias Function = @MainActor @Sendable (LoadStart, LoadID, LoadReporter<Action>, inout [Action]) -> TaskBody<Void>

    @usableFromInline let _function: Function
    /// Whether this load, once started, cancels the work of the load it
    /// supersedes (its overlap policy).
    @usableFromInline let _cancelsEarlier: Bool

    /// Called only by a subclass's initializer, with that subclass's own
    /// static `start`: the `unsafeDowncast` in each `start` relies on it.
    @inlinable
    init(cancelsEarlier: Bool, function: @escaping Function) {
        _function = function
        _cancelsEarlier = cancelsEarlier
    }

    /// Tells a load that waited in a queue the value shown when its turn
    /// came, before its task runs: a stream that appends starts from it.
    /// Other loads ignore it. A method, unspecialized, on a path only a
    /// queued load takes.
    @usableFromInline
    @MainActor
    func startFrom(_ value: Any) {}

    /// Starts load `id`: queues what announces it and returns its task's body.
    @inlinable
    @MainActor
    func callAsFunction(_ id: LoadID, _ reporter: LoadReporter<Action>, _ queue: inout [Action]) -> TaskBody<Void> {
        _function(self, id, reporter, &queue)
    }
}

/// A load seen through `transform`: a scoped feature's load reports in the
/// parent's actions.
// `@unchecked Sendable` restated, as Swift requires; safe as `LoadStart` says.
@usableFromInline
final class MappedLoadStart<Child, Action>: LoadStart<Action>, @unchecked Sendable {
    @usableFromInline let _child: LoadStart<Child>
    @usableFromInline let _transform: MainActorFunction<Child, Action>

    // Inlinable, with `start`, so both are specialized for the feature's
    // actions: out of line, each load looked up the generic metadata of
    // this class and of the mapped reporter in the runtime's cache.
    @inlinable
    init(_ child: LoadStart<Child>, _ transform: MainActorFunction<Child, Action>) {
        _child = child
        _transform = transform
        super.init(cancelsEarlier: child._cancelsEarlier, function: MappedLoadStart.start)
    }

    @inlinable
    @MainActor
    static func start(_ start: LoadStart<Action>, _ id: LoadID, _ reporter: LoadReporter<Action>, _ queue: inout [Action])
        -> TaskBody<Void>
    {
        let mapped = unsafeDowncast(start, to: MappedLoadStart.self)
        var announced: [Child] = []
        let body = mapped._child(id, reporter.map(mapped._transform), &announced)
        for action in announced { queue.append(mapped._transform(action)) }
        return body
    }

    @usableFromInline
    @MainActor
    override func startFrom(_ value: Any) {
        _child.startFrom(value)
    }
}
