import TrellisCore
import TrellisPluginABI

/// What reaches one plugin connection, in the order it happened: the messages its process sent,
/// and what happened to the process and the connection's requests.
enum PluginInbound: Sendable {
    /// A message the process sent.
    case message(ProcessMessage, bytes: Int)
    /// A frame that could not be read, or a message that does not decode: the process does not
    /// follow the protocol.
    case malformed(String)
    /// The process's socket reached its end.
    case closed
    /// The process ended, with this wait status.
    case exited(Int32)
    /// The process's stderr reached its end.
    case outputEnded
    /// A deadline of the connection's may have passed: the connection looks at its clock.
    case deadline
}

/// The connection's mailbox: what its loop reads is taken here, by the actor, on the loop's
/// thread, in the order it came. A message over the plugin's budgets is held back, with all
/// that comes after it, and the socket is not read until they have been taken.
extension PluginConnection {
    /// Starts reading the socket, the stderr and the process's end on the loop: each reaches
    /// ``take(_:)`` there, on this actor's executor.
    func startReading() {
        let nameBytes = limits.nameBytes
        channel.start { [weak self] input in
            guard let self else { return false }
            let item: PluginInbound
            switch input {
            case .frame(let frame):
                do throws(PluginWire.Malformed) {
                    item = .message(try ProcessMessage(frame: frame, nameBytes: nameBytes), bytes: frame.json.count)
                } catch {
                    item = .malformed(error.reason)
                }
            case .malformed(let reason): item = .malformed(reason)
            case .closed: item = .closed
            }
            // The loop runs this on its thread, the actor's executor.
            return assumeIsolated { $0.take(item) }
        }
        output.start { [weak self] in
            self?.assumeIsolated { _ = $0.take(.outputEnded) }
        }
        child.watch(on: loop) { [weak self] status in
            // What the process wrote before it ended comes before its end (a refusal, say).
            self?.channel.readWhatRemains()
            self?.assumeIsolated { _ = $0.take(.exited(status)) }
        }
    }

    /// Takes `item` now, or after what is held back; true when the socket is to be read no
    /// more until ``release(heldSince:)`` is done.
    @discardableResult
    func take(_ item: PluginInbound) -> Bool {
        guard held.isEmpty else {
            held.append(item)
            return true
        }
        if case .message(let message, let bytes) = item, !hasEnded {
            let now = clock.now
            let wait = charge(message, bytes: bytes, at: now)
            if wait > .zero {
                held.append(item)
                holdBack(until: now + wait, since: now)
                return true
            }
        }
        handle(item)
        return false
    }

    /// Takes the held items back in order once `due` has come.
    private func holdBack(until due: Duration, since start: Duration) {
        Task { [weak self, clock] in
            try? await clock.sleep(until: due)
            await self?.release(heldSince: start)
        }
    }

    /// Takes what was held back since `start`, in order, until a message is over its budget
    /// again; reads the socket again once all is taken. The time held is added to the
    /// deadlines: a plugin is never killed for time the shell held it back.
    private func release(heldSince start: Duration) {
        extendDeadlines(by: clock.now - start)
        var charged = true
        while let item = held.first {
            if !charged, case .message(let message, let bytes) = item, !hasEnded {
                let now = clock.now
                let wait = charge(message, bytes: bytes, at: now)
                if wait > .zero {
                    holdBack(until: now + wait, since: now)
                    return
                }
            }
            charged = false
            held.removeFirst()
            handle(item)
        }
        channel.resumeReading()
    }

    private func handle(_ item: PluginInbound) {
        switch item {
        case .message(let message, let bytes):
            guard !hasEnded else { return }
            switch message {
            case .entry(let entry):
                entryDue = nil
                waitingFor.withLock { $0.removeAll { $0 == "its entry" } }
                madeProgress()
                entryWait?.resume(returning: entry)
                entryWait = nil
            case .register(let service):
                if let failure = context.checkRegistration(of: service) {
                    context.refuse(failure)
                } else {
                    registeredServices.append(service)
                    context.noteRegistration(of: service)
                }
            case .refuse(let reason):
                context.refuse(.pluginProcess(reason: reason))
            case .started(let request, _, _), .stopped(let request):
                answered(request, message)
            case .done:
                let now = clock.now
                sent.withLock { sent in
                    if !sent.messages.isEmpty { sent.messages.removeFirst() }
                    sent.since = now
                }
            default:
                perform(message, bytes: bytes)
            }
        case .malformed(let reason):
            kill(because: "it sent a malformed message: \(reason)")
        case .closed:
            closed = true
            if exitStatus == nil, endDue == nil { endDue = clock.now + deadlines.stop }
            checkDeadlines()
        case .exited(let status):
            exitStatus = status
            channel.close()
            output.drain()
            if outputEnded { return finish() }
            if endDue == nil { endDue = clock.now + deadlines.stop }
            checkDeadlines()
        case .outputEnded:
            outputEnded = true
            if exitStatus != nil { finish() }
        case .deadline:
            checkDeadlines()
        }
    }
}
