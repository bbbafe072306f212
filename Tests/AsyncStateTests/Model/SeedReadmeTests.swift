import AsyncState
import AsyncStateTestSupport
import Testing

// The seed README's examples, copied as written minus SwiftUI and Combine
// (`ObservableObject` and `@Published` dropped, `UUID` replaced by `Int` as
// the core module does not import Foundation, views replaced by functions).

@MainActor
final class ProfileViewModel {
    enum LoadError: Error, Equatable {
        case offline
    }

    struct Profile: Equatable {
        let name: String
        let city: String
    }

    private(set) var state: AsyncState<Profile, LoadError> = .notLoaded
    var fails = false

    func loadProfile() async {
        state.startLoading()

        do {
            let profile = try await fetchProfile()
            state.setValue(profile)
            state.stopLoading()
        } catch {
            state = .error(error: .offline)
        }
    }

    private func fetchProfile() async throws -> Profile {
        if fails { throw LoadError.offline }
        return Profile(name: "Lee Wong", city: "Singapore")
    }
}

@MainActor
final class ArticleListViewModel {
    enum LoadError: Error, Equatable {
        case requestFailed
    }

    struct Article: Equatable {
        let id: Int
        let title: String
    }

    private(set) var state: AsyncState<[Article], LoadError> = .notLoaded
    var fails = false

    func refresh() async {
        state.startLoading()

        do {
            let articles = try await fetchLatestArticles()
            state.setValue(articles)
            state.stopLoading()
        } catch {
            if let currentArticles = state.value {
                state = .success(value: currentArticles)
            } else {
                state = .error(error: .requestFailed)
            }
        }
    }

    private func fetchLatestArticles() async throws -> [Article] {
        if fails { throw LoadError.requestFailed }
        return [
            Article(id: 1, title: "Shipping Swift Features with Confidence"),
            Article(id: 2, title: "Designing Better Loading States"),
        ]
    }
}

enum FeedError: Error, Equatable { case unreachable }

/// The seed's `FeedView` as a function naming what it would show.
func feedFace(_ state: AsyncState<[String], FeedError>) -> String {
    switch state {
    case .notLoaded:
        "Nothing loaded yet"
    case .loading:
        "Loading feed..."
    case .refreshing(let items):
        "\(items.count) items + spinner"
    case .success(let items):
        "\(items.count) items"
    case .error(let error):
        "Could not load feed. \(error)"
    }
}

@Suite("Seed README examples")
@MainActor
struct SeedReadmeTests {
    @Test("the profile view model loads")
    func profileLoads() async {
        let model = ProfileViewModel()
        await model.loadProfile()
        #expect(model.state == .success(value: .init(name: "Lee Wong", city: "Singapore")))
    }

    @Test("the profile view model fails")
    func profileFails() async {
        let model = ProfileViewModel()
        model.fails = true
        await model.loadProfile()
        #expect(model.state == .error(error: .offline))
    }

    @Test("a failed article refresh keeps the articles")
    func articlesKeepValue() async {
        let model = ArticleListViewModel()
        await model.refresh()
        model.fails = true
        await model.refresh()
        #expect(model.state.value?.count == 2)
        #expect(!model.state.isLoading)
    }

    @Test(
        "the feed view's switch is exhaustive over the five cases",
        arguments: [
            (AsyncState<[String], FeedError>.notLoaded, "Nothing loaded yet"),
            (.loading, "Loading feed..."),
            (.refreshing(value: ["a"]), "1 items + spinner"),
            (.success(value: ["a", "b"]), "2 items"),
            (.error(error: .unreachable), "Could not load feed. unreachable"),
        ])
    func feed(state: AsyncState<[String], FeedError>, face: String) {
        #expect(feedFace(state) == face)
    }
}
