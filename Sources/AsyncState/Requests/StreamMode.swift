/// What the screen shows while a load over an `AsyncSequence` streams — in
/// particular during a refresh, when an old value is on screen.
///
/// | mode | while the stream runs | when it ends |
/// |---|---|---|
/// | ``startEmpty`` | each element replaces what is shown: the old value goes at the first element | the last result |
/// | ``append`` | elements accumulate onto the value shown when the load started | the accumulated result |
/// | ``keepUntilEnd`` | the old value (or the skeleton) stays; no `.progress` is sent | the result, at once |
///
/// Whatever the mode, a partial value lasts only as long as its attempt: a
/// retry, a failure or a cancellation returns ``Loadable/value`` to the last
/// settled value. To keep what streamed so far when cancelling, store it
/// first: `state.results.setValue(partial)` makes it the settled value, and
/// `cancel()` then returns to it.
public struct StreamMode: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable { case startEmpty, append, keepUntilEnd }

    @usableFromInline let _kind: Kind

    @inlinable
    init(_ kind: Kind) {
        _kind = kind
    }

    /// Each element shows as it arrives, accumulated from the load's initial
    /// value: a refresh starts over. The default.
    public static var startEmpty: StreamMode { StreamMode(.startEmpty) }

    /// Elements accumulate onto the value shown when the load started (the
    /// initial value if none is): new items arrive below the old ones. For a
    /// stream whose elements are whole values, like ``startEmpty``.
    public static var append: StreamMode { StreamMode(.append) }

    /// Nothing changes on screen until the stream ends; then its result shows
    /// at once, as for a load that is not streamed.
    public static var keepUntilEnd: StreamMode { StreamMode(.keepUntilEnd) }

    /// Whether this mode reports partial values.
    var showsProgress: Bool { _kind != .keepUntilEnd }

    /// `startEmpty`, `append` or `keepUntilEnd`.
    public var description: String { "\(_kind)" }
}
