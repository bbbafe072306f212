import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

@testable import asyncstate_demo

@Suite("Demo presenters: a failed load is shown")
@MainActor
struct PresenterFacesTests {
    @Test("the stream's catalog shows a banner when its search failed, over the results or none")
    func catalog() {
        var state = CatalogFeature.State()
        state.query = "sw"
        state.results = Loadable(expecting: .error(error: .serverError), newestID: LoadID(1))
        #expect(Presenter.catalog.state(state) == #"query "sw" · results: none  [banner: server error]"#)
        state.results = Loadable(expecting: .error(error: .serverError), value: ["Swift"], newestID: LoadID(2))
        #expect(Presenter.catalog.state(state) == #"query "sw" · results: ["Swift"]  [banner: server error]"#)
    }
}
