/// The standard library's `withUnsafe…` functions, for main-actor code.
///
/// A closure that touches main-actor state, passed straight to the standard
/// library — a module built in the Swift 5 language mode — checks at run
/// time, on every call, that it runs on the main actor: about 15 ns, nearly
/// three plain `send`s (BENCHMARKS.md, issue 27). Passed through
/// these functions, written in Swift 6, it is checked where it is compiled
/// instead: they hand the standard library a function value, not a closure
/// formed on the main actor.

/// `withUnsafePointer(to:_:)`, without a run-time executor check.
@inlinable @inline(__always)
func withPointer<T, Result>(to value: T, _ body: (UnsafePointer<T>) -> Result) -> Result {
    withUnsafePointer(to: value, body)
}

/// `withUnsafeBytes(of:_:)`, without a run-time executor check.
@inlinable @inline(__always)
func withBytes<T, Result>(of value: T, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    withUnsafeBytes(of: value, body)
}

/// `withUnsafeCurrentTask(body:)`, without a run-time executor check.
@inlinable @inline(__always)
func withCurrentTask<Result>(_ body: (UnsafeCurrentTask?) -> Result) -> Result {
    withUnsafeCurrentTask(body: body)
}

/// `Unmanaged._withUnsafeGuaranteedRef(_:)`, without a run-time executor check.
@inlinable @inline(__always)
func withGuaranteed<Object: AnyObject, Result>(_ object: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
    object._withUnsafeGuaranteedRef(body)
}
