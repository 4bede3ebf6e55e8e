import Foundation
import TrellisCore

/// Calls `onChange` when files change: it looks at their modification time and size every
/// `interval` on a ``PluginClock``, and calls once they have changed since the last call and
/// then held still for one look (a linker or an editor writes in several steps). Polling, not
/// inotify: it sees a file replaced by a rename, a folder created later, and files on any
/// file system, at the cost of a few `stat` calls a second; on a test clock, a test makes it
/// look by advancing the clock.
final class FileChangePoller: Sendable {
    private let files: @Sendable () -> [URL]
    private let interval: Duration
    private let clock: PluginClock
    private let onChange: @Sendable () async -> Void
    private let task = LockedState<Task<Void, Never>?>(nil)

    /// - Parameter files: the files to look at, asked again at every look (they may move).
    init(interval: Duration, clock: PluginClock, files: @escaping @Sendable () -> [URL], onChange: @escaping @Sendable () async -> Void) {
        self.files = files
        self.interval = interval
        self.clock = clock
        self.onChange = onChange
    }

    deinit {
        stop()
    }

    /// Starts looking, in a task of its own. The files as they are when this returns are the
    /// ones a change is measured against (not as they are when the task first runs, which on a
    /// busy machine may be after a change).
    func start() {
        let baseline = signature()
        let start = clock.now
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [files, interval, clock, onChange] in
                await Self.poll(from: baseline, since: start, every: interval, clock: clock, files: files, onChange: onChange)
            }
        }
    }

    /// Stops looking (after the look in progress).
    func stop() {
        task.withLock { $0 }?.cancel()
    }

    /// The files' paths, times and sizes as they are now.
    private func signature() -> [String] {
        Self.signature(files())
    }

    private static func signature(_ files: [URL]) -> [String] {
        files.map { file in
            let stamp = FileStamp(path: file.path)
            return "\(file.path) \(stamp?.modified ?? 0) \(stamp?.size ?? -1)"
        }
    }

    private static func poll(from baseline: [String], since start: Duration, every interval: Duration, clock: PluginClock,
                             files: @Sendable () -> [URL], onChange: @Sendable () async -> Void) async {
        var acted = baseline
        var previous = acted
        var next = start + interval
        while !Task.isCancelled {
            do { try await clock.sleep(until: next) } catch { return }
            next = max(next + interval, clock.now)
            let now = signature(files())
            defer { previous = now }
            guard now != acted, now == previous else { continue }
            // What is acted on is what was looked at: a change made while `onChange` runs
            // (the file written again as soon as the first change took effect) is seen next.
            acted = now
            await onChange()
        }
    }
}
