import TrellisCore
import Foundation

/// Calls `onChange` when files change, on a thread of its own: it looks at their modification
/// time and size every `interval`, and calls once they have changed since the last call and
/// then held still for one look (a linker or an editor writes in several steps). Polling, not
/// inotify: it sees a file replaced by a rename, a folder created later, and files on any
/// file system, at the cost of a few `stat` calls a second.
final class FileChangePoller: Sendable {
    private let files: @Sendable () -> [URL]
    private let interval: Double
    private let onChange: @Sendable () -> Void
    private let running = LockedState(false)

    /// - Parameter files: the files to look at, asked again at every look (they may move).
    init(interval: Duration, files: @escaping @Sendable () -> [URL], onChange: @escaping @Sendable () -> Void) {
        self.files = files
        self.interval = PluginDeadlines.seconds(interval)
        self.onChange = onChange
    }

    /// Starts looking, on a thread of its own. The files as they are when this returns are
    /// the ones a change is measured against (not as they are when that thread first runs,
    /// which on a busy machine may be after a change).
    func start() {
        guard running.withLock({ state in defer { state = true }; return !state }) else { return }
        let baseline = signature()
        Thread.detachNewThread { [self] in poll(from: baseline) }
    }

    /// Stops looking (after the look in progress).
    func stop() {
        running.withLock { $0 = false }
    }

    /// The files' paths, times and sizes as they are now.
    private func signature() -> [String] {
        files().map { file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(file.path) \(time) \(attributes?[.size] as? Int ?? -1)"
        }
    }

    private func poll(from baseline: [String]) {
        var acted = baseline
        var previous = acted
        while running.withLock({ $0 }) {
            Thread.sleep(forTimeInterval: interval)
            let now = signature()
            defer { previous = now }
            guard now != acted, now == previous else { continue }
            // What is acted on is what was looked at: a change made while `onChange` runs
            // (the file written again as soon as the first change took effect) is seen next.
            acted = now
            onChange()
        }
    }
}
