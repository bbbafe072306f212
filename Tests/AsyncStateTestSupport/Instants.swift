import AsyncState

/// The instant `milliseconds` after a load clock was made.
package func instant(ms milliseconds: Int) -> LoadClock.Instant {
    LoadClock.Instant(offset: .milliseconds(milliseconds))
}

/// A loadable whose load #1 finished with `value`, stamped at `settled` ms.
package func freshlyLoaded(_ value: Int = 1, at settled: Int = 0) -> Loadable<Int, TestError> {
    var loadable = Loadable<Int, TestError>()
    _ = loadable.apply(.started(LoadID(1)))
    _ = loadable.apply(.at(instant(ms: settled), .finished(LoadID(1), value)))
    return loadable
}
