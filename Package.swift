// swift-tools-version:6.0
import PackageDescription

// No package dependencies, so the library drops into any app without pulling anything in. System C libraries come
// in through `.systemLibrary` targets.
let package = Package(
    name: "tasks",
    // The library's minimums on Apple platforms: SQLite 3.31 for SQLITE_DBCONFIG_TRUSTED_SCHEMA (the defensive store
    // opening; macOS 11 and iOS 14 ship 3.32), and Swift concurrency. On Linux no minimum applies.
    platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .macCatalyst(.v14), .visionOS(.v1)],
    products: [
        .library(name: "TaskInterchange", targets: ["TaskInterchange"]),
        // The adapter to an app's own model objects, with SwiftData and Core Data contexts for the seed's model.
        .library(name: "TaskGraphDestinations", targets: ["TaskGraphDestinations"]),
        .executable(name: "tasks", targets: ["tasks"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "TaskInterchange", dependencies: ["CSQLite", "CZlib"]),
        // What only `tasks model …` needs (SwiftData code, lint, the hash report): the command line depends on it,
        // apps that embed the library do not.
        .target(name: "TaskModelTools", dependencies: ["TaskInterchange"]),
        // Its SwiftData/ and CoreData/ folders compile only where those frameworks exist (`#if canImport`); the
        // adapter in Graph/ compiles everywhere and is tested on Linux against a fake context.
        .target(name: "TaskGraphDestinations", dependencies: ["TaskInterchange"]),
        .executableTarget(name: "tasks", dependencies: ["TaskInterchange", "TaskModelTools"]),
        .executableTarget(name: "codable-export", dependencies: ["CSQLite"], path: "bench/codable-export"),
        // A libFuzzer target (scripts/fuzz); a plain build makes a replay tool of it.
        .executableTarget(name: "TasksFuzz", dependencies: ["TaskInterchange"]),
        // The test tiers and the `.slow` tag, shared by the test targets with long loops.
        .target(name: "TestTiers", path: "Tests/TestTiers"),
        .testTarget(name: "TaskInterchangeTests", dependencies: ["TaskInterchange", "CSQLite", "TestTiers"]),
        .testTarget(name: "TaskModelToolsTests", dependencies: ["TaskModelTools", "TaskInterchange"]),
        // Uses the `tasks generate` command's records (`SyntheticArchive`) for a 100k-task store.
        .testTarget(
            name: "TaskGraphDestinationsTests",
            dependencies: ["TaskGraphDestinations", "TaskInterchange", "tasks", "TestTiers"]),
        .testTarget(
            name: "tasksTests", dependencies: ["tasks", "TaskInterchange", "TestTiers"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// The same settings for every Swift target, so a new target cannot forget them.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
