import Testing

@testable import AsyncStateTesting

@Suite("Record mode")
struct RecordModeTests {
    @Test(
        "the mode comes from the variable, then CI, then defaults to missing",
        arguments: [
            ([:], SnapshotRecordMode.missing),
            (["CI": "true"], .never),
            (["CI": "1"], .never),
            (["CI": "false"], .missing),
            (["CI": "no"], .missing),
            (["CI": "0"], .missing),
            (["CI": ""], .missing),
            (["ASYNCSTATE_RECORD": "all"], .all),
            (["ASYNCSTATE_RECORD": "FAILED"], .failed),
            (["ASYNCSTATE_RECORD": "all", "CI": "true"], .all),
            (["ASYNCSTATE_RECORD": "bogus", "CI": "true"], .never),
            (["ASYNCSTATE_RECORD": "never"], .never),
        ] as [([String: String], SnapshotRecordMode)])
    func resolve(environment: [String: String], mode: SnapshotRecordMode) {
        #expect(SnapshotRecordMode.resolve(environment: { environment[$0] }) == mode)
    }

    // From an outside reading: a misspelt mode (`true`, `bogus`) fell back
    // to the default silently.
    @Test(
        "a variable that names no mode is a failure of every assertion that names none",
        arguments: [
            ([:], nil),
            (["ASYNCSTATE_RECORD": "FAILED"], nil),
            (
                ["ASYNCSTATE_RECORD": "true"],
                "ASYNCSTATE_RECORD=true names no record mode (missing, all, failed, never); nothing was compared or recorded."
            ),
        ] as [([String: String], String?)])
    func environmentProblem(environment: [String: String], problem: String?) {
        #expect(SnapshotRecordMode.environmentProblem(environment: { environment[$0] }) == problem)
    }

}
