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
}
