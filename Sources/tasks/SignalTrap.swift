import Foundation
import TaskInterchange

/// Turns SIGINT, SIGTERM and SIGHUP into a cancellation request: the handler only records the signal, and the
/// library, which checks between units of work and when a read or write is interrupted, rolls back, removes its
/// temporary files and throws `.cancelled`; `tasks` then exits with 128 + the signal.
enum SignalTrap {
    /// The signal received, or 0. Written only by the handler (a plain store is async-signal-safe).
    nonisolated(unsafe) static let received: UnsafeMutablePointer<sig_atomic_t> = {
        let pointer = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return pointer
    }()

    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers; blocked reads and writes return EINTR instead of restarting, so they notice.
    static func install() {
        _ = received
        let handler: @convention(c) (Int32) -> Void = { SignalTrap.received.pointee = $0 }
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        // No SA_RESTART: a read or write blocked on a pipe returns EINTR, so the signal is noticed at once.
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        for number in signals { sigaction(number, &action, nil) }
        // A parent may start us with these signals blocked (a blocked mask survives exec): unblock them, or Ctrl-C
        // and SIGTERM would never arrive.
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in signals { sigaddset(&mask, number) }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The cancellation check the library asks.
    static let cancellation = Cancellation { SignalTrap.received.pointee != 0 }

    /// 128 + the signal received (130 for SIGINT when none was recorded, as for task cancellation).
    static var exitCode: Int32 {
        128 + (received.pointee != 0 ? Int32(received.pointee) : SIGINT)
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`.
    static var name: String {
        switch received.pointee {
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "SIGINT"
        }
    }
}
