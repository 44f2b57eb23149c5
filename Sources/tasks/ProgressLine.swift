import Foundation
import TaskInterchange

/// The progress line a person watching a terminal sees: what is being done, how far (a percentage), and about how
/// long is left, estimated from the pace since the first report (so setup before the first record does not count).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    /// The first report: when, and how far.
    private var first: (date: Date, fraction: Double)?

    /// `importing: 45% (34 of 76 MB), about 6 s left`; the estimate appears once there is enough to go on.
    func text(_ label: String, fraction: Double, detail: String? = nil, now: Date = Date()) -> String {
        let fraction = min(max(fraction, 0), 1)
        lock.lock()
        let first = self.first ?? (now, fraction)
        if self.first == nil { self.first = first }
        lock.unlock()
        var text = "\(label): \(Int(fraction * 100))%"
        if let detail { text += " (\(detail))" }
        let elapsed = now.timeIntervalSince(first.date)
        let progressed = fraction - first.fraction
        if progressed >= 0.01 && fraction < 1 && elapsed >= 0.5 {
            text += ", about \(Self.duration(elapsed / progressed * (1 - fraction))) left"
        }
        return text
    }

    /// `7 s`, `3 min 12 s`, `1 h 04 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(String(format: "%02d", whole % 60)) s" }
        return "\(whole / 3600) h \(String(format: "%02d", whole % 3600 / 60)) min"
    }

    /// Shows each streaming pass over `input` on the terminal, by bytes read; the passes that deliver tasks under
    /// `label`, the ones before them (projects, categories, tags) as reading.
    static func observe(_ input: ArchiveInput, label: String) {
        var line = ProgressLine()
        input.readObserver = { kinds, read, count in
            // Each pass has its own pace.
            if read == 0 { line = ProgressLine() }
            guard count > 0, kinds != [] else { return }
            let name = kinds.map { $0.contains(.task) } ?? true ? label : "\(label): reading projects, categories, tags"
            let megabytes = String(format: "%.0f of %.0f MB", Double(read) / 1e6, Double(count) / 1e6)
            Console.progress(line.text(name, fraction: Double(read) / Double(count), detail: megabytes))
        }
    }
}
