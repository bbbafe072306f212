import AsyncState
import AsyncStateTestSupport
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

    // `id` matches the common inner actions of `.more` and `.at` in place,
    // and any other through the inner action: both paths, at every depth.
    @Test(
        "a wrapped action names the load of the action it wraps",
        arguments: [
            LoadAction<Int, TestError>.started(id(9)), .finished(id(9), 1), .failed(id(9), .offline), .cancelled(id(9)),
            .retrying(id(9), LoadRetry(attempt: 1, of: 2, failure: .offline, wait: .zero)), .progress(id(9), 1),
            .planned(id(9), attempts: 2), .queued(id(9)), .edit(.confirmed(id(9))),
        ])
    func wrappedActionIDs(inner: LoadAction<Int, TestError>) {
        let request = PageRequest(page: 2, list: id(1))
        let instant = LoadClock.Instant(offset: .seconds(1))
        #expect(LoadAction.more(request, inner).id == id(9))
        #expect(LoadAction.at(instant, inner).id == id(9))
        #expect(LoadAction.more(request, .at(instant, inner)).id == id(9))
        #expect(LoadAction.at(instant, .more(request, inner)).id == id(9))
    }
}
