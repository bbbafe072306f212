import AsyncState
import Testing

@testable import asyncstate_demo

/// `--renders`: after each action of the social scenario, how many of the
/// screen's 16 views re-render — only those whose part changed.
@Suite("Demo: views re-rendered per action")
@MainActor
struct RendersTests {
    func play() async -> Timeline {
        let player = Player(
            renderer: Renderer(format: .text, output: Output(useColor: false, write: { _ in })), pace: 0, countsRenders: true)
        return await Scenario.social.run(player, Settings())
    }

    @Test("the feed re-renders the views whose parts changed, and nothing for an action that changed nothing they show")
    func social() async {
        let entries = await play().entries
        let renders = entries.map { $0.renders?.count ?? -1 }
        #expect(entries.allSatisfy { $0.renders?.of == 16 })
        #expect(
            renders.reduce(0, +) == 38,
            "38 renders over \(entries.count) actions, where one dependency on the store would be \(entries.count * 16)")
        #expect(entries.count == 36)
        let first = entries.first { $0.action.hasPrefix("posts(finished(#1") }
        #expect(first?.renders?.count == 7, "the list status, the footer and the four rows that arrived")
        let planned = entries.filter { $0.action.contains("planned(") }
        #expect(!planned.isEmpty && planned.allSatisfy { $0.renders?.count == 0 }, "a retry plan changes nothing a view shows")
        let taps = entries.filter { $0.action.hasPrefix("likeTapped") }
        #expect(!taps.isEmpty && taps.allSatisfy { $0.renders?.count == 0 }, "a tap only starts the edit, whose start re-renders")
    }

    @Test("without --renders nothing is counted")
    func off() async {
        let player = Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { _ in })), pace: 0)
        let entries = await Scenario.social.run(player, Settings()).entries
        #expect(entries.allSatisfy { $0.renders == nil })
    }
}
