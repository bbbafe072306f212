/// How one ``OperationTracker`` run ended, as its caller saw it.
///
/// ```swift
/// switch await operations.run(.save, { try await api.save(draft) }) {
/// case .success(let saved): show(saved)
/// case .failure(let error): banner(error)
/// case .cancelled, .ignored: break     // not an error
/// }
/// ```
///
/// | the run | result |
/// |---|---|
/// | its operation returned, the run not cancelled | `.success(value)` |
/// | its operation threw, the run not cancelled | `.failure(error)` |
/// | cancelled: the caller's task, ``OperationTracker/cancel(_:)``, ``OperationTracker/cancelAll()``, or a newer run of the key that cancels earlier ones | `.cancelled` |
/// | joined a run in flight (``OverlapPolicy/join``) | that run's result |
/// | not started: ``OverlapPolicy/firstWins`` with a run in flight, or joined a run whose value has another type | `.ignored` |
public enum OperationResult<Success, Failure> {
    /// The operation returned `Success`.
    case success(Success)
    /// The operation threw `Failure`.
    case failure(Failure)
    /// The run was cancelled — never a failure.
    case cancelled
    /// This call's operation did not run and there is no result of its type.
    case ignored

    /// The value of a successful run, or `nil`.
    public var value: Success? {
        if case .success(let value) = self { value } else { nil }
    }

    /// The failure of a failed run, or `nil`.
    public var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }

    /// Whether the run was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { true } else { false }
    }
}

extension OperationResult: Equatable where Success: Equatable, Failure: Equatable {}
extension OperationResult: Hashable where Success: Hashable, Failure: Hashable {}
extension OperationResult: Sendable where Success: Sendable, Failure: Sendable {}
