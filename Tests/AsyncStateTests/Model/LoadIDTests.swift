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
            (.planned(id(5), attempts: 3), "planned(#5, 3 attempts)"),
            (.queued(id(6)), "queued(#6)"),
            (.at(LoadClock.Instant(offset: .seconds(2)), .finished(id(7), 1)), "finished(#7, 1) at 2.0 seconds"),
        ])
    func actionDescription(action: LoadAction<Int, TestError>, text: String) {
        #expect(action.description == text)
        #expect(action.id.description == String(text.split(separator: "(")[1].prefix(2)))
    }

    @Test("the actions of a load's layers name the load they are about")
    func layerActionIDs() {
        let more = LoadAction<Int, TestError>.more(PageRequest(page: 2, list: id(1)), .started(id(3)))
        #expect(more.id == id(3))
        #expect(more.description == "more(page 2 of #1, started(#3))")
        #expect(LoadAction<Int, TestError>.edit(.confirmed(id(4))).id == id(4))
        #expect(LoadAction<Int, TestError>.edit(.confirmed(id(4))).description == "edit(confirmed(#4))")
    }
}
