import Foundation
import TrellisCore

/// Measuring and printing helpers shared by every benchmark.
enum Report {
    /// Prints a figure as `NAME: VALUE UNIT`.
    static func figure(_ name: String, _ value: Double, _ unit: String) {
        print("\(name): \(format(value)) \(unit)")
    }

    /// Prints a comparison as `ratio NAME: VALUE` (above 1 means Trellis is better).
    static func ratio(_ name: String, _ value: Double) {
        print("ratio \(name): \(format(value))")
    }

    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e12 { return String(Int(value)) }
        return String(format: value >= 100 ? "%.1f" : "%.3f", value)
    }

    /// Monotonic time in seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds taken by `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of no values")
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The value at fraction `p` (0...1) of the sorted values, nearest rank.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        precondition(!values.isEmpty, "percentile of no values")
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Report {
    /// Runs `work` in a task and waits for its result on this thread: a benchmark's own
    /// command-line thread, which has nothing else to do meanwhile (the shell never does this).
    static func waitFor<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = LockedState<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
