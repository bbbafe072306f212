import AsyncState
import DemoFeatures

/// Live search: every line typed on standard input becomes the new query,
/// with real time and simulated latency, so overlapping searches and their
/// dropped answers show as you type.
@MainActor
enum InteractiveSearch {
    static func run(settings: Settings, output: Output) async {
        let clock = ContinuousClock()
        let start = clock.now
        let api = DemoAPI(clock: clock, network: settings.network())
        let store = Store(initialState: SearchFeature.State(), reducer: SearchFeature(api: api, clock: clock))
        let renderer = Renderer(format: .text, output: output)
        let scenario = Scenario.search
        store.observeTransitions { transition in
            let presenter = Presenter<SearchFeature.State, SearchFeature.Action>.search
            renderer.entry(
                Timeline.Entry(
                    time: start.duration(to: clock.now),
                    action: presenter.action(transition.action),
                    state: presenter.state(transition.state),
                    isDropped: transition.isDropped
                ),
                scenario: scenario
            )
        }
        output.line("Type a query and press return; each line replaces the last. End with Ctrl-D.")
        let lines = AsyncStream<String> { continuation in
            Task.detached {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }
        }
        for await line in lines {
            store.send(.queryChanged(line))
        }
        // Input ended: let the searches in flight answer before exiting. They
        // run on real time here, so look again every few milliseconds.
        while store.runningEffectCount > 0 {
            try? await clock.sleep(for: .milliseconds(20))
        }
    }
}
