import AsyncState
import AsyncStateTesting
import Testing

@testable import asyncstate_demo

/// The demo's scenarios, played silently in simulated time.
@Suite("Demo scenarios")
@MainActor
struct ScenarioSnapshotTests {
    /// A player that prints nothing.
    func quietPlayer() -> Player {
        Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { _ in })), pace: 0)
    }

    @Test("every scenario plays the state sequence of its committed snapshot", arguments: Scenario.all.map(\.name))
    func snapshot(name: String) async throws {
        let scenario = try #require(Scenario.named(name))
        let player = quietPlayer()
        var recording: StateSequence<Any, Any>?
        player.onStart = { recording = StateSequence(initialState: $0) }
        player.onTransition = { recording?.append($0) }
        await scenario.run(player, Settings())
        assertSnapshot(of: try #require(recording), named: name)
    }

    @Test("search drops the late answers to old queries and shows the newest")
    func searchDrops() async {
        let timeline = await Scenario.search.run(quietPlayer(), Settings())
        #expect(timeline.lanes.contains { $0.outcome == "✗ dropped (stale)" })
        #expect(timeline.lanes.last?.outcome == "✓ shown")
        #expect(timeline.entries.last(where: { !$0.isDropped })?.state.contains(#"2 hits for "swift""#) == true)
    }

    @Test("cancel returns to the value shown before the reload, never an error")
    func cancelReturns() async {
        let timeline = await Scenario.cancel.run(quietPlayer(), Settings())
        #expect(
            timeline.entries.contains { $0.action == "cancelTapped" && $0.state == #"profile: success(value: "Lee Wong · Singapore")"# })
        #expect(!timeline.entries.contains { $0.state.contains("error") })
    }

    @Test("the same seed plays the same timeline; another seed plays another", arguments: ["search", "retry", "stream"])
    func deterministic(name: String) async throws {
        let scenario = try #require(Scenario.named(name))
        func times(_ seed: UInt64) async -> [String] {
            await scenario.run(quietPlayer(), Settings(seed: seed)).entries.map { "\($0.time.milliseconds) \($0.state)" }
        }
        let first = await times(42)
        #expect(await times(42) == first)
        #expect(await times(7) != first)
    }

    @Test("retry: failed attempts and their waits show; a reload supersedes a chain in its wait; a cancel in a wait returns to content")
    func retryScenario() async {
        let timeline = await Scenario.retry.run(quietPlayer(), Settings())
        #expect(timeline.entries.contains { $0.state.contains("skeleton  [Retrying (2 of 3) in") })
        #expect(timeline.entries.contains { $0.state.contains("weekly digest  [Retrying (2 of 3) in") })
        #expect(timeline.lanes.first?.retries.count == 2)
        #expect(timeline.lanes.first?.outcome == "✓ shown")
        #expect(timeline.entries.contains { $0.action == "messages(cancelled(#2))" && $0.isDropped })
        #expect(timeline.entries.contains { $0.action == "cancelTapped" && $0.state == "inbox: re: visit 1, weekly digest" })
        #expect(!timeline.entries.contains { $0.state.contains("banner") })
        #expect(timeline.lanes.last?.outcome == "✓ shown")
    }

    @Test("stream: parts show as they arrive; the superseded stream's late parts and end are dropped")
    func streamScenario() async {
        let timeline = await Scenario.stream.run(quietPlayer(), Settings())
        let first = timeline.lanes.first { $0.id == LoadID(1) }
        #expect(first?.parts.isEmpty == false)
        #expect((first?.droppedParts ?? 0) > 0)
        #expect(first?.outcome == "✗ dropped (stale)")
        #expect(timeline.lanes.last?.outcome == "✓ shown")
        #expect(timeline.entries.contains { $0.action.hasPrefix("results(progress(#1") && $0.isDropped })
        #expect(timeline.entries.last { !$0.isDropped }?.state.contains(#"query "swi""#) == true)
    }

    @Test("the lane diagram marks failed attempts, waits and parts")
    func laneMarks() async {
        var lines: [String] = []
        let player = Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { lines.append($0) })), pace: 0)
        await Scenario.retry.run(player, Settings())
        await Scenario.stream.run(player, Settings())
        #expect(lines.contains { $0.hasPrefix("  #1") && $0.contains("✗") && $0.contains("·") && $0.hasSuffix("2 retries") })
        #expect(lines.contains { $0.hasPrefix("  #1") && $0.contains("•") && $0.contains("late parts dropped") })
    }

    @Test("the text timeline marks drops and draws one lane per load")
    func text() async {
        var lines: [String] = []
        let player = Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { lines.append($0) })), pace: 0)
        await Scenario.search.run(player, Settings())
        #expect(lines.contains { $0.contains("✗ results(finished(#2") && $0.hasSuffix("dropped: not the load in flight") })
        #expect(lines.filter { $0.hasPrefix("  #") }.count == 4)
    }
}
