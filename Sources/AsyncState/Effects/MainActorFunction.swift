/// A function that the store calls only on the main actor — an `embed` that
/// wraps a child's actions, a `transform` from `Effect.map`, a `mapError` —
/// carried into the `@Sendable` closures that effects run in.
///
/// Why not require `@Sendable` (or `@MainActor`) functions instead: in Swift 5
/// language mode an enum case used as a function, `Action.feed`, is not
/// inferred `Sendable`, so every `.load(Action.feed) { … }` in such an app
/// would warn. Taking a plain function keeps the everyday API warning-free in
/// both language modes.
///
/// Why `@unchecked Sendable` is safe: the wrapped function is only ever
/// called through ``callAsFunction(_:)``, which is `@MainActor`, so no two
/// calls overlap and every call happens on the actor where the store runs the
/// reducer that created it. What the function captures was captured by that
/// reducer, which the store also runs on the main actor; a plain function
/// value cannot reach another thread through this wrapper because the wrapper
/// never calls it anywhere else.
@usableFromInline
struct MainActorFunction<Input, Output>: @unchecked Sendable {
    @usableFromInline let _body: (Input) -> Output

    @inlinable
    init(_ body: @escaping (Input) -> Output) {
        _body = body
    }

    @inlinable
    @MainActor
    func callAsFunction(_ input: Input) -> Output {
        _body(input)
    }
}

/// A ``MainActorFunction`` that takes its input consumed: a load's `embed`,
/// which wraps each of the load's actions in the feature's action.
///
/// Consumed, the load action moves into the feature's action; borrowed, the
/// wrapper had to copy it, a retain and a release of every reference its
/// value holds (BENCHMARKS.md, "Issue 25, sixth pass"). Safe to be
/// `@unchecked Sendable` for the reason `MainActorFunction` is.
@usableFromInline
struct MainActorConsumingFunction<Input, Output>: @unchecked Sendable {
    @usableFromInline let _body: (consuming Input) -> Output

    @inlinable
    init(_ body: @escaping (consuming Input) -> Output) {
        _body = body
    }

    @inlinable
    @MainActor
    func callAsFunction(_ input: consuming Input) -> Output {
        _body(input)
    }
}
