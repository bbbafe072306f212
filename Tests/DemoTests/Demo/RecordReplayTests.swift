import AsyncState
import Foundation
import Testing

@testable import asyncstate_demo

/// `--record`, `replay` and `explore`, run in process.
@Suite("Demo: record, replay, explore")
@MainActor
struct RecordReplayTests {
    /// A player that collects what it prints.
    func player(into lines: LinesBox) -> Player {
        Player(renderer: Renderer(format: .text, output: Output(useColor: false, write: { lines.lines.append($0) })), pace: 0)
    }

    @Test("every scenario's recording replays to the same timeline, byte for byte", arguments: Scenario.all.map(\.name))
    func replaysByteForByte(name: String) async throws {
        let scenario = try #require(Scenario.named(name))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("asyncstate-\(name)-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let live = LinesBox()
        let recording = player(into: live)
        recording.recordPath = file
        await scenario.run(recording, Settings())
        #expect(recording.failure == nil)
        let text = try Files.read(file)
        #expect(Player.scenarioName(in: text) == name)
        let replayed = LinesBox()
        let replaying = player(into: replayed)
        replaying.replayText = text
        await scenario.run(replaying, Settings())
        #expect(replaying.failure == nil)
        #expect(live.lines.count > 3)
        #expect(replayed.lines == live.lines)
    }

    @Test("a recording cut short is refused with the line at fault, and prints nothing")
    func truncated() async throws {
        let scenario = try #require(Scenario.named("profile"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("asyncstate-cut-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recording = player(into: LinesBox())
        recording.recordPath = file
        await scenario.run(recording, Settings())
        let lines = try Files.read(file).split(separator: "\n")
        let replayed = LinesBox()
        let replaying = player(into: replayed)
        replaying.replayText = lines.dropLast().joined(separator: "\n")
        await scenario.run(replaying, Settings())
        #expect(
            replaying.failure
                == "asyncstate-demo: cannot replay this recording: Recording file, line \(lines.count): the file ends before its closing line — it was cut short."
        )
        #expect(replayed.lines.isEmpty)
    }

    @Test("a recording that cannot be written says why in the system's words")
    func unwritable() async throws {
        let scenario = try #require(Scenario.named("profile"))
        let folder = FileManager.default.temporaryDirectory.path
        let recording = player(into: LinesBox())
        recording.recordPath = folder
        await scenario.run(recording, Settings())
        #expect(recording.failure == "asyncstate-demo: could not write the recording to \(folder): Is a directory")
    }

    @Test(
        "explore checks every ordering of every scenario",
        arguments: [
            ("profile", 3), ("feed", 15), ("search", 5), ("save", 6), ("cancel", 8), ("retry", 16), ("stream", 6), ("pages", 18),
            ("optimistic", 105), ("cache", 9), ("social", 16),
        ])
    func explores(name: String, orderings: Int) async throws {
        let exploration = try #require(Scenario.explorable(name))
        let output = LinesBox()
        let held = await exploration.run(false, Output(useColor: false, write: { output.lines.append($0) }))
        #expect(held)
        #expect(output.lines.last?.hasPrefix("checked \(orderings) orderings") == true)
        #expect(
            output.lines.last?.hasSuffix(
                "every invariant held: no stale result wins, nothing stuck loading, no confirmed edit lost, no invalidation lost, cancellation is never failure"
            )
                == true)
    }

    @Test("the broken profile is caught applying a stale result, and minimized")
    func brokenCaught() async throws {
        let exploration = try #require(Scenario.explorable("profile"))
        let output = LinesBox()
        let held = await exploration.run(true, Output(useColor: false, write: { output.lines.append($0) }))
        #expect(!held)
        #expect(
            output.lines[1]
                == #"ordering 1 broke "no stale result wins": a result of load #1, which was no longer running, was applied: .profile(.finished(#1, "Lee Wong · Singapore"))"#
        )
        #expect(output.lines[2] == "ordering: send(.appeared) → send(.reloadTapped) → answer profile #0 → answer profile #1")
        #expect(output.lines[3] == "minimized to 4 of 6 steps (it replays):")
        #expect(output.lines[4] == "  1. .profile(.started(#1))")
    }

    @Test("every scenario can be explored")
    func everyScenarioExplorable() {
        #expect(Scenario.explorations.map(\.name).sorted() == Scenario.all.map(\.name).sorted())
    }

    @Test("a scenario with no broken variant says so")
    func noBrokenVariant() async throws {
        let output = LinesBox()
        let exploration = try #require(Scenario.explorable("feed"))
        let held = await exploration.run(true, Output(useColor: false, write: { output.lines.append($0) }))
        #expect(!held)
        #expect(output.lines == ["asyncstate-demo: feed has no broken variant; try: asyncstate-demo explore profile --broken"])
    }
}

/// Lines a test's output collects.
@MainActor
final class LinesBox {
    var lines: [String] = []
}
