import Foundation
import Testing

/// The two test tiers. `swift test` runs the default one, a few minutes on two cores once built; `TASKS_SLOW=1 swift
/// test --filter tag:slow` runs the suites tagged `.slow` with their long loops at full length: more SIGKILLs and
/// signals at random points, more random graphs, models and cancellations, longer races, bigger generated stores.
/// Every loop runs in both, so the default tier still covers each feature.
///
/// A suite that reads `Tiers` carries the `.slow` tag (`SlowTierTests` checks it), so it is in the slow tier by
/// that tag alone.
public enum Tiers {
    /// True in the slow tier.
    public static let slow = ProcessInfo.processInfo.environment["TASKS_SLOW"] == "1"

    /// `short` in the default tier, `full` in the slow one.
    public static func count(_ short: Int, slow full: Int) -> Int { slow ? full : short }
}

extension Tag {
    /// A suite with loops the slow tier runs at full length (`Tiers`).
    @Tag public static var slow: Self
}
