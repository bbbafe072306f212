/// Lets a long model check give its thread back to the cooperative pool every
/// few milliseconds.
///
/// Swift Testing runs tests side by side on the cooperative pool, which has one
/// thread per core: two on CI. A check that computes for seconds without
/// suspending holds one of those threads the whole time, and two such checks
/// stall every other test. Tests that wait on a gate or on a `TestStore`'s
/// bounded `receive` then time out for no fault of their own (seen on CI: a
/// `receive` gave up after 5 s while the checks held both threads). Checks call
/// ``yieldIfSpent()`` in their loops; reading the clock costs far less than one
/// step of any check.
package struct TimeSlice {
    private let length: Duration
    private var start = ContinuousClock.now

    package init(length: Duration = .milliseconds(2)) {
        self.length = length
    }

    /// Suspends (re-enqueuing behind the jobs waiting for a thread) once the
    /// check has run for `length` since it last suspended.
    package mutating func yieldIfSpent() async {
        let now = ContinuousClock.now
        guard now - start >= length else { return }
        await Task.yield()
        start = .now
    }
}
