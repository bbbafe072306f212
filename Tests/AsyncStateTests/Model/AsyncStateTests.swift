import AsyncState
import AsyncStateTestSupport
import Testing

/// The contract of the seed README, row by row.
@Suite("AsyncState")
struct AsyncStateTests {
    static let allCases: [State] = [.notLoaded, .loading, .refreshing(value: 1), .success(value: 2), .error(error: .offline)]

    @Test(
        "startLoading follows the seed's rules",
        arguments: [
            (State.notLoaded, State.loading),
            (.error(error: .offline), .loading),
            (.success(value: 1), .refreshing(value: 1)),
            (.refreshing(value: 1), .refreshing(value: 1)),
            (.loading, .loading),
        ])
    func startLoading(from: State, to: State) {
        var state = from
        state.startLoading()
        #expect(state == to)
    }

    @Test(
        "stopLoading follows the seed's rules",
        arguments: [
            (State.loading, State.notLoaded),
            (.refreshing(value: 1), .success(value: 1)),
            (.notLoaded, .notLoaded),
            (.success(value: 1), .success(value: 1)),
            (.error(error: .offline), .error(error: .offline)),
        ])
    func stopLoading(from: State, to: State) {
        var state = from
        state.stopLoading()
        #expect(state == to)
    }

    @Test(
        "setValue keeps refreshing and otherwise succeeds",
        arguments: [
            (State.refreshing(value: 1), State.refreshing(value: 9)),
            (.notLoaded, .success(value: 9)),
            (.loading, .success(value: 9)),
            (.success(value: 1), .success(value: 9)),
            (.error(error: .offline), .success(value: 9)),
        ])
    func setValue(from: State, to: State) {
        var state = from
        state.setValue(9)
        #expect(state == to)
    }

    @Test(
        "properties read each case",
        arguments: [
            (State.notLoaded, nil, nil, false, false),
            (.loading, nil, nil, true, false),
            (.refreshing(value: 1), 1, nil, true, false),
            (.success(value: 2), 2, nil, false, false),
            (.error(error: .offline), nil, TestError.offline, false, true),
        ] as [(State, Int?, TestError?, Bool, Bool)])
    func properties(state: State, value: Int?, error: TestError?, isLoading: Bool, isError: Bool) {
        #expect(state.value == value)
        #expect(state.error == error)
        #expect(state.isLoading == isLoading)
        #expect(state.isError == isError)
    }

    @Test("equality compares case and payload")
    func equality() {
        for (i, lhs) in Self.allCases.enumerated() {
            for (j, rhs) in Self.allCases.enumerated() {
                #expect((lhs == rhs) == (i == j), "\(lhs) vs \(rhs)")
            }
        }
        #expect(State.success(value: 1) != .success(value: 2))
        #expect(State.refreshing(value: 1) != .success(value: 1))
    }

    @Test("hashable where the parameters are")
    func hashable() {
        let set = Set(Self.allCases + Self.allCases)
        #expect(set.count == Self.allCases.count)
    }

    @Test(
        "description is short and readable",
        arguments: [
            (State.notLoaded, "notLoaded"),
            (.loading, "loading"),
            (.refreshing(value: 1), "refreshing(value: 1)"),
            (.success(value: 2), "success(value: 2)"),
            (.error(error: .offline), "error(error: offline)"),
        ])
    func description(state: State, text: String) {
        #expect(state.description == text)
        #expect("\(state)" == text)
    }

    @Test("strings print quoted so empty values stay visible")
    func stringDescription() {
        let state = AsyncState<String, TestError>.success(value: "")
        #expect(state.description == #"success(value: "")"#)
    }

    @Test("sendable where the parameters are")
    func sendable() async {
        let state: State = .success(value: 3)
        let echoed = await Task.detached { state }.value
        #expect(echoed == state)
    }
}
