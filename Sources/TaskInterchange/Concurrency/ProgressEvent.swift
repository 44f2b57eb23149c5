/// One step of progress of a long operation, for a progress view: which phase, how far, and how many bytes.
///
/// Every phase an operation runs reports a first event (`done` 0) and a last one (`done == total`), with events
/// every 10,000 tasks between them; `done` never decreases within a phase and phases come in the order they run.
public struct ProgressEvent: Sendable, Hashable {
    /// What the operation is doing.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        /// Copying the legacy store to the backup file.
        case backingUp
        /// Reading the store and writing the archive.
        case exporting
        /// Checking the archive's structure and references.
        case validating
        /// Writing the records into the destination.
        case importing
        /// Comparing the destination with the archive.
        case verifying
    }

    /// The phase this event belongs to.
    public var phase: Phase
    /// Tasks done so far in this phase (the backup counts 0, then 1 when the copy is complete).
    public var done: Int
    /// Tasks in all, when known before the phase ends.
    public var total: Int?
    /// Bytes written (export, backup) or read (validation, import) when known; nil while the phase cannot tell.
    public var bytes: Int64?

    /// Creates an event.
    public init(phase: Phase, done: Int, total: Int?, bytes: Int64? = nil) {
        self.phase = phase
        self.done = done
        self.total = total
        self.bytes = bytes
    }

    /// The fraction done, from 0 to 1, when the total is known.
    public var fraction: Double? {
        guard let total else { return nil }
        return total == 0 ? 1 : min(1, Double(done) / Double(total))
    }
}
