/// One run of a GUI program that reports the moment of its first painted frame, as
/// `trellis --exit-after-first-frame` and the C baseline `empty-window.c` do: a line
/// `first-frame-monotonic-us: N` on standard output, N being GLib's monotonic clock
/// (`CLOCK_MONOTONIC`) in µs, read in the window's first frame-clock `after-paint`.
struct FirstFrameRun {
    /// From just before the spawn to the first painted frame.
    var toFirstFrame: Double
    /// From just before the spawn to the process's exit (teardown included).
    var toExit: Double

    enum Failure: Error, CustomStringConvertible {
        case noReport(path: String, output: String)
        var description: String {
            switch self {
            case .noReport(let path, let output):
                return "\(path) did not report its first frame (first-frame-monotonic-us) on standard output; its last output:\n\(output.suffix(1500))"
            }
        }
    }

    static let prefix = "first-frame-monotonic-us: "

    /// Runs `path` to its exit; the bench's `CLOCK_MONOTONIC` just before the spawn is
    /// subtracted from the moment the child reports.
    static func measure(_ path: String, _ arguments: [String], environment: [String: String]) throws -> FirstFrameRun {
        let run = try ProcessRunner.measure(path, arguments, environment: environment, capture: .outputAndErrors)
        let reported = run.output.split(separator: "\n").last { $0.hasPrefix(prefix) }
        guard let microseconds = reported.flatMap({ Int64($0.dropFirst(prefix.count)) }) else {
            throw Failure.noReport(path: path, output: run.output)
        }
        return FirstFrameRun(toFirstFrame: Double(microseconds) / 1e6 - run.started, toExit: run.seconds)
    }
}
