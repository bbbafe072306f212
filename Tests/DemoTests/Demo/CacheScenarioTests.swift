import AsyncState
import AsyncStateTesting
import Testing

@testable import asyncstate_demo

/// The `cache` scenario tells the story its help promises.
@Suite("Demo scenario: cache")
@MainActor
struct CacheScenarioTests {
    func play(seed: UInt64 = 42) async -> Timeline {
        let player = Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { _ in })), pace: 0)
        return await Scenario.cache.run(player, Settings(seed: seed))
    }

    @Test("two screens share user 7: one load, and the second screen's subscribe starts none")
    func shared() async {
        let timeline = await play()
        #expect(timeline.lanes.filter { $0.label == "user 7" }.first?.id == LoadID(1))
        let chat = timeline.entries.firstIndex { $0.action == "opened(chat, user: 7)" }
        #expect(chat.map { timeline.entries[$0 + 1].state.contains("2 users") } == true)
        #expect(chat.map { !timeline.entries[$0 + 2].action.contains("started") } == true)
    }

    // Changed by design (CHANGELOG): an invalidation no longer waits for the
    // load in flight to end before reloading; the reload supersedes it at
    // once (TanStack Query's `cancelRefetch`).
    @Test("the chat leaves and the profile keeps user 7; the invalidation during a load supersedes it with a fresh one at once")
    func keepsAndSupersedes() async {
        let timeline = await play()
        let closed = timeline.entries.first { $0.action == "closed(chat)" }
        #expect(closed?.state.contains("7: success") == true)
        let changed = timeline.entries.firstIndex { $0.action == "serverChanged(user: 7)" }
        #expect(changed.map { timeline.entries[$0].state.contains("(#3 in flight) (invalidated)") } == true)
        #expect(changed.map { timeline.entries[$0 + 1].action.hasPrefix("users.entry(7, started(#4)") } == true)
        #expect(
            changed.map { timeline.entries[$0 + 2].action == "users.entry(7, cancelled(#3))" && timeline.entries[$0 + 2].isDropped } == true
        )
        #expect(!timeline.entries.contains { $0.action.hasPrefix("users.entry(7, finished(#3") }, "the overtaken load never settles")
        let finished = timeline.entries.first { $0.action.hasPrefix("users.entry(7, finished(#4") }
        #expect(finished.map { !$0.state.contains("(invalidated)") } == true)
        #expect(timeline.lanes.first { $0.id == LoadID(3) }?.outcome == "⊘ cancelled")
        #expect(timeline.lanes.filter { $0.id != LoadID(3) }.allSatisfy { $0.outcome == "✓ shown" })
    }

    @Test("user 8 is collected after it goes unused; a stale user 7 reloads when the app becomes active")
    func collectsAndRefetches() async {
        let timeline = await play()
        #expect(timeline.entries.contains { $0.action == "users.collect(8)" && !$0.state.contains("8:") })
        let active = timeline.entries.firstIndex { $0.action.hasPrefix("users.refetchStale") }
        #expect(active.map { timeline.entries[$0 + 1].action.hasPrefix("users.entry(7, started(#5)") } == true)
    }

    @Test("the same seed plays the same timeline; another seed another")
    func deterministic() async {
        let first = await play(seed: 42).entries.map(\.time.milliseconds)
        #expect(await play(seed: 42).entries.map(\.time.milliseconds) == first)
        #expect(await play(seed: 7).entries.map(\.time.milliseconds) != first)
    }
}
