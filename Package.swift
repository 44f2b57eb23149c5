// swift-tools-version:6.0
import PackageDescription

// No package dependencies, so the library drops into any app without pulling anything in. System C libraries come
// in through `.systemLibrary` targets.
let package = Package(
    name: "tasks",
    products: [
        .library(name: "TaskInterchange", targets: ["TaskInterchange"]),
        .executable(name: "tasks", targets: ["tasks"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "TaskInterchange", dependencies: ["CSQLite", "CZlib"]),
        .executableTarget(name: "tasks", dependencies: ["TaskInterchange"]),
        .executableTarget(name: "codable-export", dependencies: ["CSQLite"], path: "bench/codable-export"),
        // A libFuzzer target (scripts/fuzz); a plain build makes a replay tool of it.
        .executableTarget(name: "TasksFuzz", dependencies: ["TaskInterchange"]),
        .testTarget(name: "TaskInterchangeTests", dependencies: ["TaskInterchange", "CSQLite"]),
        .testTarget(name: "tasksTests", dependencies: ["tasks", "TaskInterchange"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// The same settings for every Swift target, so a new target cannot forget them.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
