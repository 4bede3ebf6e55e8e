import TrellisCore
#if canImport(Glibc)
import Glibc
#endif

/// What a plugin's process writes to stderr (and stdout): each line shown on the shell's
/// stderr as `plugin "<id>": <line>`, escaped (a control character is shown as `\u{1B}`,
/// never interpreted by the terminal, and a plugin cannot make a line that looks like one of
/// the shell's own), and its last lines kept for the report of a crash.
///
/// Read on the connection's event loop in chunks of at most ``chunkSize`` bytes, with a line cut at
/// ``maximumLineLength`` characters (the rest of it is skipped up to the newline), at most
/// ``bytesPerSecond`` on average: past that, reading pauses and the plugin's own writes block. A
/// plugin that writes half a gigabyte without a newline costs the shell no more memory than a
/// line and no more time than that budget allows. Beyond ``linesPerSecond`` lines a second the
/// lines are counted, not shown ("… 1200 more line(s) of its output not shown").
final class PluginStderr: Sendable {
    /// The lines kept for the report of a crash.
    static let keptLines = 10
    /// The longest line kept or shown, in characters.
    static let maximumLineLength = 300
    /// The most bytes read at a time.
    static let chunkSize = 64 * 1024
    /// The most lines shown a second; more are counted.
    static let linesPerSecond = 50.0
    /// The bytes read a second, on average (at most ``burstBytes`` at once).
    static let bytesPerSecond = 256.0 * 1024
    static let burstBytes = 1024.0 * 1024

    private struct State {
        var line: [UInt8] = []
        var lineCut = false
        var kept: [String] = []
        var shown = PluginCallBudget(perSecond: PluginStderr.linesPerSecond, burst: PluginStderr.linesPerSecond)
        var hidden = 0
        var bytes = PluginCallBudget(perSecond: PluginStderr.bytesPerSecond, burst: PluginStderr.burstBytes)
        var paused = false
        var bytesRead = 0
        /// The process has ended: what is left is read without the budget.
        var draining = false
    }

    private let pluginID: String
    private let clock: PluginClock
    private let state = LockedState(State())
    private let descriptor: Int32
    private let loop: PluginEventLoop
    private let echo: @Sendable (String) -> Void

    /// Reads `descriptor` (owned from now on) on `loop`, once started. `echo` shows a line
    /// (the shell's stderr by default).
    init(descriptor: Int32, pluginID: String, clock: PluginClock, loop: PluginEventLoop,
         echo: @escaping @Sendable (String) -> Void = PluginStderr.writeToStderr) {
        self.pluginID = pluginID
        self.clock = clock
        self.echo = echo
        self.descriptor = descriptor
        self.loop = loop
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Starts reading; `onEnd` is called once, on the loop, at the end of the output.
    func start(onEnd: @escaping @Sendable () -> Void) {
        loop.watch(descriptor, for: PluginEventLoop.Interest(reading: !state.withLock { $0.paused }, writing: false)) { [weak self, loop, descriptor] _ in
            // The reader released (its connection gone): the descriptor is forgotten, so that
            // the loop never spins on an end no one takes.
            guard let self else { return loop.close(descriptor) }
            guard self.readChunks(descriptor) else { return }
            self.finish()
            loop.close(descriptor)
            onEnd()
        }
    }

    /// Reads what is left without the budget (the process has ended: nothing more comes,
    /// unless something it started holds the output open).
    func drain() {
        state.withLock { state in
            state.draining = true
            guard state.paused else { return }
            state.paused = false
            loop.change(descriptor, to: PluginEventLoop.Interest(reading: true, writing: false))
        }
    }

    /// The last lines read so far, oldest first, escaped.
    var lastLines: [String] { state.withLock { $0.kept } }

    /// The bytes read so far.
    var bytesRead: Int { state.withLock { $0.bytesRead } }

    /// Reads what is there, up to four chunks a turn (others' output is read on the same queue),
    /// until the pipe is empty or the budget pauses it; true at the end of the output. The end
    /// is looked for right after the last bytes: a pipe whose writer is gone may not be said
    /// readable again once emptied.
    private func readChunks(_ descriptor: Int32) -> Bool {
        for _ in 0..<4 {
            switch readChunk(descriptor) {
            case .more: continue
            case .wait: return false
            case .end: return true
            }
        }
        return false
    }

    private enum ReadOutcome { case more, wait, end }

    /// Reads one chunk.
    private func readChunk(_ descriptor: Int32) -> ReadOutcome {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        // The C boundary: read(2) writes at most `count` bytes into the chunk, which outlives
        // the call.
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { return .more }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wait : .end
        }
        guard count > 0 else { return .end }
        let now = clock.now
        let (lines, pause) = state.withLock { state -> ([String], Duration) in
            var complete: [String] = []
            var rest = chunk[..<count]
            while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                append(rest[..<newline], to: &state)
                complete.append(PluginText.escaped(state.line, cut: state.lineCut))
                state.line.removeAll(keepingCapacity: true)
                state.lineCut = false
                rest = rest[(newline + 1)...]
            }
            append(rest, to: &state)
            state.bytesRead += count
            let pause = state.draining ? .zero : state.bytes.take(Double(count), at: now)
            if pause > .zero {
                state.paused = true
                loop.change(descriptor, to: PluginEventLoop.Interest(reading: false, writing: false))
            }
            return (complete.filter { keep($0, at: now, in: &state) }, pause)
        }
        lines.forEach(show)
        if pause > .zero {
            // Past its budget: the plugin's writes block until the pause is over.
            Task { [self, clock] in
                try? await clock.sleep(until: now + pause)
                state.withLock { state in
                    guard state.paused else { return }
                    state.paused = false
                    loop.change(descriptor, to: PluginEventLoop.Interest(reading: true, writing: false))
                }
            }
            return .wait
        }
        return .more
    }

    /// Adds `bytes` to the line being read, up to the longest line kept.
    private func append(_ bytes: ArraySlice<UInt8>, to state: inout State) {
        let room = Self.maximumLineLength * 4 - state.line.count
        if bytes.count > room { state.lineCut = true }
        state.line.append(contentsOf: bytes.prefix(max(room, 0)))
    }

    /// Keeps `line` for a crash report; true when it is to be shown now.
    private func keep(_ line: String, at now: Duration, in state: inout State) -> Bool {
        state.kept.append(line)
        if state.kept.count > Self.keptLines { state.kept.removeFirst() }
        guard state.shown.takeIfAvailable(at: now) else {
            state.hidden += 1
            return false
        }
        return true
    }

    /// The line left without its newline, at the end of the output.
    private func finish() {
        let (line, hidden) = state.withLock { state -> (String?, Int) in
            let line = state.line.isEmpty ? nil : PluginText.escaped(state.line, cut: state.lineCut)
            if let line { state.kept.append(line) }
            if state.kept.count > Self.keptLines { state.kept.removeFirst() }
            return (line, state.hidden)
        }
        if let line { show(line) }
        if hidden > 0 { echo("plugin \"\(pluginID)\": … \(hidden) more line(s) of its output not shown") }
    }

    private func show(_ line: String) {
        echo("plugin \"\(pluginID)\": \(line)")
    }

    /// Writes `line` and a newline to the shell's stderr.
    static func writeToStderr(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        // The C boundary: write(2) reads `count` bytes of the array, which outlives the call.
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Text from a plugin made safe to show: one line, control characters as escapes.
enum PluginText {
    /// `bytes` as UTF-8 (invalid sequences replaced), every control character (newlines,
    /// escape sequences, carriage returns, DEL) shown as `\u{…}`, at most
    /// ``PluginStderr/maximumLineLength`` characters, `…` when it was `cut`.
    static func escaped<Bytes: Collection<UInt8>>(_ bytes: Bytes, cut: Bool = false) -> String {
        escaped(String(decoding: bytes, as: UTF8.self), cut: cut)
    }

    /// `text` as ``escaped(_:cut:)-swift.type.method`` shows it.
    static func escaped(_ text: String, cut: Bool = false, limit: Int = PluginStderr.maximumLineLength) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else { return result + "…" }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return cut ? result + "…" : result
    }
}
