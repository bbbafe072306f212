import AsyncState
import AsyncStateControls
import DemoFeatures

/// A runnable story that shows one promise of the kit.
struct Scenario: Sendable {
    var name: String
    var summary: String
    var details: String
    var play: @MainActor @Sendable (Scenario, Player, Settings) async -> Timeline

    /// Plays the scenario with `settings` and returns what happened.
    @MainActor
    @discardableResult
    func run(_ player: Player, _ settings: Settings) async -> Timeline {
        await play(self, player, settings)
    }
}

/// What the command line controls about the simulated world.
struct Settings: Sendable {
    var seed: UInt64 = 42
    var latency: Duration = .milliseconds(300)
    var failureRate: Double = 0

    @MainActor
    func network() -> Network {
        Network(seed: seed, baseLatency: latency, failureRate: failureRate)
    }
}

extension Scenario {
    static let all: [Scenario] = [profile, feed, search, save, cancel, retry, stream, pages, optimistic, cache, social]

    static func named(_ name: String) -> Scenario? {
        all.first { $0.name == name }
    }

    static let profile = Scenario(
        name: "profile",
        summary: "Load on appear, then reload: the name stays on screen while refreshing.",
        details: "A first load goes .loading → .success; a reload shows .refreshing(value:) with the old name until the new one arrives."
    ) { scenario, player, settings in
        let clock = TestClock()
        return await player.play(
            scenario, reducer: ProfileFeature(api: DemoAPI(clock: clock, network: settings.network())),
            initialState: .init(), clock: clock, presenter: .profile,
            script: [(.zero, .send(.appeared)), (.milliseconds(500), .send(.reloadTapped))]
        )
    }

    static let feed = Scenario(
        name: "feed",
        summary: "Pull to refresh keeps posts on screen; a failed refresh keeps them and adds a banner.",
        details:
            "The network goes offline before the second refresh: the state becomes .error, yet the last posts stay readable, so the screen shows content plus an error banner instead of going blank."
    ) { scenario, player, settings in
        let clock = TestClock()
        let network = settings.network()
        return await player.play(
            scenario, reducer: FeedFeature(api: DemoAPI(clock: clock, network: network)),
            initialState: .init(), clock: clock, presenter: .feed,
            script: [
                (.zero, .send(.appeared)),
                (.milliseconds(500), .send(.pulledToRefresh)),
                (.milliseconds(1_000), .happen("the network goes offline") { network.setOffline(true) }),
                (.milliseconds(1_000), .send(.pulledToRefresh)),
            ]
        )
    }

    static let search = Scenario(
        name: "search",
        summary: "Typing fast starts overlapping searches; late answers to old queries are dropped.",
        details:
            "Each keystroke waits out a 120 ms debounce (a quick second keystroke replaces the first), then searches. Broad queries are slow, so the answer for \"s\" can arrive after the answer for \"swift\" — and is dropped as stale, never shown."
    ) { scenario, player, settings in
        let clock = TestClock()
        let api = DemoAPI(clock: clock, network: settings.network())
        return await player.play(
            scenario, reducer: SearchFeature(api: api, clock: clock, debounce: .milliseconds(120)),
            initialState: .init(), clock: clock, presenter: .search,
            script: [
                (.zero, .send(.queryChanged("s"))),
                (.milliseconds(180), .send(.queryChanged("sw"))),
                (.milliseconds(230), .send(.queryChanged("swi"))),
                (.milliseconds(400), .send(.queryChanged("swif"))),
                (.milliseconds(560), .send(.queryChanged("swift"))),
            ]
        )
    }

    static let save = Scenario(
        name: "save",
        summary: "Operations tracked one by one: save and delete run at once; a double-tapped Save runs once.",
        details:
            "Each operation is its own Loadable keyed by name. Save is active while it runs, so a second tap is ignored (first wins); delete runs alongside without touching save's state."
    ) { scenario, player, settings in
        let clock = TestClock()
        return await player.play(
            scenario, reducer: SaveFeature.reducer(api: DemoAPI(clock: clock, network: settings.network())),
            initialState: .init(), clock: clock, presenter: .save,
            script: [
                (.zero, .send(.saveTapped)),
                (.milliseconds(60), .send(.saveTapped)),
                (.milliseconds(100), .send(.deleteTapped)),
            ]
        )
    }

    static let cancel = Scenario(
        name: "cancel",
        summary: "Cancelling a reload returns to the previous value — never an error, never stuck loading.",
        details:
            "After a first load succeeds, a reload starts and is cancelled before it answers: the state goes back to .success with the name already shown."
    ) { scenario, player, settings in
        let clock = TestClock()
        return await player.play(
            scenario, reducer: ProfileFeature(api: DemoAPI(clock: clock, network: settings.network())),
            initialState: .init(), clock: clock, presenter: .profile,
            script: [(.zero, .send(.appeared)), (.milliseconds(500), .send(.reloadTapped)), (.milliseconds(600), .send(.cancelTapped))]
        )
    }

    static let pages = Scenario(
        name: "pages",
        summary:
            "Infinite scroll: a pull-to-refresh during a load-more drops the stale page; a failed load-more keeps the list and shows a retry row.",
        details:
            "The first page and refreshes run in the list lane and replace every page (a new generation, g1, g2, …); each load-more runs in the more lane, tagged with the generation and the page it asked for. Pulling to refresh while page 2 loads cancels it and drops its report; with the network down a load-more fails, the rows stay and a retry row appears; a retry loads the page, and the list ends after page 4."
    ) { scenario, player, settings in
        let clock = TestClock()
        let network = settings.network()
        return await player.play(
            scenario, reducer: PagesFeature(clock: clock, network: network),
            initialState: .init(), clock: clock, presenter: .pages,
            script: [
                (.zero, .send(.appeared)),
                (.milliseconds(500), .send(.lastRowAppeared)),
                (.milliseconds(520), .send(.lastRowAppeared)),
                (.milliseconds(560), .send(.pulledToRefresh)),
                (.milliseconds(1_000), .send(.lastRowAppeared)),
                (.milliseconds(1_500), .happen("the network goes offline") { network.setOffline(true) }),
                (.milliseconds(1_500), .send(.lastRowAppeared)),
                (.milliseconds(2_000), .happen("the network is back") { network.setOffline(false) }),
                (.milliseconds(2_000), .send(.retryTapped)),
                (.milliseconds(2_500), .send(.lastRowAppeared)),
                (.milliseconds(3_000), .send(.lastRowAppeared)),
            ]
        )
    }

    static let optimistic = Scenario(
        name: "optimistic",
        summary: "Two likes and an edit show at once; one fails and rolls back only itself while a refresh lands in between.",
        details:
            "Each mutation's edit is pending on top of the confirmed posts until the server answers. The second like is sent while the network is down, so it fails and only its own heart disappears; a refresh that lands while edits are pending keeps them on top, and a like the refresh missed is applied again, never lost."
    ) { scenario, player, settings in
        let clock = TestClock()
        let network = settings.network()
        return await player.play(
            scenario, reducer: OptimisticFeature(clock: clock, network: network),
            initialState: .init(), clock: clock, presenter: .optimistic, editTypes: [OptimisticFeature.PostEdit.self],
            script: [
                (.zero, .send(.appeared)),
                (.milliseconds(500), .send(.pulledToRefresh)),
                (.milliseconds(520), .send(.likeTapped(1))),
                (.milliseconds(540), .happen("the network goes offline") { network.setOffline(true) }),
                (.milliseconds(540), .send(.likeTapped(2))),
                (.milliseconds(560), .happen("the network is back") { network.setOffline(false) }),
                (.milliseconds(560), .send(.renamed(3, "Edited"))),
            ]
        )
    }

    static let retry = Scenario(
        name: "retry",
        summary: "A flaky network: failed attempts are retried after growing waits; a newer load or a cancel ends a chain.",
        details:
            "Each load tries up to three times, waiting about 1 s, then 2 s (exponential backoff with seeded jitter); the screen shows \"Retrying (2 of 3) in 0.9 s…\" over the skeleton or the messages. A reload during a wait supersedes the whole chain, and a cancel during a wait returns to the messages shown — never an error."
    ) { scenario, player, settings in
        let clock = TestClock()
        let network = settings.network()
        return await player.play(
            scenario, reducer: InboxFeature(api: DemoAPI(clock: clock, network: network), clock: clock, seed: settings.seed),
            initialState: .init(), clock: clock, presenter: .inbox,
            script: [
                (.zero, .happen("the network turns flaky: the next 2 requests fail") { network.failNext(2) }),
                (.zero, .send(.appeared)),
                (.milliseconds(5_000), .happen("flaky again: the next 10 requests fail") { network.failNext(10) }),
                (.milliseconds(5_000), .send(.reloadTapped)),
                (.milliseconds(5_600), .send(.reloadTapped)),
                (.milliseconds(6_300), .send(.cancelTapped)),
                (.milliseconds(7_000), .happen("the network recovers") { network.failNext(0) }),
                (.milliseconds(7_000), .send(.reloadTapped)),
            ]
        )
    }

    static let stream = Scenario(
        name: "stream",
        summary:
            "Results arrive in pages and show as they come; a newer query's stream supersedes the old one, whose late pages are dropped.",
        details:
            "Each page of results is a .progress action, applied only while its load is in flight. The search for \"s\" streams five pages; \"swi\" supersedes it mid-stream. The old stream keeps running, but every page it sends after that is dropped — never shown — and so is its end."
    ) { scenario, player, settings in
        let clock = TestClock()
        return await player.play(
            scenario, reducer: CatalogFeature(api: DemoAPI(clock: clock, network: settings.network())),
            initialState: .init(), clock: clock, presenter: .catalog,
            script: [(.zero, .send(.search("s"))), (.milliseconds(700), .send(.search("swi")))]
        )
    }

    static let social = Scenario(
        name: "social",
        summary:
            "A social feed on one loadable: a retried first page, a retried page, likes in flight across a refresh, staleness on appear.",
        details:
            "The posts are one Loadable<Pages<Post, Int>, …>: pages, freshness, optimistic likes, retries and activity are its layers. The first page fails once and is retried behind a \"Retrying (2 of 3)…\" banner; a \"load more\" fails once and its row says \"Retrying this page\"; a like is confirmed while a refresh that read the server before it runs, and stays; a like sent offline rolls back alone, and succeeds when tapped again; a debounced search and a post's detail load beside the feed. The feed goes stale 5 s after it settles: appearing again at 7 s shows it as it is (fresh); at 9 s it is stale and reloads."
    ) { scenario, player, settings in
        let clock = TestClock()
        let network = settings.network()
        let at = { (seconds: Double) in LoadClock.Instant(offset: .milliseconds(Int64(seconds * 1_000))) }
        return await player.play(
            scenario, reducer: SocialFeature.screen(clock: LoadClock(clock), network: network, maxAge: .seconds(5)),
            initialState: .init(), clock: clock, presenter: .social, editTypes: [SocialFeature.SetLiked.self],
            script: [
                (.zero, .happen("the first request fails") { network.failNext(1) }),
                (.zero, .send(.appeared(at(0)))),
                (.milliseconds(1_500), .happen("the next request fails") { network.failNext(1) }),
                (.milliseconds(1_500), .send(.lastRowAppeared)),
                (.milliseconds(3_000), .send(.likeTapped(2))),
                (.milliseconds(3_020), .send(.pulledToRefresh)),
                (.milliseconds(4_000), .happen("the network goes offline") { network.setOffline(true) }),
                (.milliseconds(4_000), .send(.likeTapped(3))),
                (.milliseconds(4_100), .happen("the network is back") { network.setOffline(false) }),
                (.milliseconds(4_500), .send(.likeTapped(3))),
                (.milliseconds(5_000), .send(.queryChanged("1"))),
                (.milliseconds(5_050), .send(.queryChanged("11"))),
                (.milliseconds(6_000), .send(.opened(2))),
                (.seconds(7), .send(.appeared(at(7)))),
                (.seconds(9), .send(.appeared(at(9)))),
            ]
        )
    }
}
