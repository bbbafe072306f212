// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "AsyncState",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "AsyncState", targets: ["AsyncState"]),
        .library(name: "AsyncStateTesting", targets: ["AsyncStateTesting"]),
    ],
    targets: [
        .target(name: "AsyncState"),
        .target(name: "AsyncStateTesting", dependencies: ["AsyncState"]),
        .testTarget(name: "AsyncStateTests", dependencies: ["AsyncState", "AsyncStateTesting"]),
        .testTarget(
            name: "AsyncStateTestingTests",
            dependencies: ["AsyncState", "AsyncStateTesting"],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
