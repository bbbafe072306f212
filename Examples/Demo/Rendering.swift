import Foundation

/// Turns timeline events into text or JSON lines.
@MainActor
struct Renderer {
    enum Format { case text, json }

    var format: Format
    var output: Output

    private static let actionWidth = 40

    func header(_ scenario: Scenario) {
        guard format == .text else { return }
        output.line()
        output.line(output.styled("▶ \(scenario.name)", .bold) + "  " + scenario.summary)
        output.line(output.styled("     time  " + pad("action", Self.actionWidth) + "  state", .dim))
    }

    func note(_ text: String, at time: Duration) {
        guard format == .text else { return }
        output.line(output.styled("  \(leftPad(time.secondsText, 7))  — \(text)", .magenta))
    }

    func entry(_ entry: Timeline.Entry, scenario: Scenario) {
        switch format {
        case .json:
            var object: [String: Any] = [
                "scenario": scenario.name,
                "time_ms": entry.time.milliseconds,
                "action": entry.action,
                "state": entry.state,
                "dropped": entry.isDropped,
            ]
            if let renders = entry.renders { object["renders"] = renders.count }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            output.line(String(decoding: data, as: UTF8.self))
        case .text:
            let time = output.styled(leftPad(entry.time.secondsText, 7), .dim)
            let renders = entry.renders.map { output.styled("  ⟲ \($0.count)/\($0.of) views", .dim) } ?? ""
            if entry.isDropped {
                let action = output.styled(pad("✗ " + entry.action, Self.actionWidth), .red)
                output.line("  \(time)  \(action)  " + output.styled("dropped: not the load in flight", .red) + renders)
            } else {
                output.line("  \(time)  \(pad(entry.action, Self.actionWidth))  \(entry.state)" + renders)
            }
        }
    }

    /// How many views re-rendered over the scenario, against every view re-rendering on every action.
    func renders(_ total: (renders: Int, actions: Int), views: Int) {
        guard format == .text else { return }
        output.line(
            output.styled(
                "  ⟲ \(total.renders) view renders over \(total.actions) actions; "
                    + "with every view depending on the whole store, \(total.actions * views)", .dim))
    }

    /// The lane diagram: which load started when, ended when, and which won.
    func lanes(_ timeline: Timeline) {
        guard format == .text, !timeline.lanes.isEmpty else { return }
        let width = 36
        let total = max(timeline.lanes.map { ($0.end ?? $0.start).milliseconds }.max() ?? 1, 1)
        func column(_ time: Duration) -> Int { time.milliseconds * width / total }
        output.line()
        output.line(
            output.styled(
                "  loads      0s" + String(repeating: " ", count: max(0, width - 8)) + Duration.milliseconds(total).secondsText, .dim))
        for lane in timeline.lanes {
            let start = column(lane.start)
            let end = lane.end.map(column) ?? width
            var bar = Array(
                String(repeating: " ", count: start) + "├" + String(repeating: "─", count: max(0, end - start - 1))
                    + (lane.end == nil ? "→" : "┤"))
            // Marks on the lane: ✗ a failed attempt, · its wait, • a part shown.
            func mark(_ character: Character, at column: Int) {
                if column > start, column < min(end, bar.count) { bar[column] = character }
            }
            for retry in lane.retries {
                let from = column(retry.time)
                for waiting in (from + 1)..<max(from + 1, column(retry.time + retry.wait)) { mark("·", at: waiting) }
                mark("✗", at: from)
            }
            for part in lane.parts { mark("•", at: column(part)) }
            let name = pad("\(lane.id)" + (lane.label.map { " \($0)" } ?? ""), 9)
            var outcome = lane.outcome ?? "… still running"
            if !lane.retries.isEmpty { outcome += " · \(lane.retries.count) \(lane.retries.count == 1 ? "retry" : "retries")" }
            if !lane.parts.isEmpty { outcome += " · \(lane.parts.count) parts shown" }
            if lane.droppedParts > 0 { outcome += " · \(lane.droppedParts) late parts dropped" }
            let style: Output.Style = outcome.hasPrefix("✓") ? .green : outcome.hasPrefix("✗") ? .red : .yellow
            output.line("  \(name)  \(pad(String(bar), width + 1))  " + output.styled(outcome, style))
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count > width ? String(text.prefix(width - 1)) + "…" : text + String(repeating: " ", count: width - text.count)
    }

    private func leftPad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
