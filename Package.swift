// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "AsyncState",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "AsyncState", targets: ["AsyncState"]),
        .library(name: "AsyncStateTesting", targets: ["AsyncStateTesting"]),
        .executable(name: "asyncstate-demo", targets: ["asyncstate-demo"]),
        .executable(name: "asyncstate-bench", targets: ["asyncstate-bench"]),
    ],
    targets: [
        .target(name: "AsyncState"),
        .target(name: "AsyncStateTesting", dependencies: ["AsyncState"]),
        .target(name: "DemoFeatures", dependencies: ["AsyncState"], path: "Examples/DemoFeatures"),
        .executableTarget(name: "asyncstate-demo", dependencies: ["AsyncState", "DemoFeatures"], path: "Examples/Demo"),
        .executableTarget(
            name: "asyncstate-bench",
            dependencies: [
                "AsyncState",
                // The test-store case runs where a plain executable can load the
                // test frameworks; on Apple platforms XCTest is not loadable outside tests.
                .target(name: "AsyncStateTesting", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "AsyncStateTests", dependencies: ["AsyncState", "AsyncStateTesting"]),
        .testTarget(
            name: "DemoTests",
            dependencies: ["asyncstate-demo", "DemoFeatures", "AsyncState", "AsyncStateTesting"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "AsyncStateTestingTests",
            dependencies: ["AsyncState", "AsyncStateTesting"],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
