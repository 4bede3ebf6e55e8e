import Logging
import TrellisCore

/// The plugin's calls, as its process forwards them: each checked again against the plugin's
/// permissions (the process answered the plugin already, but the shell does not trust it) and
/// against its budgets (``PluginLimits``), then acted on through its ``PluginContext``.
extension PluginConnection {
    /// The plugin's budgets: one for every message, one per kind of call.
    struct Budgets: Sendable {
        var messages: PluginCallBudget
        var calls: PluginCallBudget
        var data: PluginCallBudget
        var navigations: PluginCallBudget
        var log: PluginCallBudget

        init(_ limits: PluginLimits) {
            messages = PluginCallBudget(perSecond: limits.messagesPerSecond, burst: limits.messageBurst)
            calls = PluginCallBudget(perSecond: limits.callsPerSecond, burst: limits.callBurst)
            data = PluginCallBudget(perSecond: limits.dataBytesPerSecond, burst: limits.dataBurstBytes)
            navigations = PluginCallBudget(perSecond: limits.navigationsPerSecond, burst: limits.navigationBurst)
            log = PluginCallBudget(perSecond: limits.logLinesPerSecond, burst: limits.logBurst)
        }
    }

    /// Acts on one of the plugin's calls (`bytes`: the size of its JSON data), charged to its
    /// budgets already (``charge(_:bytes:at:)``).
    func perform(_ message: ProcessMessage, bytes: Int) {
        switch message {
        case .watch(let id, let pattern):
            watch(id, pattern)
        case .unwatch(let id):
            guard let watch = watches.removeValue(forKey: id), context.forget(watch.rawValue) else { return }
            context.bus.unwatch(watch)
        case .trigger(let name, let data):
            _ = context.trigger(name, data)
        case .request(let command, let parameters):
            _ = context.request(command, parameters)
        case .navigate(let path, let data):
            _ = context.navigate(path, data)
        case .log(let level, let text):
            log(level, text)
        case .entry, .register, .refuse, .started, .stopped, .done:
            break
        }
    }

    /// Charges `message` to the plugin's budgets at `now`: how long it must be held back before
    /// it is acted on (zero: at once). An answer to something the shell sent (an event's
    /// `done`, a request's) is free: the shell sets its pace.
    func charge(_ message: ProcessMessage, bytes: Int, at now: Duration) -> Duration {
        switch message {
        case .done where sent.withLock({ !$0.messages.isEmpty }): return .zero
        case .started, .stopped: if hasRequests { return .zero }
        default: break
        }
        var wait = budgets.messages.take(at: now)
        switch message {
        case .trigger, .request:
            wait = max(wait, budgets.calls.take(at: now), budgets.data.take(Double(bytes), at: now))
        case .navigate:
            wait = max(wait, budgets.navigations.take(at: now), budgets.data.take(Double(bytes), at: now))
        case .log:
            wait = max(wait, budgets.log.take(at: now))
        default:
            break
        }
        if wait > .zero {
            sayOnce("slowed", "plugin \(pluginID): it calls faster than a plugin may (\(Int(limits.messagesPerSecond)) messages, "
                    + "\(Int(limits.callsPerSecond)) calls, \(Int(limits.navigationsPerSecond)) navigations, \(Int(limits.logLinesPerSecond)) log lines "
                    + "and \(Int(limits.dataBytesPerSecond) / 1024 / 1024) MiB of data a second); slowed down to that")
        }
        return wait
    }

    private func watch(_ id: UInt64, _ pattern: String) {
        guard context.acceptsCalls, context.gate.allows(.watch, pattern) else { return }
        guard watches.count < limits.watches else {
            sayOnce("watches", "plugin \(pluginID): watch \(PluginText.escaped(pattern).debugDescription) refused: it holds \(limits.watches) watches already, the most a plugin may")
            return
        }
        let watch = context.bus.watch(pattern, owner: context) { [weak self] _, event in
            self?.deliver(event, to: id)
        }
        context.remember(watch)
        watches[id] = watch
    }

    /// Logs the plugin's `text` at `level`, one log line per line of it (a plugin cannot make a
    /// line that looks like another's), control characters shown as escapes, each cut at
    /// ``PluginLimits/logLineLength``.
    private func log(_ level: Logger.Level, _ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            context.logger.log(level: level, "\(PluginText.escaped(String(line), limit: limits.logLineLength))")
        }
    }

    /// Logs `text` as a warning, once per connection and `key`.
    private func sayOnce(_ key: String, _ text: String) {
        guard saidOnce.insert(key).inserted else { return }
        context.logger.warning("\(text)")
    }
}
