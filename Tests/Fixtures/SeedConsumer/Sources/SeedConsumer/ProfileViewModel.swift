import AsyncState
import Foundation

// Copied from the seed README; only `ObservableObject` and `@Published` are
// dropped, as Combine does not exist on Linux.
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
        try await Task.sleep(for: .milliseconds(300))
        return Profile(name: "Lee Wong", city: "Singapore")
    }
}

@MainActor
final class ArticleListViewModel {
    enum LoadError: Error, Equatable {
        case requestFailed
    }

    struct Article: Equatable {
        let id: UUID
        let title: String
    }

    private(set) var state: AsyncState<[Article], LoadError> = .notLoaded

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
        try await Task.sleep(for: .milliseconds(500))
        return [
            Article(id: UUID(), title: "Shipping Swift Features with Confidence"),
            Article(id: UUID(), title: "Designing Better Loading States"),
        ]
    }
}

enum FeedError: Error, Equatable { case unreachable }

// The seed's FeedView body, with each SwiftUI view replaced by its title.
func feedView(_ state: AsyncState<[String], FeedError>) -> String {
    switch state {
    case .notLoaded:
        return "Nothing loaded yet"

    case .loading:
        return "Loading feed..."

    case .refreshing(let items):
        return items.joined(separator: "\n") + "\n(refreshing)"

    case .success(let items):
        return items.joined(separator: "\n")

    case .error(let error):
        return "Could not load feed.\n" + error.localizedDescription
    }
}

// The README's API block, used member by member.
func useEveryMember(_ state: inout AsyncState<Int, FeedError>) -> (Int?, FeedError?, Bool, Bool) {
    state.startLoading()
    state.stopLoading()
    state.setValue(1)
    return (state.value, state.error, state.isLoading, state.isError)
}
