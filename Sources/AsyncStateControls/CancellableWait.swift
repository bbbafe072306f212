/// Suspends until a condition holds, or until the waiting task is cancelled —
/// the one shape of ``TestClock/waitForSleepers(_:)`` and
/// ``Gate/waitForArrivals(_:)``, which a test's time limit must be able to end.
///
/// - Parameters:
///   - register: under the caller's lock, `true` if the wait is over (the
///     condition holds, or the task is already cancelled); otherwise it keeps
///     the continuation, for whoever meets the condition to resume.
///   - withdraw: under the caller's lock, takes the kept continuation back if
///     it is still kept, for the cancellation handler to resume.
func waitUnlessCancelled(
    register: (CheckedContinuation<Void, Never>) -> Bool,
    withdraw: @Sendable () -> CheckedContinuation<Void, Never>?
) async {
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            if register(continuation) { continuation.resume() }
        }
    } onCancel: {
        withdraw()?.resume()
    }
}
