// swift-tools-version: 6.0
// An app's package still in Swift 5 language mode, using the everyday API.
// `.ci/run` builds it with warnings as errors and runs it: it exits non-zero
// if a feature does not behave as in Swift 6 mode.
import PackageDescription

let package = Package(
    name: "Swift5Consumer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // `.ci/run` places this package beside a link named `AsyncState` that points
        // at the checkout, because a path dependency is known by its folder name.
        .package(path: "../AsyncState")
    ],
    targets: [
        .executableTarget(
            name: "Swift5Consumer",
            dependencies: [
                .product(name: "AsyncState", package: "AsyncState")
            ]
        )
    ],
    swiftLanguageModes: [.v5]
)
