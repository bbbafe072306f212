extension Store {
    /// Logs every action this store processes from now on: the action, each
    /// field of the state it changed, and whether it was dropped as stale.
    /// For watching a feature while developing an app; tests have
    /// `TestStore` and snapshots.
    ///
    /// ```swift
    /// let store = Store(initialState: Profile.State(), reducer: Profile(api: api))
    /// store.logTransitions(prefix: "profile")
    /// // [profile] .refresh
    /// //   (no change)
    /// // [profile] .profile(.started(#1))
    /// //   profile.state: .notLoaded → .loading
    /// //   …
    /// // [profile] dropped as stale: .profile(.finished(#1, "Old"))
    /// ```
    ///
    /// Each step renders and compares the whole state with `Mirror`, which
    /// costs microseconds per action: keep it out of release builds.
    ///
    /// - Parameters:
    ///   - prefix: put in brackets before each action, to tell stores apart.
    ///   - log: receives each logged step as one string of one or more lines;
    ///     by default it is printed.
    public func logTransitions(prefix: String? = nil, to log: @escaping @MainActor (String) -> Void = { print($0) }) {
        var describer = TransitionDescriber(initialState: _currentState)
        let lead = prefix.map { "[\($0)] " } ?? ""
        observeTransitions { transition in
            log(lead + describer.describe(transition).joined(separator: "\n"))
        }
    }
}

/// Describes transitions one after another — the action, then the fields it
/// changed — comparing each state with the one before. Shared by
/// ``Store/logTransitions(prefix:to:)`` and the testing library's recordings,
/// so a log and a snapshot read alike.
package struct TransitionDescriber {
    private var previous: Any

    /// Starts from `initialState`.
    package init(initialState: Any) {
        previous = initialState
    }

    /// The action's line, then one indented line per changed field, or
    /// `(no change)` for an applied action that changed nothing.
    package mutating func describe<State, Action>(_ transition: Transition<State, Action>) -> [String] {
        let action = ValueDump.renderOneLine(transition.action)
        defer { previous = transition.state }
        var lines = [transition.isDropped ? "dropped as stale: \(action)" : action]
        let changes = FieldDiff.lines(from: previous, to: transition.state)
        if changes.isEmpty {
            if !transition.isDropped { lines.append("  (no change)") }
        } else {
            lines += changes.map { "  " + $0 }
        }
        return lines
    }
}

extension Recording {
    /// The steps as numbered lines — each action, then the fields it changed,
    /// as logs and snapshots print them — for failure reports and the demo.
    package var stepLines: [String] {
        var describer = TransitionDescriber(initialState: initialState)
        var lines: [String] = []
        for (index, step) in steps.enumerated() {
            let described = describer.describe(Transition(action: step.action, state: step.state, isDropped: step.isDropped))
            lines.append("  \(index + 1). " + described[0])
            lines += described.dropFirst().map { "   " + $0 }
        }
        return lines
    }
}
