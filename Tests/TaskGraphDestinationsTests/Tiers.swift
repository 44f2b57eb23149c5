import Foundation

/// The two test tiers. `swift test` runs the default one, a few minutes on two cores once built; `TASKS_SLOW=1 swift
/// test` runs the same tests with their long loops at full length: more cancellations at random points, a bigger
/// generated store. Every loop runs in both, so the default tier still covers each feature.
enum Tiers {
    static let slow = ProcessInfo.processInfo.environment["TASKS_SLOW"] == "1"

    /// `short` in the default tier, `full` in the slow one.
    static func count(_ short: Int, slow full: Int) -> Int { slow ? full : short }
}
