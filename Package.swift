// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "AsyncState",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "AsyncState", targets: ["AsyncState"]),
        .library(name: "AsyncStateControls", targets: ["AsyncStateControls"]),
        .library(name: "AsyncStateTesting", targets: ["AsyncStateTesting"]),
    ],
    targets: [
        // The kit: value model, store, effects, reducers. No Foundation.
        .target(name: "AsyncState"),
        // Controls for driving concurrency by hand — a gate, a test clock, a
        // lock — with no test framework, so an app, the demo and the
        // benchmarks can use them as well as tests.
        .target(name: "AsyncStateControls", dependencies: ["AsyncState"]),
        // TestStore, snapshots and state dumps; links XCTest and Testing.
        .target(name: "AsyncStateTesting", dependencies: ["AsyncState", "AsyncStateControls"]),

        // Examples and tools. Executable targets are not products, so a
        // package that depends on this one does not see them; they still run
        // with `swift run asyncstate-demo` and `swift run -c release asyncstate-bench`.
        .target(name: "DemoFeatures", dependencies: ["AsyncState", "AsyncStateControls"], path: "Examples/DemoFeatures"),
        .executableTarget(
            name: "asyncstate-demo",
            dependencies: ["AsyncState", "AsyncStateControls", "DemoFeatures"],
            path: "Examples/Demo"
        ),
        .executableTarget(
            name: "asyncstate-bench",
            dependencies: [
                "AsyncState",
                "AsyncStateControls",
                // The test-store case runs where a plain executable can load the
                // test frameworks; on Apple platforms XCTest is not loadable outside tests.
                .target(name: "AsyncStateTesting", condition: .when(platforms: [.linux])),
            ]
        ),

        // What the test targets share: fixtures, features, the hang guard and
        // the randomized and exhaustive runners. A target of its own, so the
        // tests build as three modules: the optimized test build optimizes
        // each module on one core, and smaller modules build side by side.
        .target(
            name: "AsyncStateTestSupport",
            dependencies: ["AsyncState", "AsyncStateControls", "AsyncStateTesting"],
            path: "Tests/AsyncStateTestSupport"
        ),
        // The value model and its layers, with every sample of the docs.
        .testTarget(
            name: "AsyncStateTests",
            dependencies: ["AsyncState", "AsyncStateControls", "AsyncStateTesting", "AsyncStateTestSupport"]
        ),
        // What runs loads: stores, effects, reducers, observation, hosts, caches.
        .testTarget(
            name: "AsyncStateRuntimeTests",
            dependencies: ["AsyncState", "AsyncStateControls", "AsyncStateTesting", "AsyncStateTestSupport"]
        ),
        // The model checks: exhaustive and randomized runs against reference
        // models, and misuse (RELIABILITY.md).
        .testTarget(
            name: "AsyncStateReliabilityTests",
            dependencies: ["AsyncState", "AsyncStateControls", "AsyncStateTesting", "AsyncStateTestSupport"]
        ),
        .testTarget(name: "AsyncStateControlsTests", dependencies: ["AsyncState", "AsyncStateControls", "AsyncStateTesting"]),
        .testTarget(
            name: "AsyncStateTestingTests",
            dependencies: ["AsyncState", "AsyncStateTesting"],
            exclude: ["Snapshot/__Snapshots__", "Guides/__Snapshots__"]
        ),
        .testTarget(
            name: "DemoTests",
            dependencies: ["asyncstate-demo", "DemoFeatures", "AsyncState", "AsyncStateTesting"],
            exclude: ["Demo/__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
