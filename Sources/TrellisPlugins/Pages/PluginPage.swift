import TrellisCore
import Foundation

/// A page a plugin contributes (a route of its manifest, see ``PluginRoute``), served by the
/// plugin over the bus, in its own namespace, from the plugin's own process. For plugin
/// `weather`:
///
/// | The page triggers        | data | the plugin answers with |
/// |--------------------------|------|-------------------------|
/// | `weather:page:open`      | `{"page", "pattern", "path", "parameters", "data"}` | `weather:page:show` |
/// | `weather:page:fetch`     | `{"page", "start", "count"}` (table pages) | `weather:page:rows` |
/// | `weather:page:action`    | `{"page", "action", "values"}` (a form's button) | `weather:page:message` or `show` (optional) |
/// | `weather:page:activate`  | `{"page", "row"}` (a table row opened) | anything (optional) |
/// | `weather:page:close`     | `{"page"}` (the page is gone: forget it) | nothing |
///
/// What the plugin triggers, each with the `"page"` it was asked for:
/// - `weather:page:show`: `{"page", "title"?, "text": "…"}`, or `"table": {"count": n}`, or
///   `"form": {"fields": [{"id", "label", "style"?: "singleLine"|"multiline"|"readOnly",
///   "value"?}], "actions": [{"id", "label", "destructive"?}]}` — the page's content, at any
///   time (again to replace it).
/// - `weather:page:rows`: `{"page", "start", "rows": [row, …]}` answering a fetch, with
///   exactly the rows asked for; a row is a string or an array of strings (its columns).
/// - `weather:page:changed`: `{"page", "changes": [{"insert": [start, count]}, {"remove":
///   [start, count]}, {"update": [start, count]}, {"move": [from, to]}], "count"?: n}` —
///   live changes of a table page, applied in order; `count`, when sent, is checked.
/// - `weather:page:message`: `{"page", "message": "…" | null, "values"?: {field: text}}` —
///   a line above the content (validation, failures), and form values to set.
///
/// The page waits for each answer at most ``PluginPageRoutes/deadline`` (3 s): a plugin that does
/// not answer in time is stopped (its process killed, which counts as a crash) and the page
/// shows why, with a Restart button — as it does for malformed answers, a crash, a disabled
/// or failed plugin. The window never waits for a plugin: the page shows "Loading…" and rows
/// show "…" until their columns arrive.
@MainActor
public final class PluginPage: PageController {
    /// The plugin serving the page.
    public let plugin: String
    /// Why the page shows an error instead of the plugin's content, if it does.
    public private(set) var failure: String?
    /// Whether the page asks the plugin again by itself when it comes back (restarted,
    /// enabled): not after the plugin failed this page itself (a hang, a malformed answer),
    /// which would only fail again — the Restart button asks.
    private var reopensWhenPluginReturns = true
    /// The plugin came back while another page covered this one: ask when it appears.
    private var opensOnAppear = false
    private let pages: PluginPageRoutes?
    private var rows: PluginRowSource?
    private var container: TableContainer?
    private var form: Form?
    /// Requests sent and not answered yet, with when they were sent (on the host's clock).
    private var awaiting: [String: Duration] = [:]
    /// The plugin is being activated for this page, which asks once it is loaded.
    private var activating = false
    private var watchdog: Task<Void, Never>?
    /// Kept for `deinit`, which tells the plugin the page is gone.
    private let bus: EventBus

    public required init(values: RouteValues, shell: Shell) {
        plugin = values.options["plugin"]?.stringValue ?? ""
        pages = shell.resolve(PluginPageRoutes.self)
        bus = shell.bus
        super.init(values: values, shell: shell)
        let route = pages?.route(plugin: plugin, pattern: values.pattern)
        title = route.map { Localization.translate($0.title, plugin: plugin) } ?? plugin
        content = .text(tr("Loading…"))
        shell.bus.watchOnMainActor("\(plugin):page:*", owner: self) { page, event in page.received(event) }
        for message in PluginEvents.stateChanges {
            shell.bus.watchOnMainActor(message, owner: self) { page, event in page.pluginChanged(event) }
        }
        open()
    }

    deinit {
        watchdog?.cancel()
        bus.trigger("\(plugin):page:close", ["page": .number(Double(id.rawValue))])
    }

    /// The plugin's display name (its manifest's `name`), for messages.
    private var pluginName: String {
        Localization.translate(pages?.host.report(for: plugin)?.manifest?.name ?? plugin, plugin: plugin)
    }

    // MARK: Asking the plugin

    /// Waiting for the plugin's answer to a request, or for the plugin to start.
    public override var isAwaitingContent: Bool { activating || !awaiting.isEmpty }

    private func open() {
        activating = false
        guard let pages else { return fail(tr("This window has no plugin pages."), canRestart: false) }
        switch pages.host.report(for: plugin)?.state {
        case nil:
            fail(tr("There is no plugin “%@”.", plugin), canRestart: false)
        case .loaded?:
            failure = nil
            message = nil
            actions = []
            content = .text(tr("Loading…"))
            send("open", ["pattern": .string(values.pattern), "path": .string(values.path),
                          "parameters": .object(values.parameters.mapValues(JSONValue.string)), "data": values.data])
        case .waiting?:
            activating = true
            content = .text(tr("Starting the plugin “%@”…", pluginName))
            pages.host.requestActivation(plugin)
        case .disabled?:
            fail(tr("The plugin “%@” is turned off.", pluginName), action: PageAction(id: "restart", label: tr("Turn On")))
        case .failed(let failure)?:
            fail(tr("The plugin “%@” failed: %@", pluginName, failure.description))
        case .found?:
            fail(tr("The plugin “%@” is not loaded yet.", pluginName), canRestart: false)
        case .awaitingApproval?:
            fail(tr("The plugin “%@” waits for your approval on the Plugins page.", pluginName), canRestart: false)
        }
    }

    private func send(_ request: String, _ data: [String: JSONValue], awaiting key: String? = nil) {
        if let key = key ?? (request == "open" ? "open" : nil) {
            if awaiting[key] == nil, let clock = pages?.host.clock { awaiting[key] = clock.now }
            startWatchdog()
        }
        var data = data
        data["page"] = .number(Double(id.rawValue))
        shell?.bus.trigger("\(plugin):page:\(request)", .object(data))
    }

    /// Waits, on the host's clock, until the oldest request's deadline; then fails the page if
    /// that request is still unanswered, or waits for the next one.
    private func startWatchdog() {
        guard watchdog == nil, let deadline = pages?.deadline, let clock = pages?.host.clock else { return }
        watchdog = Task { [weak self] in
            while true {
                guard let oldest = self?.awaiting.values.min() else {
                    // Nothing to wait for: the next request starts a new watchdog.
                    self?.watchdog = nil
                    return
                }
                do { try await clock.sleep(until: oldest + deadline) } catch { return }
                guard let self else { return }
                if let (what, _) = self.awaiting.first(where: { clock.now >= $0.value + deadline }) {
                    return self.noAnswer(what, within: deadline)
                }
            }
        }
    }

    private func noAnswer(_ what: String, within deadline: Duration) {
        watchdog = nil
        awaiting = [:]
        let reason = PluginPageError.noAnswer(what: "“\(what)” of page \(values.path)", within: deadline).description
        let killed = pages?.host.kill(plugin, because: reason) ?? false
        if !killed { pages?.host.logger.warning("plugin \(plugin): \(reason) (its process had ended already)") }
        fail(tr("The plugin “%@” did not answer in time: %@", pluginName, reason), reopens: false)
    }

    // MARK: The plugin's answers

    private func received(_ event: Event) {
        guard failure == nil || event.message.hasSuffix(":show"),
              event.data["page"]?.intValue == Int(id.rawValue) else { return }
        let request = String(event.message.dropFirst("\(plugin):page:".count))
        do {
            switch request {
            case "show": try show(event.data)
            case "rows": try receiveRows(event.data)
            case "changed": try applyChanges(event.data)
            case "message": try showMessage(event.data)
            default: return  // the page's own requests, which the plugin watches
            }
        } catch {
            fail(tr("The plugin “%@” sent what this page cannot show: %@", pluginName, "\(plugin):page:\(request): \(error)"),
                 reopens: false)
        }
    }

    private func show(_ data: JSONValue) throws(PluginPageError) {
        awaiting["open"] = nil
        failure = nil
        message = nil
        actions = []
        if let title = data["title"]?.stringValue { self.title = title }
        if let text = data["text"]?.stringValue {
            rows = nil; container = nil; form = nil
            content = .text(Self.shown(text))
        } else if let table = data["table"] {
            guard let count = table["count"]?.intValue, (0...PluginRowSource.maximumCount).contains(count) else {
                throw .malformed("\"table\" needs a \"count\" from 0 to \(PluginRowSource.maximumCount)")
            }
            showTable(count: count)
        } else if let form = data["form"] {
            try showForm(form)
        } else {
            throw .malformed("show needs \"text\", \"table\" or \"form\"")
        }
    }

    /// The most characters of a text page shown: a window lays out more only slowly, and a
    /// plugin must not be able to hold its frames up with a megabyte of text.
    public static let maximumTextLength = 20_000

    /// `text`, cut at ``maximumTextLength`` characters with a line saying how many more there are.
    static func shown(_ text: String) -> String {
        guard text.count > maximumTextLength else { return text }
        let more = text.count - maximumTextLength
        return String(text.prefix(maximumTextLength)) + "\n\n" + tr("… %@ more characters not shown", "\(more)")
    }

    private func showTable(count: Int) {
        let rows = PluginRowSource(count: count)
        rows.fetch = { [weak self] start, count in
            self?.send("fetch", ["start": .number(Double(start)), "count": .number(Double(count))], awaiting: "fetch \(start)")
        }
        let container = TableContainer(source: rows, cells: PluginRowCells(), callbacks: PluginRowCallbacks(page: self))
        container.emptyText = tr("Nothing here")
        self.rows = rows
        self.container = container
        form = nil
        content = .table(container)
    }

    private func showForm(_ json: JSONValue) throws(PluginPageError) {
        var fields: [Form.Field] = []
        for field in json["fields"]?.arrayValue ?? [] {
            guard let id = field["id"]?.stringValue, let label = field["label"]?.stringValue else {
                throw .malformed("each form field needs an \"id\" and a \"label\"")
            }
            let style: Form.Field.Style
            switch field["style"]?.stringValue ?? "singleLine" {
            case "singleLine": style = .singleLine
            case "multiline": style = .multiline
            case "readOnly": style = .readOnly
            case let other: throw .malformed("field \"\(id)\": style \"\(other)\" is not singleLine, multiline or readOnly")
            }
            fields.append(Form.Field(id: id, label: label, style: style, value: field["value"]?.stringValue ?? ""))
        }
        var actions: [Form.Action] = []
        for action in json["actions"]?.arrayValue ?? [] {
            guard let id = action["id"]?.stringValue, let label = action["label"]?.stringValue else {
                throw .malformed("each form action needs an \"id\" and a \"label\"")
            }
            actions.append(Form.Action(id: id, label: label, isDestructive: action["destructive"]?.boolValue ?? false))
        }
        guard !fields.isEmpty || !actions.isEmpty else { throw .malformed("a form needs \"fields\" or \"actions\"") }
        let form = Form(fields: fields, actions: actions)
        form.onAction = { [weak self] action, form in
            self?.send("action", ["action": .string(action), "values": .object(form.values.mapValues(JSONValue.string))])
        }
        rows = nil
        container = nil
        self.form = form
        content = .form(form)
    }

    private func receiveRows(_ data: JSONValue) throws(PluginPageError) {
        guard let rows, let container else { throw .malformed("rows sent to a page that is not a table") }
        guard let start = data["start"]?.intValue, let list = data["rows"]?.arrayValue else {
            throw .malformed("rows need \"start\" and \"rows\"")
        }
        awaiting["fetch \(start)"] = nil
        try container.coalescingChanges { () throws(PluginPageError) in try rows.receive(start: start, rows: list) }
    }

    private func applyChanges(_ data: JSONValue) throws(PluginPageError) {
        guard let rows, let container else { throw .malformed("changes sent to a page that is not a table") }
        guard let list = data["changes"]?.arrayValue else { throw .malformed("changed needs \"changes\"") }
        let changes = try list.map { (json) throws(PluginPageError) in try PluginTableChange(json: json) }
        try container.coalescingChanges { () throws(PluginPageError) in
            for change in changes { try rows.apply(change) }
        }
        if let count = data["count"]?.intValue, count != rows.count {
            throw .malformed("after its changes the table has \(rows.count) rows, but the plugin says \(count)")
        }
    }

    private func showMessage(_ data: JSONValue) throws(PluginPageError) {
        awaiting = awaiting.filter { !$0.key.hasPrefix("action") }
        switch data["message"] {
        case .string(let text)?: message = text
        case .null?, nil: message = nil
        default: throw .malformed("\"message\" must be a string or null")
        }
        if let values = data["values"]?.objectValue {
            form?.setValues(values.compactMapValues(\.stringValue))
        }
    }

    /// Row `row` of the table was opened.
    fileprivate func activated(_ item: TableItem) {
        guard let row = rows?.row(of: item.id) else { return }
        send("activate", ["row": .number(Double(row))])
    }

    // MARK: Errors and the plugin's life

    private func fail(_ text: String, canRestart: Bool = true, action: PageAction? = nil, reopens: Bool = true) {
        failure = text
        reopensWhenPluginReturns = reopens
        awaiting = [:]
        activating = false
        watchdog?.cancel()
        watchdog = nil
        rows = nil; container = nil; form = nil
        message = nil
        content = .text(text)
        actions = canRestart ? [action ?? PageAction(id: "restart", label: tr("Restart Plugin"))] : []
    }

    public override func perform(pageAction id: String) {
        guard id == "restart", let host = pages?.host else { return }
        let plugin = self.plugin
        content = .text(tr("Starting the plugin “%@”…", pluginName))
        actions = []
        reopensWhenPluginReturns = true
        if host.report(for: plugin)?.state == .loaded { return open() }
        Task { await host.restartByUser(plugin) }
    }

    private func pluginChanged(_ event: Event) {
        guard event.data["plugin"]?.stringValue == plugin else { return }
        switch event.message {
        case PluginCrashed.name:
            // This page's own failure (it stopped the plugin) stands as it is.
            guard reopensWhenPluginReturns else { return }
            // The report says more than the event once the host gave up ("disabled after 3 crashes…").
            let reason = pages?.host.report(for: plugin)?.state.failure?.description ?? event.data["reason"]?.stringValue ?? ""
            // A crash while this page waited for the plugin to open it was likely the opening's
            // doing (a handler that hung past the event deadline): opening again would crash it
            // again. (Rows asked for are not counted: a table always has some on the way.)
            fail(tr("The plugin “%@” stopped: %@", pluginName, reason), reopens: awaiting["open"] == nil)
        case PluginDisabled.name:
            fail(tr("The plugin “%@” is turned off.", pluginName), action: PageAction(id: "restart", label: tr("Turn On")))
        default:
            guard reopensWhenPluginReturns else { return }
            if shell?.navigator.top === self { open() } else { opensOnAppear = true }
        }
    }

    public override func didAppear() {
        guard opensOnAppear else { return }
        opensOnAppear = false
        open()
    }
}

/// The cells of a plugin's table page: the row's columns, "…" until they arrive.
private struct PluginRowCells: CellProvider {
    func cell(for item: TableItem, context: CellContext) -> Cell {
        guard let columns = item.value(as: PluginRow.self)?.columns else {
            return Cell(columns: ["…"], isSelected: context.isSelected, accessibleLabel: tr("Loading…"))
        }
        return Cell(columns: columns, isSelected: context.isSelected)
    }
}

/// Tells the plugin which row was opened.
private struct PluginRowCallbacks: CallbackHandler {
    weak var page: PluginPage?
    func itemActivated(_ item: TableItem) { page?.activated(item) }
    func selectionChanged(_ change: SelectionChange) {}
}
