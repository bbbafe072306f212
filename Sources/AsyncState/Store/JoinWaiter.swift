/// A caller waiting for a load whose task it does not own — a `join` of a
/// load another `send` started, or a `Cache` subscription's `loaded()`: it
/// returns when the load's task ends, or as soon as its own task is cancelled
/// — without cancelling the load, which is not the caller's to cancel.
///
/// Awaiting the load's `Task.value` directly would not do: that await ignores
/// cancellation, so a withdrawn joiner would hang on until the load ended.
@usableFromInline
@MainActor
final class JoinWaiter {
    private var continuation: CheckedContinuation<Void, Never>?
    private var isReleased = false

    /// Waits for `load` to end, or for the calling task to be cancelled.
    @usableFromInline
    static func wait(for load: Task<Void, Never>) async {
        let waiter = JoinWaiter()
        // The watcher outlives a withdrawn caller until the load ends; it holds
        // only the waiter and the load's handle, never the store.
        Task { @MainActor in
            await load.value
            waiter.release()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if waiter.isReleased { continuation.resume() } else { waiter.continuation = continuation }
            }
        } onCancel: {
            // Runs on the cancelling thread; the waiter lives on the main actor.
            Task { @MainActor in waiter.release() }
        }
    }

    private func release() {
        isReleased = true
        continuation?.resume()
        continuation = nil
    }
}
