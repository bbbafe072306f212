// swift-tools-version: 6.0
// A user's package written from the seed README: it depends on AsyncState by
// path and uses its API exactly as the README shows. `.ci/run` builds it.
import PackageDescription

let package = Package(
    name: "SeedConsumer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // `.ci/run` places this package beside a link named `AsyncState` that points
        // at the checkout, because a path dependency is known by its folder name.
        .package(path: "../AsyncState")
    ],
    targets: [
        .target(
            name: "SeedConsumer",
            dependencies: [
                .product(name: "AsyncState", package: "AsyncState")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
