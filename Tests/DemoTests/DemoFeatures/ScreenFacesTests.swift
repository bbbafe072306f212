import AsyncState
import AsyncStateTesting
import Testing

@testable import DemoFeatures

/// Every demo screen has the README's three faces: content, with a banner
/// when the last load failed; a failure face only when there is nothing to
/// show; a skeleton otherwise (an outside reading: the optimistic and inbox
/// screens hid a failed load behind a skeleton or "empty").
@Suite("Demo features: the three faces of a failed load")
@MainActor
struct ScreenFacesTests {
    typealias Failure = DemoAPI.Failure
    static let posts = (1...2).map { OptimisticFeature.Post(id: $0, title: "Post \($0)") }

    @Test("optimistic posts: a failure face with nothing shown, a banner over the posts")
    func optimistic() {
        var state = OptimisticFeature.State()
        state.posts = Loadable(expecting: .error(error: .serverError), newestID: LoadID(1))
        #expect(state.face == "failure face: server error")
        state.posts = Loadable(expecting: .error(error: .serverError), value: Self.posts, newestID: LoadID(2))
        #expect(state.face == #"1 "Post 1" · 2 "Post 2" [banner: server error]"#)
        state.posts = Loadable(expecting: .loading, settledState: .error(error: .serverError), inFlightID: LoadID(3))
        #expect(state.face == "skeleton (loading)", "a retry over nothing shows the skeleton")
    }

    @Test("the inbox: a failure face with nothing shown, a banner over the messages")
    func inbox() {
        var state = InboxFeature.State()
        state.messages = Loadable(expecting: .error(error: .offline), newestID: LoadID(1))
        #expect(state.face == "failure face: offline")
        state.messages = Loadable(expecting: .error(error: .offline), value: ["Hi", "Lunch?"], newestID: LoadID(2))
        #expect(state.face == "Hi, Lunch?  [banner: offline]")
        state.messages = Loadable()
        #expect(state.face == "empty", "nothing loaded yet")
    }
}
