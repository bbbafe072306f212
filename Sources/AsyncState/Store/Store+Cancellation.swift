// Cancelling effects: by cancel ID, by token, and the one being launched —
// which may be running synchronously inside `Task.immediate` right now.

extension Store {
    @inlinable
    func cancelEffects(withID id: AnyHashable) {
        guard let tokens = _effectsByCancelID[id] else { return }
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
            // `Task.immediate`, so it is the current task — unless its
            // operation started a task of its own that sent from there.
            if let task = _launch._task, currentTaskHash() == task {
                cancelCurrentTask()
            } else {
                _launch._state = .cancelRequested
            }
        } else if let index = _pending.firstIndex(where: { $0._token == token }) {
            _pending[index]._isCancelled = true
        }
    }
}

/// Cancels the task that is running now.
@usableFromInline
func cancelCurrentTask() {
    withUnsafeCurrentTask { $0?.cancel() }
}

/// Identifies the task that is running now, for comparing it with the task
/// being launched. A hash of the task's address: the tasks compared are both
/// alive, so equal hashes of different tasks would need a 64-bit collision.
@usableFromInline
func currentTaskHash() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
}
