/// Starts `body` in a main-actor task and returns once that task has run up to
/// its first suspension — for a caller of a shared load, once it has joined
/// and is waiting. No sleeps: the task resumes the test first, but the test
/// cannot run again until the main actor is free, which is when the task
/// suspends.
@MainActor
package func startCaller<Result: Sendable>(_ body: @escaping @MainActor () async -> Result) async -> Task<Result, Never> {
    var task: Task<Result, Never>?
    await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
        task = Task { @MainActor in
            started.resume()
            return await body()
        }
    }
    return task!
}
