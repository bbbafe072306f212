import Dispatch

/// Runs the jobs of the tasks that prefer it one at a time, in the order they
/// come: tasks a control resumes in some order go on in that order, and
/// tasks started one after another run up to their first wait one after
/// another — so a test sees, without sleeping, the order a control keeps.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class SerialTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
