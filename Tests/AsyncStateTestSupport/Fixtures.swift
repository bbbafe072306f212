import AsyncState

/// The failure type the tests load with.
package enum TestError: Error, Equatable, Hashable, Sendable {
    case offline
    case timedOut
}

/// An error that is not a `TestError`, for untyped loads.
package struct Offline: Error, Equatable {
    package init() {}
}

package typealias State = AsyncState<Int, TestError>

package func id(_ raw: UInt64) -> LoadID { LoadID(raw) }

/// An edit that adds one, for tests whose values it never reads closely.
package struct AddOne: Edit {
    package init() {}

    package func apply(to value: inout Int) -> Bool {
        value += 1
        return true
    }
}
