import AsyncStateControls

/// How the answers of the demo's pretend servers travel — the one place
/// they wait. Played, an answer arrives after a latency drawn from a
/// ``Network`` on a clock, or fails as the network says; explored
/// (`asyncstate-demo explore`), it arrives when the explorer answers it, so
/// every order is tried, and fails where `failing` says.
public struct Wire: Sendable {
    private enum Route: Sendable {
        case simulated(any Clock<Duration>, Network)
        case answering(ControlledOperations, failing: [String: Set<Int>])
    }

    private let route: Route

    /// Answers after the latencies `network` draws, waited on `clock`.
    public init(clock: any Clock<Duration>, network: Network) {
        route = .simulated(clock, network)
    }

    /// Answers when the explorer says; the calls of a request numbered in
    /// `failing` (from 0: `["inbox": [0]]` fails the first) fail with a
    /// server error.
    public init(answering operations: ControlledOperations, failing: [String: Set<Int>] = [:]) {
        route = .answering(operations, failing: failing)
    }

    /// How a `request` made now will arrive: its latency and failure are
    /// drawn at once, so a network's dice fall in the order requests are made.
    @MainActor
    public func delivery(for request: String, slowdown: Double = 1) -> Delivery {
        switch route {
        case .simulated(let clock, let network):
            let plan = network.plan(for: request)
            return Delivery(route: .after(plan.latency * slowdown, clock, plan.failure))
        case .answering(let operations, let failing):
            let failing = failing[request] ?? []
            let answer = operations.operation(request) { call in
                failing.contains(call) ? Result<Void, DemoAPI.Failure>.failure(.serverError) : .success(())
            }
            return Delivery(route: .answered(answer))
        }
    }

    /// Waits for `request`'s answer; throws the failure it brings.
    @MainActor
    public func respond(to request: String, slowdown: Double = 1) async throws(DemoAPI.Failure) {
        try await delivery(for: request, slowdown: slowdown).arrive()
    }
}

/// One answer on its way over a ``Wire``.
public struct Delivery: Sendable {
    enum Route: Sendable {
        case after(Duration, any Clock<Duration>, DemoAPI.Failure?)
        case answered(@Sendable () async throws(DemoAPI.Failure) -> Void)
    }

    let route: Route

    /// Waits until the answer arrives; throws the failure it brings.
    public func arrive() async throws(DemoAPI.Failure) {
        switch route {
        case .after(let latency, let clock, let failure):
            do {
                try await clock.sleep(for: latency)
            } catch {
                // Cancelled while waiting; the load reports `.cancelled`, whatever is thrown here.
                throw .offline
            }
            if let failure { throw failure }
        case .answered(let answer):
            try await answer()
        }
    }
}
