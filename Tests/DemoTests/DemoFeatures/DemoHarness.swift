import AsyncState
import AsyncStateTesting
import DemoFeatures

/// A demo API on a test clock with a network that never fails by chance:
/// a request answers within half to one and a half times `baseLatency`
/// (searches for short queries take up to three times longer), so advancing
/// the clock by ``answerTime`` answers each ordinary request that is waiting.
@MainActor
struct DemoHarness {
    let clock = TestClock()
    let network: Network
    let answerTime: Duration
    var api: DemoAPI { DemoAPI(clock: clock, network: network) }

    init(baseLatency: Duration = .milliseconds(100)) {
        network = Network(seed: 7, baseLatency: baseLatency, failureRate: 0)
        answerTime = baseLatency * 1.5
    }

    /// Lets the request that is about to wait on the clock get there, then
    /// moves time on until it answers.
    func answer(requests: Int = 1) async {
        await clock.waitForSleepers(requests)
        clock.advance(by: answerTime)
    }
}
