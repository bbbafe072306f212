import AsyncStateControls

/// The simulated network: latency around a base value, random failures at a
/// rate, and an offline switch scenarios can flip — all drawn from a seeded
/// generator so a run is reproducible. Used on the main actor, like the
/// features that call it.
@MainActor
public final class Network {
    /// What one request will do.
    public struct Plan: Sendable {
        public var latency: Duration
        public var failure: DemoAPI.Failure?
    }

    private var random: SplitMix64
    private var isOffline = false
    /// How many of the next requests fail whatever the dice say.
    private var failuresAhead = 0
    private let baseLatency: Duration
    private let failureRate: Double

    /// Creates a network whose latencies vary from half to one and a half
    /// times `baseLatency`, failing a `failureRate` share of requests.
    public init(seed: UInt64, baseLatency: Duration, failureRate: Double) {
        random = SplitMix64(seed: seed)
        self.baseLatency = baseLatency
        self.failureRate = failureRate
    }

    /// Takes the network down or brings it back.
    public func setOffline(_ offline: Bool) {
        isOffline = offline
    }

    /// Makes the next `count` requests fail with a server error — a flaky
    /// patch, for scenarios about retries.
    public func failNext(_ count: Int) {
        failuresAhead = max(count, 0)
    }

    /// Draws the latency and outcome of the next request.
    public func plan(for request: String) -> Plan {
        let factor = 0.5 + Double(random.next() % 1_000) / 1_000
        let latency = baseLatency * factor
        let failed = Double(random.next() % 10_000) / 10_000 < failureRate
        let forced = failuresAhead > 0
        if forced { failuresAhead -= 1 }
        let failure: DemoAPI.Failure? = isOffline ? .offline : failed || forced ? .serverError : nil
        return Plan(latency: latency, failure: failure)
    }
}
