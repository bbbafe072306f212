import AsyncState
import AsyncStateTesting
import Testing

@testable import asyncstate_demo

/// The list scenarios: pages and optimistic edits.
@Suite("Demo scenarios: lists and writes")
@MainActor
struct ListScenarioTests {
    func quietPlayer() -> Player {
        Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { _ in })), pace: 0)
    }

    @Test("pages: a refresh during a load more drops its report; a failed load more keeps the rows and shows a retry row; the list ends")
    func pages() async {
        let timeline = await Scenario.pages.run(quietPlayer(), Settings())
        #expect(timeline.entries.contains { $0.isDropped && $0.action.contains("more(page 2 of #1") })
        #expect(!timeline.entries.contains { !$0.isDropped && $0.state.contains("1.4") }, "no page of the replaced list is ever shown")
        #expect(timeline.entries.contains { $0.state.contains("rows 2.1…2.6 (6) · retry row (offline)") })
        #expect(timeline.entries.last?.state.hasSuffix("end of list") == true)
    }

    @Test("optimistic: the failed like rolls back only itself; the refresh that landed in between loses nothing")
    func optimistic() async {
        let timeline = await Scenario.optimistic.run(quietPlayer(), Settings())
        let last = timeline.entries.last?.state ?? ""
        #expect(last == #"1 "Post 1" ♥ · 2 "Post 2" · 3 "Edited" [banner: offline]"#)
    }

    @Test("both play the same timeline for the same seed", arguments: ["pages", "optimistic"])
    func deterministic(name: String) async throws {
        let scenario = try #require(Scenario.named(name))
        func entries(_ seed: UInt64) async -> [String] {
            await scenario.run(quietPlayer(), Settings(seed: seed)).entries.map { "\($0.time.milliseconds) \($0.action) \($0.state)" }
        }
        let first = await entries(42)
        #expect(await entries(42) == first)
        #expect(await entries(7) != first)
    }
}
