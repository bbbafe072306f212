import AsyncState

/// The failure type the tests load with.
enum TestError: Error, Equatable, Hashable, Sendable {
    case offline
    case timedOut
}

typealias State = AsyncState<Int, TestError>

func id(_ raw: UInt64) -> LoadID { LoadID(raw) }
