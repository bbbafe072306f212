import AsyncStateControls

/// Stands in for a platform notification — the app became active — as an app
/// adapts one: each listener gets an `AsyncStream` of its own, and `send()`
/// reaches every stream still listened to.
package final class Broadcast: Sendable {
    private let continuations = LockedValue<[AsyncStream<Void>.Continuation]>([])

    package init() {}

    /// A new stream of the events sent from now on.
    package func listen() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        continuations.withLock { $0.append(continuation) }
        return stream
    }

    /// Sends one event to every stream.
    package func send() {
        for continuation in continuations.current { continuation.yield() }
    }

    /// Ends every stream.
    package func finish() {
        for continuation in continuations.current { continuation.finish() }
    }

    /// How many streams were made.
    package var listenerCount: Int { continuations.current.count }
}
