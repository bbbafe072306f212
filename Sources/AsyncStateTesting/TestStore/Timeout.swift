/// How a test store bounds a wait: in turns that the awaited work needs too,
/// not in wall-clock time.
///
/// An action an effect sends reaches the test store through the cooperative
/// pool and the main actor. With the whole suite running in parallel on a
/// loaded two-core machine (under the thread sanitizer, every step is about ten
/// times slower), a main-actor job can queue for seconds, and an action whose
/// effect hops a few times arrives long after a wall-clock timer: on CI, waits
/// of 5 s failed for effects that were only queued behind other tests.
///
/// So a timeout is counted in ticks. Each tick sleeps on the pool, then takes a
/// turn on the main actor to see whether the wait was answered, queuing as the
/// effect's work does, and counts its nominal length however late it comes. On
/// an idle machine a wait lasts `timeout`; on a busy one it stretches with the
/// queues; a wait that no work will ever answer still ends.
enum Timeout {
    /// How many ticks make up a timeout: many more turns than an effect's
    /// action needs to arrive.
    static let ticks = 50

    /// Whether `timeout` passes, in ticks, before `isAnswered` returns `true`
    /// or the task is cancelled.
    @MainActor
    static func expires(after timeout: Duration, unless isAnswered: () -> Bool) async -> Bool {
        let tick = max(timeout / ticks, .milliseconds(1))
        var counted = Duration.zero
        while counted < timeout {
            let length = min(tick, timeout - counted)
            guard (try? await sleepOnPool(length)) != nil, !isAnswered() else { return false }
            counted += length
        }
        return true
    }

    @concurrent
    private static func sleepOnPool(_ length: Duration) async throws {
        try await Task.sleep(for: length)
    }
}
