// Cancelling effects: by cancel ID, by token, and the one being launched —
// which may be running synchronously inside `Task.immediate` right now.

extension Store {
    @inlinable
    func cancelEffects(withID id: CancelID) {
        guard let tokens = _effectsByCancelID[id] else { return }
        for token in tokens { cancelEffect(token) }
    }

    /// Cancels every effect made in `children`, which an action removed.
    /// A scan of the effects that have cancel IDs — none, on most stores —
    /// rather than a table by child: children are removed far less often
    /// than their effects start, and each start would pay for the table.
    @usableFromInline
    func cancelEffects(madeIn children: RemovedChildren) {
        if _cancelIDOfEffect.isEmpty { return }
        // Read from a copy, and collected first: `contains` runs the keys'
        // `==`, and cancelling runs cancellation handlers, either of which
        // may start or end effects and so change the table.
        let table = _cancelIDOfEffect
        var tokens: [Int] = []
        for (token, id) in table where children.contains(id) { tokens.append(token) }
        for token in tokens { cancelEffect(token) }
    }

    /// Cancels the effect `token`, whether its task runs, is being launched
    /// (a `send` from its own first synchronous part), or is still pending.
    @usableFromInline
    func cancelEffect(_ token: Int) {
        if let task = _runningEffects[token] {
            task.cancel()
        } else if token == _launch._token {
            // The effect is running synchronously right now, inside
            // `Task.immediate`, before the store has its task's handle.
            _launch.cancel()
        } else {
            // A loop, not `firstIndex(where:)`: a main-actor closure passed to
            // the standard library checks its executor on every call (see
            // `withPointer(to:_:)`).
            for index in _pending.indices where _pending[index]._token == token {
                _pending[index]._isCancelled = true
                break
            }
        }
    }
}
