import AsyncState

/// The operations of a feature under exploration: each call waits until the
/// explorer chooses to answer it, so the explorer decides the order in which
/// results arrive.
///
/// ```swift
/// let report = await explore(Search.State(), script: [.typed("s"), .typed("sw")]) { operations in
///     Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
/// }
/// ```
///
/// A call ignores the cancellation of its task — the harshest operation
/// there is — so its answer still arrives after a cancel, and the store must
/// drop it.
public final class ControlledOperations: Sendable {
    let board = CallBoard()

    /// A clock for the feature's effects to sleep on — debounces, retry
    /// waits, timeouts. Each ordering gets a fresh one at zero, and moving it
    /// to its next deadline is one more choice the explorer tries at every
    /// moment something sleeps on it.
    public let clock = TestClock()

    init() {}

    /// An operation whose `call`-th call (from 0) answers `result(call)`,
    /// when the explorer chooses.
    public func operation<Value: Sendable, Failure: Error & Sendable>(
        _ name: String, result: @escaping @Sendable (Int) -> Result<Value, Failure>
    ) -> @Sendable () async throws(Failure) -> Value {
        let board = board
        return { () async throws(Failure) -> Value in
            try await board.call(name, input: nil, result).get()
        }
    }

    /// An operation taking an input, whose `call`-th call (from 0) with
    /// `input` answers `result(input, call)`, when the explorer chooses.
    public func operation<Input: Sendable, Value: Sendable, Failure: Error & Sendable>(
        _ name: String, result: @escaping @Sendable (Input, Int) -> Result<Value, Failure>
    ) -> @Sendable (Input) async throws(Failure) -> Value {
        let board = board
        return { (input: Input) async throws(Failure) -> Value in
            try await board.call(name, input: ValueDump.renderOneLine(input)) { result(input, $0) }.get()
        }
    }

    /// An operation that always answers `value`, when the explorer chooses.
    public func operation<Value: Sendable>(_ name: String, returning value: Value) -> @Sendable () async -> Value {
        let board = board
        return {
            switch await board.call(name, input: nil, { _ in Result<Value, Never>.success(value) }) {
            case .success(let value): value
            }
        }
    }
}

/// The calls waiting for the explorer, in the order they were made.
@MainActor
final class CallBoard: Sendable {
    struct Call {
        var name: String
        var number: Int
        /// The call's input as logs print it, if it takes one.
        var input: String?
        var answer: @MainActor () -> Void
    }

    private(set) var waiting: [Call] = []
    private var callCounts: [String: Int] = [:]
    /// Set when the ordering is over: every call then answers at once, so no
    /// effect stays suspended after the explorer has moved on.
    private var isClosed = false

    nonisolated init() {}

    /// Answers every waiting call, and every later one at once.
    func close() {
        isClosed = true
        while !waiting.isEmpty { _ = answer(0) }
    }

    func call<Value: Sendable, Failure: Error & Sendable>(
        _ name: String, input: String?, _ result: @Sendable (Int) -> Result<Value, Failure>
    ) async -> Result<Value, Failure> {
        let number = callCounts[name, default: 0]
        callCounts[name] = number + 1
        let outcome = result(number)
        if isClosed { return outcome }
        return await withCheckedContinuation { continuation in
            waiting.append(Call(name: name, number: number, input: input) { continuation.resume(returning: outcome) })
        }
    }

    /// Answers the waiting call at `index`.
    func answer(_ index: Int) -> Call {
        let call = waiting.remove(at: index)
        call.answer()
        return call
    }
}
