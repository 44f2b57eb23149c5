import Foundation

/// The temporary files and private directories this process has created and still owns. A sweep skips them: between
/// creating a lock file and locking it, an owner's lock can be taken by anyone, and another thread of this process
/// (a second export, a test running in parallel) must not take that moment for a dead run's leftover.
final class LivePaths: @unchecked Sendable {
    static let shared = LivePaths()
    // Guarded by `lock` (`NSLock.withLock` needs macOS 14/iOS 17).
    private let lock = NSLock()
    private var paths: Set<String> = []

    func insert(_ path: String) {
        lock.lock()
        paths.insert(path)
        lock.unlock()
    }

    func remove(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }

    func contains(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return paths.contains(path)
    }
}
