import AsyncState
import AsyncStateTesting
import XCTest

/// The loadable a profile screen shows, for expected states built by value.
private typealias Profile = Loadable<String, ProfileScreen.LoadFailure>

/// The test tools under XCTest: failures must reach XCTest, with their message.
final class XCTestReportingTests: XCTestCase {
    private var captured: [String] = []
    private var isCapturing = false

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            if isCapturing { captured.append(issue.compactDescription) } else { super.record(issue) }
        }
    #else
        override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
            if isCapturing {
                captured.append(description)
            } else {
                super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }
    #endif

    /// Runs `body`, collecting the failures it reports instead of failing this test.
    @MainActor
    private func failures(_ body: () async -> Void) async -> [String] {
        isCapturing = true
        captured = []
        await body()
        isCapturing = false
        return captured
    }

    @MainActor
    func testPassingFlowReportsNothing() async {
        let gates = GateQueue(count: 1)
        let reported = await failures {
            let store = TestStore(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: gates))
            store.send(.refresh)
            await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1)) }
            gates[0].open(with: "Lee")
            await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
                $0.profile = Profile(expecting: .success(value: "Lee"), newestID: LoadID(1))
            }
            await store.finish()
        }
        XCTAssertEqual(reported, [])
    }

    @MainActor
    func testWrongMutationIsReportedToXCTestWithItsDiff() async {
        let reported = await failures {
            let store = TestStore(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: GateQueue(count: 1)))
            store.send(.rename("Settings")) { $0.title = "Setings" }
        }
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(
            reported.first?.contains("State after send(.rename(\"Settings\")) differs from the expected state") == true, "\(reported)")
        XCTAssertTrue(reported.first?.contains("  title: \"Setings\" → \"Settings\"") == true, "\(reported)")
    }

    @MainActor
    func testMissingActionIsReportedToXCTest() async {
        let reported = await failures {
            let store = TestStore(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: GateQueue(count: 1)))
            store.timeout = .milliseconds(10)
            await store.receive(.cancel)
        }
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("Expected to receive .cancel, but no action arrived within") == true, "\(reported)")
    }

    @MainActor
    func testSnapshotMismatchIsReportedToXCTest() async {
        let reported = await failures {
            let recording = StateSequence<Int, String>(initialState: 0)
            recording.append(Transition(action: "a", state: 1, isDropped: false))
            assertSnapshot(of: recording, named: "does-not-exist-\(UInt64.random(in: 0...UInt64.max))", record: .never)
        }
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("No snapshot \"does-not-exist-") == true, "\(reported)")
    }
}
