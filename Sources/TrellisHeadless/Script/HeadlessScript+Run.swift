import Dispatch
import TrellisCore

/// Running a script's steps on a headless front end.
extension HeadlessScript {
    /// A step the app adds: it gets the rest of the step's line and throws to fail the step.
    public typealias Command = @MainActor (String) async throws -> Void

    /// Runs the steps in order on `screen`, stopping at the first that fails. After each
    /// step it waits until the requests it started (through the front controller) have
    /// ended and the screen has stopped changing; `expect` waits up to `patience` for its
    /// text.
    ///
    /// - Parameters:
    ///   - commands: the app's own steps, by name (given to ``init(source:name:extraCommands:)`` too).
    ///   - output: where `print` writes the screen.
    /// - Throws: ``HeadlessScriptError`` naming the line, the step and what went wrong.
    @MainActor
    public func run(on screen: HeadlessFrontend, commands: [String: Command] = [:], patience: Duration = .seconds(10),
                    output: (String) -> Void) async throws(HeadlessScriptError)
    {
        let requests = RequestCounter(bus: screen.shell.bus)
        for step in steps {
            func fail(_ reason: String) -> HeadlessScriptError {
                HeadlessScriptError(script: name, line: step.line, step: step.source, reason: reason)
            }
            do {
                try await perform(step, on: screen, commands: commands, patience: patience, output: output)
            } catch let error as HeadlessScriptError {
                throw error
            } catch {
                throw fail(String(describing: error))
            }
            guard await requests.waitUntilNoneRunning(patience: patience, screen: screen) else {
                throw fail("its requests did not end within \(patience)")
            }
        }
    }

    @MainActor
    private func perform(_ step: Step, on screen: HeadlessFrontend, commands: [String: Command], patience: Duration,
                         output: (String) -> Void) async throws
    {
        let text = step.argument
        switch step.command {
        case "navigate": try screen.shell.navigate(to: text)
        case "back": if !screen.back() { throw StepFailure("already at the first page") }
        case "fill":
            guard let form = screen.form else { throw HeadlessError.noForm(page: screen.page?.title ?? "") }
            guard let field = step.target, form.fields.contains(where: { $0.id == field && $0.style.isEditable }) else {
                let editable = form.fields.filter(\.style.isEditable).map(\.id)
                throw StepFailure("no field \"\(step.target ?? "")\" to fill on this page (fields: \(editable.joined(separator: ", ")))")
            }
            try screen.fill(field, with: text)
        case "press":
            // By id, else by the label shown when one button only has it ("Add" for a plugin's
            // page action, whose id is plugin-<plugin id>-<command id>).
            let formIDs = screen.form?.actions.map(\.id) ?? [], pageIDs = screen.page?.shownActions.map(\.id) ?? []
            let labelled = (screen.form?.actions.filter { $0.label == text }.map(\.id) ?? [])
                + (screen.page?.shownActions.filter { $0.label == text }.map(\.id) ?? [])
            let id = formIDs.contains(text) || pageIDs.contains(text) || labelled.count != 1 ? text : labelled[0]
            if formIDs.contains(id) {
                try screen.press(id)
            } else if pageIDs.contains(id) {
                try screen.pressPageAction(id)
            } else {
                let why = labelled.count > 1 ? "\(labelled.count) buttons are labelled \"\(text)\": press one by its id" : "no button \"\(text)\" on this page"
                throw StepFailure("\(why) (buttons: \((formIDs + pageIDs).joined(separator: ", ")))")
            }
        case "select", "toggle":
            let index = text.hasPrefix("#") ? Int(text.dropFirst()) : nil
            let row = try index ?? row(of: text, on: screen)
            if step.command == "select" { try screen.click(row: row) } else { try screen.toggle(row: row) }
        case "type": try screen.type(text)
        case "sort": try screen.clickHeader(key: text)
        case "expect":
            let deadline = ContinuousClock.now + patience
            while !screen.render().contains(text) {
                guard ContinuousClock.now < deadline else {
                    throw StepFailure("the screen does not show \"\(text)\" after \(patience); it shows:\n\(screen.render())")
                }
                try await screen.settle()
                try await Task.sleep(for: .milliseconds(20))
            }
        case "print": output(screen.render())
        case "undo": screen.shell.undo()
        default:
            guard let command = commands[step.command] else { throw StepFailure("the app offers no step \"\(step.command)\"") }
            try await command(text)
        }
    }

    /// The row whose text is `text`, else the only row whose text contains it.
    @MainActor
    private func row(of text: String, on screen: HeadlessFrontend) throws -> Int {
        guard let table = screen.table else { throw HeadlessError.noTable(page: screen.page?.title ?? "") }
        if let exact = try? table.index(of: text) { return exact }
        let lines = table.render()
        let containing = lines.indices.filter { lines[$0].contains(text) }
        guard containing.count == 1, let only = containing.first else {
            let found = containing.isEmpty ? "no row shows" : "\(containing.count) rows show"
            throw StepFailure("\(found) \"\(text)\" among the \(lines.count) shown (give the whole text, or #index)")
        }
        return only
    }
}

/// Why a step failed, in words.
private struct StepFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Counts the front controller's requests under way, from its lifecycle events.
private final class RequestCounter: Sendable {
    private let running: LockedState<Int>
    private let token: WatchToken

    init(bus: EventBus) {
        let running = LockedState(0)
        self.running = running
        token = bus.watch("request:*") { event in
            switch event.message {
            case RequestEvents.started: running.withLock { $0 += 1 }
            case RequestEvents.finished, RequestEvents.failed, RequestEvents.validationFailed, RequestEvents.cancelled:
                running.withLock { $0 -= 1 }
            default: break
            }
        }
    }

    /// Waits until no request runs and the screen has looked the same for a few turns of
    /// the main queue (fetched lists follow a save from another thread); `false` when
    /// requests still run after `patience`.
    @MainActor
    func waitUntilNoneRunning(patience: Duration, screen: HeadlessFrontend) async -> Bool {
        let deadline = ContinuousClock.now + patience
        var calm = 0
        var last = screen.render()
        while calm < 3 {
            try? await screen.settle()
            try? await Task.sleep(for: .milliseconds(10))
            let now = screen.render()
            calm = running.withLock({ $0 }) == 0 && now == last ? calm + 1 : 0
            last = now
            if ContinuousClock.now > deadline { return running.withLock { $0 } == 0 }
        }
        return true
    }
}
