/// How a long operation learns that it should stop: asked between units of work (records, SQLite steps, blocked
/// reads and writes). Once it answers true the operation rolls back, removes what it created, and throws
/// ``TaskInterchangeError`` of kind `.cancelled`.
///
/// Swift task cancellation always counts. A program that stops on signals binds its own check for the duration of
/// the work: `try Cancellation.$current.withValue(Cancellation { flag.isSet }) { try Exporter.export(…) }`.
package struct Cancellation: Sendable {
    /// The check in force for the current task or thread; by default only task cancellation stops work.
    @TaskLocal package static var current = Cancellation { false }

    private let isRequestedCheck: @Sendable () -> Bool

    /// Creates a check from a function that answers whether to stop; it must be cheap and may be called often.
    package init(_ isRequested: @escaping @Sendable () -> Bool) {
        isRequestedCheck = isRequested
    }

    /// True when the surrounding task was cancelled or the bound check asks to stop.
    package static var isRequested: Bool {
        Task.isCancelled || current.isRequestedCheck()
    }

    /// This check's own answer, without the current task's cancellation (for work moved to another thread).
    func isRequestedNow() -> Bool { isRequestedCheck() }

    /// Throws when work should stop.
    static func checkpoint() throws(TaskInterchangeError) {
        if isRequested { throw cancelled }
    }

    static let cancelled = TaskInterchangeError(.cancelled, "cancelled; everything done so far was rolled back")
}
