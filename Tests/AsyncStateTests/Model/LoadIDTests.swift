import AsyncState
import Testing

@Suite("LoadID")
struct LoadIDTests {
    @Test("prints as #n")
    func prints() {
        #expect(LoadID(3).description == "#3")
    }

    @Test("orders by generation and counts up")
    func orders() {
        #expect(LoadID(1) < LoadID(2))
        #expect(LoadID(2).next == LoadID(3))
        #expect(!(LoadID(2) < LoadID(2)))
    }

    @Test(
        "load actions print with their ID",
        arguments: [
            (LoadAction<Int, TestError>.started(id(1)), "started(#1)"),
            (.finished(id(2), 5), "finished(#2, 5)"),
            (.failed(id(3), .offline), "failed(#3, offline)"),
            (.cancelled(id(4)), "cancelled(#4)"),
        ])
    func actionDescription(action: LoadAction<Int, TestError>, text: String) {
        #expect(action.description == text)
        #expect(action.id.description == String(text.split(separator: "(")[1].prefix(2)))
    }
}
