import AsyncState
import DemoFeatures

extension Presenter where State == ProfileFeature.State, Action == ProfileFeature.Action {
    static let profile = Presenter(
        state: { "profile: \($0.profile)" },
        load: { if case .profile(let load) = $0 { LoadEvent(load) } else { nil } }
    )
}

extension Presenter where State == FeedFeature.State, Action == FeedFeature.Action {
    static let feed = Presenter(
        state: { "\($0.posts.state.isLoading ? "⟳ " : "")\($0.face)" },
        action: { action in
            if case .posts(.finished(let id, let posts)) = action { return "posts(finished(\(id), \(posts.count) posts))" }
            return String(describing: action)
        },
        load: { if case .posts(let load) = $0 { LoadEvent(load) } else { nil } }
    )
}

extension Presenter where State == SearchFeature.State, Action == SearchFeature.Action {
    static let search = Presenter(
        state: { "query \($0.query.debugDescription) · results: \($0.results)" },
        load: { if case .results(let load) = $0 { LoadEvent(load) } else { nil } }
    )
}

extension Presenter where State == SaveFeature.State, Action == SaveFeature.Action {
    static let save = Presenter(
        state: { state in
            SaveFeature.Operation.allCases
                .map { "\($0): \(state.isActive($0) ? "active" : state.operations[$0]?.error.map { "failed (\($0))" } ?? "idle")" }
                .joined(separator: " · ") + " · revision \(state.revision)"
        },
        load: { if case .operation(let key, let load) = $0 { LoadEvent(load, label: key.rawValue) } else { nil } }
    )
}

extension Presenter where State == PagesFeature.State, Action == PagesFeature.Action {
    static let pages = Presenter(
        state: { $0.face },
        load: { action in
            guard case .feed(let load) = action else { return nil }
            if case .more = load { return LoadEvent(load) }
            return LoadEvent(load, label: "list")
        }
    )
}

extension Presenter where State == OptimisticFeature.State, Action == OptimisticFeature.Action {
    static let optimistic = Presenter(
        state: { $0.face },
        action: { action in
            if case .posts(.finished(let id, let posts)) = action { return "posts(finished(\(id), \(posts.count) posts))" }
            return String(describing: action)
        },
        load: { action in
            guard case .posts(let load) = action else { return nil }
            if case .edit = load { return LoadEvent(load) }
            return LoadEvent(load, label: "load")
        }
    )
}

extension Presenter where State == InboxFeature.State, Action == InboxFeature.Action {
    static let inbox = Presenter(
        state: { "inbox: \($0.face)" },
        load: { if case .messages(let load) = $0 { LoadEvent(load) } else { nil } }
    )
}

extension Presenter where State == CatalogFeature.State, Action == CatalogFeature.Action {
    static let catalog = Presenter(
        state: { state in
            let results = state.results.value.map { "\($0)" } ?? "none"
            let banner = state.results.error.map { "  [banner: \($0)]" } ?? ""
            return "query \(state.query.debugDescription) · \(state.results.isLoading ? "⟳ " : "")results: \(results)\(banner)"
        },
        load: { if case .results(let load) = $0 { LoadEvent(load) } else { nil } }
    )
}

extension Presenter where State == SocialFeature.State, Action == SocialFeature.Action {
    static let social = Presenter(
        state: { $0.face },
        action: { action in
            switch action {
            case .posts(.at(_, .finished(let id, let pages))), .posts(.finished(let id, let pages)):
                return "posts(finished(\(id), \(pages.count) posts))"
            case .posts(.more(let request, .finished(let id, let pages))):
                return "posts(more(\(request), finished(\(id), \(pages.count) posts)))"
            case .appeared(let now):
                return "appeared(at: \(now))"
            default:
                return String(describing: action)
            }
        },
        load: { action in
            switch action {
            case .posts(let load): LoadEvent(load, label: "feed")
            case .results(let load): LoadEvent(load, label: "search")
            case .detail(let id, let load): LoadEvent(load, label: "detail \(id)")
            default: nil
            }
        },
        // The screen, view by view: each reads only the part it shows.
        views: { store in
            var views = [
                ScreenView(name: "banner") { _ = store[part: \.banner] },
                ScreenView(name: "list status") {
                    _ = store[part: \.posts.isLoading]
                    _ = store[part: \.posts.error]
                },
                ScreenView(name: "footer") {
                    _ = store[part: \.posts.isLoadingMore]
                    _ = store[part: \.posts.moreError]
                    _ = store[part: \.posts.value?.hasMore]
                },
                ScreenView(name: "search field") { _ = store.query },
                ScreenView(name: "search results") { _ = store.results },
            ]
            for row in 0..<8 {
                views.append(ScreenView(name: "row \(row)") { _ = store[part: \.posts.value?[row: row]] })
            }
            for id in 1...3 {
                views.append(ScreenView(name: "detail \(id)") { _ = store[part: \.details, key: id] })
            }
            return views
        }
    )
}

extension Pages {
    /// The row at `position`, or `nil` past the end: what a row view reads.
    subscript(row position: Int) -> Element? {
        position < count ? self[position] : nil
    }
}
