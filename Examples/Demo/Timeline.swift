import AsyncState

/// What happened in one scenario, in simulated time: every processed action
/// with the state after it, narration, and the life of each load.
struct Timeline {
    struct Entry {
        var time: Duration
        var action: String
        var state: String
        var isDropped: Bool
        /// How many of the screen's views re-rendered after the action, of
        /// how many; `nil` unless counted (`--renders`).
        var renders: (count: Int, of: Int)?
    }

    struct Lane {
        var id: LoadID
        var label: String?
        var start: Duration
        var end: Duration?
        var outcome: String?
        /// When each failed attempt was reported, and the wait that followed.
        var retries: [(time: Duration, wait: Duration)] = []
        /// When each partial value arrived and was shown.
        var parts: [Duration] = []
        /// Partial values that arrived after the load was superseded or cancelled.
        var droppedParts = 0
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
        guard let index = lanes.firstIndex(where: { $0.id == load.id }) else { return }
        switch load.kind {
        case .progress where entry.isDropped:
            lanes[index].droppedParts += 1
            return
        case .progress:
            lanes[index].parts.append(entry.time)
            return
        case .retrying(let wait):
            if !entry.isDropped { lanes[index].retries.append((entry.time, wait)) }
            return
        case .started, .finished, .failed, .cancelled:
            break
        }
        guard lanes[index].end == nil else { return }
        lanes[index].end = entry.time
        lanes[index].outcome =
            switch (load.kind, entry.isDropped) {
            case (.finished, false): "✓ shown"
            case (.failed, false): "! failed"
            case (.finished, true), (.failed, true): "✗ dropped (stale)"
            case (.cancelled, _), (.started, _), (.retrying, _), (.progress, _): "⊘ cancelled"
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
