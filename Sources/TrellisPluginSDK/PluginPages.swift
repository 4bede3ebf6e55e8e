import Dispatch

/// What a page of the plugin was opened with: handlers get it to serve the path asked for.
///
/// ```swift
/// pages.text("/weather/:city") { request in "Forecast for \(request.parameters["city"] ?? "?")" }
/// ```
public struct PageRequest: Sendable, Hashable {
    /// The page's number: the shell's pages are told apart by it.
    public let page: Int
    /// The route pattern of the plugin's manifest that matched, such as `/weather/:city`.
    public let pattern: String
    /// The path opened, such as `/weather/paris`.
    public let path: String
    /// The route's parameters and the query's, such as `["city": "paris"]`.
    public let parameters: [String: String]
}

/// A change to the rows of an open table page, returned by ``PluginPages/update(_:_:)``'s body
/// after it changed the data. The changes are applied in order, each to the rows as the one
/// before left them (a change that does not fit the table shows an error on the page, naming
/// the plugin); the window changes only those rows and fetches only the new ones.
///
/// ```swift
/// pages.update("/shelf") {
///     rows.withLock { $0.remove(at: 2); $0.insert(["New", ""], at: 0) }
///     return [.remove(at: 2, count: 1), .insert(at: 0, count: 1)]
/// }
/// ```
public enum RowChange: Sendable, Hashable {
    case insert(at: Int, count: Int)
    case remove(at: Int, count: Int)
    case update(at: Int, count: Int)
    case move(from: Int, to: Int)

    var json: JSONValue {
        switch self {
        case .insert(let at, let count): ["insert": [.number(Double(at)), .number(Double(count))]]
        case .remove(let at, let count): ["remove": [.number(Double(at)), .number(Double(count))]]
        case .update(let at, let count): ["update": [.number(Double(at)), .number(Double(count))]]
        case .move(let from, let to): ["move": [.number(Double(from)), .number(Double(to))]]
        }
    }
}

/// The pages a plugin contributes (its manifest's `"routes"`), served with a handler per route
/// pattern. The SDK speaks the page messages on the plugin's own namespace
/// (`<id>:page:open`, `fetch`, `action`, `activate`, `close`; see the header) and keeps track
/// of the pages open now, so a live table needs only its data:
///
/// ```swift
/// let pages = PluginPages(pluginID: "weather", host: host)
/// pages.text("/weather/about") { _ in "Forecasts from the met office" }
/// pages.table("/weather", count: { _ in cities.withLock(\.count) },
///             rows: { _, range in cities.withLock { Array($0[range]) }.map { [$0.name, "\($0.degrees) °C"] } })
/// pages.update("/weather") {                       // later, as data arrives
///     cities.withLock { $0.insert(paris, at: 0) }
///     return [.insert(at: 0, count: 1)]
/// }
/// ```
///
/// Handlers run one at a time, on a queue of the SDK's, and so do `update`'s bodies: a table's
/// count and rows are always read between two updates, never during one.
public final class PluginPages: Sendable {
    /// What a form's button answers: a line above the form (nil hides it) and values to set:
    /// `FormReply(message: "Saved", values: ["name": name.trimmed])`.
    public struct FormReply: Sendable {
        public var message: String?
        public var values: [String: String]
        public init(message: String? = nil, values: [String: String] = [:]) {
            self.message = message
            self.values = values
        }
    }

    /// A field of a form page: `Field(id: "name", label: "Name", value: "Ada")`.
    public struct Field: Sendable {
        public enum Style: String, Sendable { case singleLine, multiline, readOnly }
        public var id: String, label: String, style: Style, value: String
        public init(id: String, label: String, style: Style = .singleLine, value: String = "") {
            self.id = id
            self.label = label
            self.style = style
            self.value = value
        }
    }

    private enum Handler: Sendable {
        case text(@Sendable (PageRequest) -> String)
        case table(count: @Sendable (PageRequest) -> Int, rows: @Sendable (PageRequest, Range<Int>) -> [[String]],
                   activated: (@Sendable (PageRequest, Int) -> Void)?)
        case form(fields: @Sendable (PageRequest) -> [Field], buttons: [(id: String, label: String)],
                  action: @Sendable (PageRequest, String, [String: String]) -> FormReply)
    }

    private let pluginID: String
    private let bus: PluginBus
    private let queue = DispatchQueue(label: "trellis.plugin.pages")
    /// Set on `queue`: an `update` from a handler runs at once instead of waiting for itself.
    private let onQueue = DispatchSpecificKey<Bool>()
    private let handlers = LockedState<[String: Handler]>([:])
    /// The pages open now: their requests, by page number.
    private let open = LockedState<[Int: PageRequest]>([:])

    /// Serves the pages of plugin `pluginID` (its manifest's id) through `host`'s bus.
    public init(pluginID: String, host: TrellisHost) {
        self.pluginID = pluginID
        self.bus = host.bus
        queue.setSpecific(key: onQueue, value: true)
        let prefix = "\(pluginID):page:"
        bus.watch("\(prefix)*", owner: self) { [self] event in
            // Only the shell's requests; the plugin's own answers come back here too.
            let kind = event.message.dropFirst(prefix.count)
            guard ["open", "fetch", "action", "activate", "close"].contains(kind) else { return }
            queue.sync { handle(String(kind), event.data) }
        }
    }

    /// Serves `pattern` as a text page: `pages.text("/shelf/about") { _ in "Items you keep" }`.
    public func text(_ pattern: String, _ text: @escaping @Sendable (PageRequest) -> String) {
        handlers.withLock { $0[pattern] = .text(text) }
    }

    /// Serves `pattern` as a table of `count` rows, read by range (`rows` returns one array of
    /// column texts per row of the range); `activated` is told the row the user opened.
    public func table(_ pattern: String, count: @escaping @Sendable (PageRequest) -> Int,
                      rows: @escaping @Sendable (PageRequest, Range<Int>) -> [[String]],
                      activated: (@Sendable (PageRequest, Int) -> Void)? = nil) {
        handlers.withLock { $0[pattern] = .table(count: count, rows: rows, activated: activated) }
    }

    /// Serves `pattern` as a form with `fields` and `buttons`; `action` answers a button:
    ///
    /// ```swift
    /// pages.form("/shelf/new", fields: { _ in [PluginPages.Field(id: "name", label: "Name")] },
    ///            buttons: [(id: "add", label: "Add")]) { _, button, values in
    ///     values["name", default: ""].isEmpty ? PluginPages.FormReply(message: "A name, please")
    ///                                        : PluginPages.FormReply(message: "Added", values: ["name": ""])
    /// }
    /// ```
    public func form(_ pattern: String, fields: @escaping @Sendable (PageRequest) -> [Field],
                     buttons: [(id: String, label: String)],
                     action: @escaping @Sendable (PageRequest, String, [String: String]) -> FormReply) {
        handlers.withLock { $0[pattern] = .form(fields: fields, buttons: buttons, action: action) }
    }

    /// Runs `body` (which changes the data behind table `pattern` and returns what it changed)
    /// between two requests, then tells every open page of `pattern`. May be called from any
    /// thread, a handler of these pages among them. See ``RowChange`` for an example.
    public func update(_ pattern: String, _ body: @Sendable () -> [RowChange]) {
        guard DispatchQueue.getSpecific(key: onQueue) == nil else { return updateNow(pattern, body) }
        queue.sync { updateNow(pattern, body) }
    }

    private func updateNow(_ pattern: String, _ body: @Sendable () -> [RowChange]) {
        do {
            let changes = body()
            guard !changes.isEmpty else { return }
            for request in open.withLock({ Array($0.values) }) where request.pattern == pattern {
                send("changed", page: request.page, ["changes": .array(changes.map(\.json))])
            }
        }
    }

    /// Runs on `queue`.
    private func handle(_ kind: String, _ data: JSONValue) {
        guard let page = data["page"]?.intValue else { return }
        if kind == "close" { open.withLock { _ = $0.removeValue(forKey: page) }; return }
        let request: PageRequest
        if kind == "open" {
            request = PageRequest(page: page, pattern: data["pattern"]?.stringValue ?? "", path: data["path"]?.stringValue ?? "",
                                  parameters: data["parameters"]?.objectValue?.compactMapValues(\.stringValue) ?? [:])
            open.withLock { $0[page] = request }
        } else {
            guard let known = open.withLock({ $0[page] }) else { return }
            request = known
        }
        guard let handler = handlers.withLock({ $0[request.pattern] }) else {
            return send("show", page: page, ["text": .string("This plugin has no page \(request.pattern).")])
        }
        switch (kind, handler) {
        case ("open", .text(let text)):
            send("show", page: page, ["text": .string(text(request))])
        case ("open", .table(let count, _, _)):
            send("show", page: page, ["table": ["count": .number(Double(count(request)))]])
        case ("fetch", .table(_, let rows, _)):
            let start = data["start"]?.intValue ?? 0
            let range = start..<(start + (data["count"]?.intValue ?? 0))
            let texts = rows(request, range).map { JSONValue.array($0.map(JSONValue.string)) }
            send("rows", page: page, ["start": .number(Double(start)), "rows": .array(texts)])
        case ("activate", .table(_, _, let activated?)):
            activated(request, data["row"]?.intValue ?? 0)
        case ("open", .form(let fields, let buttons, _)):
            let fieldsJSON = fields(request).map { field -> JSONValue in
                ["id": .string(field.id), "label": .string(field.label), "style": .string(field.style.rawValue), "value": .string(field.value)]
            }
            let buttonsJSON = buttons.map { button -> JSONValue in ["id": .string(button.id), "label": .string(button.label)] }
            send("show", page: page, ["form": ["fields": .array(fieldsJSON), "actions": .array(buttonsJSON)]])
        case ("action", .form(_, _, let action)):
            let values = data["values"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]
            let reply = action(request, data["action"]?.stringValue ?? "", values)
            send("message", page: page, ["message": reply.message.map(JSONValue.string) ?? .null,
                                         "values": .object(reply.values.mapValues(JSONValue.string))])
        default:
            break
        }
    }

    private func send(_ kind: String, page: Int, _ data: [String: JSONValue]) {
        var data = data
        data["page"] = .number(Double(page))
        bus.trigger("\(pluginID):page:\(kind)", .object(data))
    }
}
