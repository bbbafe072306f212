#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The readings of a recorder: appended from any thread (an operation may
/// read its clock off the main actor), under a pthread mutex — which Thread
/// Sanitizer sees, where it cannot see `Synchronization.Mutex`'s futexes on
/// Linux.
@usableFromInline
final class ReadingLog: @unchecked Sendable {
    // Unchecked: `readings`, `stepCount` and `capacity` are read and written
    // only between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`,
    // in `withLock`; the mutex itself is allocated once and freed in `deinit`,
    // when no other reference exists.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var readings: [RecordedReading] = []
    private var stepCount = 0
    private var capacity: Int

    init(capacity: Int, stepCount: Int = 0) {
        self.capacity = capacity
        self.stepCount = stepCount
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Notes a reading, after the steps counted so far; keeps the newest
    /// `capacity`.
    func append(_ value: RecordedReading.Value, from source: String) {
        withLock {
            guard capacity > 0 else { return }
            readings.append(RecordedReading(step: stepCount, source: source, value: value))
            // Trimmed in halves, not one by one: `removeFirst` moves the whole array.
            if readings.count >= 2 * capacity { readings.removeFirst(readings.count - capacity) }
        }
    }

    /// Forgets every reading and counts steps from zero again.
    func reset() {
        withLock {
            readings.removeAll()
            stepCount = 0
        }
    }

    /// Counts one more recorded step.
    @usableFromInline
    func countStep() {
        withLock { stepCount += 1 }
    }

    /// The newest `capacity` readings, oldest first.
    var current: [RecordedReading] { withLock { Array(readings.suffix(capacity)) } }
}
