extension GraphComparison {
    /// Compares `a` with `b` as `compare(_:_:options:)` does, on a background queue: the caller's actor is never
    /// blocked, and cancelling the calling task stops both readers.
    /// - Throws: as `compare(_:_:options:)`; `.cancelled` when cancelled.
    public static func compare(
        _ a: GraphSource, _ b: GraphSource,
        options: Options = Options()
    ) async throws -> GraphDiff {
        try await BackgroundWork.run { try compare(a, b, options: options) }
    }

    /// Verifies that `target` holds what `file` holds, as `verify(_:against:detailLimit:)` does, on a background
    /// queue. `progress` receives a `.verifying` event when the comparison starts and one when it ends.
    /// - Throws: as `verify(_:against:detailLimit:)`; `.cancelled` when cancelled.
    public static func verify(
        _ file: GraphSource, against target: GraphSource, detailLimit: Int = 1000,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) async throws -> GraphDiff {
        try await BackgroundWork.run {
            progress?(ProgressEvent(phase: .verifying, done: 0, total: nil))
            let diff = try verify(file, against: target, detailLimit: detailLimit)
            let tasks = diff.kinds.first { $0.kind == .task }.map(\.countA) ?? 0
            progress?(ProgressEvent(phase: .verifying, done: tasks, total: tasks))
            return diff
        }
    }
}
