import AsyncState

extension Recording {
    /// A smallest recording whose replay still `fails`: the actions kept in
    /// order, replayed through `reducer` from `initialState`.
    ///
    /// It shrinks by delta debugging over *units* — every action about one
    /// load (its start, progress, retries and result, found by the
    /// `LoadID` the action names) is one unit, each other action a unit of
    /// its own — so every candidate is a valid sequence: no result without
    /// its start, no start without what followed it. The result is
    /// 1-minimal: taking away any one unit more makes `fails` false. The
    /// recording of no step is a candidate too: write `fails` so that it is
    /// false of a recording that shows nothing (`steps.last?.state` is `nil`
    /// there), unless the initial state already fails.
    ///
    /// - Parameters:
    ///   - reducer: the feature's reducer, run with no effects.
    ///   - maximumReplays: a bound on the replays tried (each costs one pass
    ///     of the reducer over the candidate); when reached, the smallest
    ///     failing recording found so far is returned.
    ///   - fails: the property that fails on this recording.
    /// - Returns: the smallest failing replay found, or this recording
    ///   replayed unchanged if `fails` does not hold on that replay.
    public func minimized<R: Reducer>(
        through reducer: R, maximumReplays: Int = 10_000, whileFailing fails: (Recording) -> Bool
    ) -> Recording where R.State == State, R.Action == Action {
        let actions = steps.map(\.action)
        var units = Self.units(of: actions)
        var replays = 0
        func replay(_ kept: [[Int]]) -> Recording {
            let indices = kept.joined().sorted()
            return Recording(
                replaying: indices.map { actions[$0] }, from: initialState, through: reducer, times: indices.map { steps[$0].time })
        }
        var smallest = replay(units)
        guard fails(smallest) else { return smallest }
        var granularity = 2
        search: while units.count >= 2, replays < maximumReplays {
            let size = (units.count + granularity - 1) / granularity
            let chunks = stride(from: 0, to: units.count, by: size).map { Array(units[$0..<min($0 + size, units.count)]) }
            // Try each chunk's complement: most failures need only a few units.
            for (index, _) in chunks.enumerated() {
                guard replays < maximumReplays else { break search }
                let complement = chunks.enumerated().filter { $0.offset != index }.flatMap(\.element)
                replays += 1
                let candidate = replay(complement)
                if fails(candidate) {
                    units = complement
                    smallest = candidate
                    granularity = max(granularity - 1, 2)
                    continue search
                }
            }
            guard granularity < units.count else { break }
            granularity = min(granularity * 2, units.count)
        }
        // One unit left: its complement, no step at all, is the one
        // candidate the search above never tries (a property the initial
        // state already breaks).
        if units.count == 1, replays < maximumReplays {
            let empty = replay([])
            if fails(empty) { smallest = empty }
        }
        return smallest
    }

    /// The indices of `actions`, grouped: all the actions that name one load
    /// in one unit (at the place of its first), every other action alone.
    static func units(of actions: [Action]) -> [[Int]] {
        var units: [[Int]] = []
        var unitOfLoad: [LoadID: Int] = [:]
        for (index, action) in actions.enumerated() {
            guard let id = LoadInspection.loadID(of: action) else {
                units.append([index])
                continue
            }
            if let unit = unitOfLoad[id] {
                units[unit].append(index)
            } else {
                unitOfLoad[id] = units.count
                units.append([index])
            }
        }
        return units
    }
}
