import AsyncState

/// What happened in one scenario, in simulated time: every processed action
/// with the state after it, narration, and the life of each load.
struct Timeline {
    struct Entry {
        var time: Duration
        var action: String
        var state: String
        var isDropped: Bool
    }

    struct Lane {
        var id: LoadID
        var label: String?
        var start: Duration
        var end: Duration?
        var outcome: String?
    }

    private(set) var entries: [Entry] = []
    private(set) var lanes: [Lane] = []

    /// Records a processed action and, if it is about a load, updates its lane.
    mutating func record(_ entry: Entry, load: LoadEvent?) {
        entries.append(entry)
        guard let load else { return }
        if load.kind == .started, !entry.isDropped {
            lanes.append(Lane(id: load.id, label: load.label, start: entry.time))
            return
        }
        guard let index = lanes.firstIndex(where: { $0.id == load.id }), lanes[index].end == nil else { return }
        lanes[index].end = entry.time
        lanes[index].outcome =
            switch (load.kind, entry.isDropped) {
            case (.finished, false): "✓ shown"
            case (.failed, false): "! failed"
            case (.finished, true), (.failed, true): "✗ dropped (stale)"
            case (.cancelled, _), (.started, _): "⊘ cancelled"
            }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// `1.250s`.
    var secondsText: String {
        let ms = milliseconds
        let fraction = String(ms % 1_000)
        return "\(ms / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}
