import TaskInterchange

/// sysexits-style exit codes (sysexits.h), so scripts can tell a usage mistake from bad data, a missing input or a
/// locked store.
enum ExitCode {
    static let ok: Int32 = 0
    /// `diff` and `verify`: the graphs differ (as diff(1) and cmp(1) say it).
    static let different: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let internalError: Int32 = 70
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let busy: Int32 = 75

    /// The exit code of a library error: the library documents each kind by what failed; this is where the command
    /// line gives it a number.
    static func code(for kind: TaskInterchangeError.Kind) -> Int32 {
        switch kind {
        case .invalidData: return dataError
        case .noInput: return noInput
        case .cannotCreate: return cannotCreate
        case .io: return ioError
        case .busy: return busy
        case .internal: return internalError
        case .usage: return usage
        case .cancelled: return SignalTrap.exitCode
        }
    }
}
