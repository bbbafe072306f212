#if canImport(Synchronization)
    import Synchronization
#endif
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
/// Linux. Each reading is noted after the steps recorded so far, a count the
/// recording store publishes on every step: through an atomic where the OS
/// has one (a release store, on x86 a plain `mov`), else under the mutex.
@usableFromInline
final class ReadingLog: @unchecked Sendable {
    // Unchecked: `readings`, `lockedStepCount` and `capacity` are read and
    // written only between `pthread_mutex_lock` and `pthread_mutex_unlock`
    // on `mutex`, in `withLock`; `publishedStepCount` is an `Atomic` (or
    // nil); the mutex itself is allocated once and freed in `deinit`, when
    // no other reference exists.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var readings: [RecordedReading] = []
    private var lockedStepCount = 0
    private var capacity: Int
    /// A `PublishedStepCount` where the OS has atomics; `nil` before.
    @usableFromInline let _publishedStepCount: AnyObject?

    init(capacity: Int, stepCount: Int = 0) {
        self.capacity = capacity
        self.lockedStepCount = stepCount
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            _publishedStepCount = PublishedStepCount(stepCount)
        } else {
            _publishedStepCount = nil
        }
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

    /// The steps recorded so far; read under the mutex.
    private var stepCount: Int {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let published = _publishedStepCount {
            return unsafeDowncast(published, to: PublishedStepCount.self).value.load(ordering: .acquiring)
        }
        return lockedStepCount
    }

    /// Forgets every reading and counts steps from zero again.
    func reset() {
        // The count first: a reading between the two then counts from zero
        // and stays, where one noted after the old count would be misplaced.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let published = _publishedStepCount {
            unsafeDowncast(published, to: PublishedStepCount.self).value.store(0, ordering: .releasing)
            withLock { readings.removeAll() }
        } else {
            withLock {
                readings.removeAll()
                lockedStepCount = 0
            }
        }
    }

    /// Says how many steps are recorded; called by the recording store only.
    @inlinable
    func publish(stepCount: Int) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let published = _publishedStepCount {
            // Only the recording store writes it, so no read-modify-write is needed.
            unsafeDowncast(published, to: PublishedStepCount.self).value.store(stepCount, ordering: .releasing)
        } else {
            publishLocked(stepCount: stepCount)
        }
    }

    @usableFromInline
    func publishLocked(stepCount: Int) {
        withLock { lockedStepCount = stepCount }
    }

    /// The newest `capacity` readings, oldest first.
    var current: [RecordedReading] { withLock { Array(readings.suffix(capacity)) } }
}

/// The step count a reading log publishes, in a class of its own: an
/// `Atomic` needs an OS that has it, and a stored property cannot be
/// available on some OSes only.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
final class PublishedStepCount: Sendable {
    @usableFromInline let value: Atomic<Int>
    init(_ stepCount: Int) { value = Atomic(stepCount) }
}
