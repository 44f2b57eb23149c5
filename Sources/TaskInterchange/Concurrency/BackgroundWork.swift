import Dispatch
import Foundation

/// Runs the library's synchronous work off the caller's executor, so an `async` entry point never blocks the
/// caller's actor (the main actor, say) nor holds a thread of Swift's cooperative pool for the minutes a migration
/// of a large store takes.
///
/// Cancelling the awaiting task sets a flag the work sees through `Cancellation` at its next checkpoint (every
/// 1,024 records, SQLite's progress handler, a blocked read or write); the work then rolls back and removes what it
/// created before this call throws `.cancelled`. A cancellation check the caller has bound is carried over.
enum BackgroundWork {
    private static let queue = DispatchQueue(
        label: "tasks.background-work", qos: .userInitiated,
        attributes: .concurrent)

    /// Runs `work` on a background queue and returns its result.
    /// - Throws: what `work` throws; `.cancelled` when the task was cancelled before the work started.
    static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try Cancellation.checkpoint()
        let flag = CancellationFlag()
        let outer = Cancellation.current
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                queue.async {
                    let check = Cancellation { flag.isSet || outer.isRequestedNow() }
                    continuation.resume(
                        with: Swift.Result {
                            try Cancellation.$current.withValue(check) {
                                try Cancellation.checkpoint()
                                return try work()
                            }
                        })
                }
            }
        } onCancel: {
            flag.set()
        }
    }
}

/// A flag set once from any thread. (`NSLock.withLock` needs macOS 14/iOS 17; the library supports older systems.)
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
