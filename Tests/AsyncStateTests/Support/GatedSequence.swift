import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting

/// The elements of a test stream, each held by a gate of its own: a test
/// opens gate `i` with the `i`-th element, or fails it with ``End`` to end
/// the stream, or with another error to make the stream throw.
final class StreamSource: Sendable {
    /// Fails a gate to end the stream there.
    struct End: Error {}

    private let gates = LockedValue<[Gate<Int>]>([])

    /// The gate of element `index` (from 0), made ahead if needed.
    subscript(index: Int) -> Gate<Int> {
        gates.withLock { gates in
            while gates.count <= index { gates.append(Gate()) }
            return gates[index]
        }
    }

    /// How many times an iterator asked for an element.
    var requests: Int { gates.withLock { $0.count } }
}

/// An `AsyncSequence` over a ``StreamSource``. It honours cancellation like a
/// well-behaved stream, unless `ignoresCancellation`: then it goes on waiting
/// for, and yielding, elements after its task is cancelled.
struct GatedSequence: AsyncSequence, Sendable {
    typealias Element = Int

    let source: StreamSource
    var ignoresCancellation = false

    struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let source: StreamSource
        let ignoresCancellation: Bool
        var index = 0

        mutating func next() async throws -> Int? {
            let gate = source[index]
            index += 1
            if ignoresCancellation { return await gate.value() }
            do {
                return try await gate.wait()
            } catch is StreamSource.End {
                return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source, ignoresCancellation: ignoresCancellation)
    }
}

/// A feature that loads a list of numbers over a stream.
struct StreamingFeature: Reducer {
    struct State: Equatable {
        var numbers = Loadable<[Int], TestError>()
    }

    enum Action: Equatable {
        /// Streams from source `index`.
        case load(Int)
        case cancel
        case keepPartialAndCancel
        case numbers(LoadAction<[Int], TestError>)
    }

    let sources: [StreamSource]
    var mode: StreamMode = .startEmpty
    var overlap: OverlapPolicy = .latestWins
    var ignoresCancellation = false
    var retry: RetryPolicy<TestError>?
    var timeout: LoadTimeout<TestError>?

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let index):
            let source = sources[index], ignoresCancellation = ignoresCancellation
            let request = LoadRequest(
                stream: { GatedSequence(source: source, ignoresCancellation: ignoresCancellation) },
                mode: mode, initial: [], mapError: { $0 as? TestError ?? .offline }
            ) { $0.append($1) }
            return state.numbers.load(Action.numbers, request.retry(retry).timeout(timeout), overlap: overlap)
        case .cancel:
            return .cancel(load: state.numbers.cancel())
        case .keepPartialAndCancel:
            if let partial = state.numbers.partialValue { state.numbers.setValue(partial) }
            return .cancel(load: state.numbers.cancel())
        case .numbers(let load):
            return state.numbers.reduce(load)
        }
    }
}
