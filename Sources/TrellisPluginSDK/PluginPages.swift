import Dispatch

/// What a page of the plugin was opened with: handlers get it to serve the path asked for.
///
/// ```swift
/// pages.text("/weather/:city") { request in "Forecast for \(request.parameters["city"] ?? "?")" }
/// ```
public struct PageRequest: Sendable, Hashable {
    /// The page's number: the shell's pages are told apart by it (two windows may show the
    /// same path).
    ///
    /// ```swift
    /// pages.text("/weather/:city") { [host] request in
    ///     host.log(.debug, "page \(request.page) shows \(request.path)")
    ///     return "Forecast for \(request.parameters["city"] ?? "?")"
    /// }
    /// ```
    public let page: Int
    /// The route pattern of the plugin's manifest that matched, such as `/weather/:city`: one
    /// handler may serve several.
    ///
    /// ```swift
    /// let about: @Sendable (PageRequest) -> String = { request in
    ///     request.pattern == "/weather/about" ? "Forecasts from the met office" : "Icons by the weather team"
    /// }
    /// pages.text("/weather/about", about)
    /// pages.text("/weather/credits", about)
    /// ```
    public let pattern: String
    /// The path opened, such as `/weather/paris`.
    ///
    /// ```swift
    /// pages.text("/weather/:city") { request in "You opened \(request.path)" }   // You opened /weather/paris
    /// ```
    public let path: String
    /// The route's parameters and the query's, such as `["city": "paris", "days": "5"]` for
    /// `/weather/paris?days=5`.
    ///
    /// ```swift
    /// pages.text("/weather/:city") { request in
    ///     "\(request.parameters["days"] ?? "3") days in \(request.parameters["city"] ?? "?")"
    /// }
    /// ```
    public let parameters: [String: String]
}

/// A change to the rows of an open table page, returned by ``PluginPages/update(_:_:)``'s body
/// after it changed the data. The changes are applied in order, each to the rows as the one
/// before left them (a change that does not fit the table shows an error on the page, naming
/// the plugin); the window changes only those rows and fetches only the new ones.
///
/// ```swift
/// let rows = LockedState<[[String]]>([["Tea", "2"], ["Milk", "1"], ["Bread", "1"]])
/// pages.update("/shelf") {
///     rows.withLock { $0.remove(at: 2); $0.insert(["Jam", "1"], at: 0); $0[2] = ["Milk", "2"] }
///     return [.remove(at: 2, count: 1), .insert(at: 0, count: 1), .update(at: 2, count: 1)]
/// }
/// ```
///
/// `.move(from:to:)` moves one row: `.move(from: 0, to: 2)` after `$0.insert($0.remove(at: 0), at: 2)`.
public enum RowChange: Sendable, Hashable {
    /// `count` new rows now at `at` and after; the window fetches them.
    case insert(at: Int, count: Int)
    /// The `count` rows that were at `at` and after are gone.
    case remove(at: Int, count: Int)
    /// The `count` rows at `at` and after changed their texts; the window fetches them again.
    case update(at: Int, count: Int)
    /// The row at `from` is now at `to` (counted after it left `from`).
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
/// let cities = LockedState<[(name: String, degrees: Double)]>([])
/// pages.text("/weather/about") { _ in "Forecasts from the met office" }
/// pages.table("/weather", count: { _ in cities.withLock(\.count) },
///             rows: { _, range in
///                 cities.withLock { Array($0[range.clamped(to: $0.indices)]) }.map { [$0.name, "\($0.degrees) °C"] }
///             })
/// pages.update("/weather") {                       // later, as data arrives
///     cities.withLock { $0.insert((name: "Paris", degrees: 21.5), at: 0) }
///     return [.insert(at: 0, count: 1)]
/// }
/// ```
///
/// Handlers run one at a time, on a queue of the SDK's, and so do `update`'s bodies: a table's
/// count and rows are always read between two updates, never during one.
public final class PluginPages: Sendable {
    /// What a form's button answers: a line above the form (nil hides it) and values to set.
    ///
    /// ```swift
    /// pages.form("/weather/city", fields: { _ in [PluginPages.Field(id: "name", label: "City")] },
    ///            buttons: [(id: "save", label: "Save")]) { _, _, values in
    ///     PluginPages.FormReply(message: "Saved \(values["name"] ?? "")", values: ["name": ""])
    /// }
    /// ```
    public struct FormReply: Sendable {
        /// The line shown above the form; nil hides it.
        ///
        /// ```swift
        /// pages.form("/weather/city", fields: { _ in [PluginPages.Field(id: "name", label: "City")] },
        ///            buttons: [(id: "save", label: "Save")]) { _, _, values in
        ///     var reply = PluginPages.FormReply()
        ///     reply.message = values["name", default: ""].isEmpty ? "A city, please" : nil
        ///     return reply
        /// }
        /// ```
        public var message: String?
        /// Values to set in the form's fields, by field id; the fields not named keep theirs.
        ///
        /// ```swift
        /// pages.form("/weather/city", fields: { _ in [PluginPages.Field(id: "name", label: "City")] },
        ///            buttons: [(id: "clear", label: "Clear")]) { _, _, _ in
        ///     var reply = PluginPages.FormReply()
        ///     reply.values["name"] = ""
        ///     return reply
        /// }
        /// ```
        public var values: [String: String]
        /// A reply: `message` above the form (nil: none), `values` set in its fields.
        ///
        /// ```swift
        /// pages.form("/weather/city", fields: { _ in [PluginPages.Field(id: "name", label: "City")] },
        ///            buttons: [(id: "add", label: "Add")]) { _, _, _ in
        ///     PluginPages.FormReply(message: "Added", values: ["name": ""])
        /// }
        /// ```
        public init(message: String? = nil, values: [String: String] = [:]) {
            self.message = message
            self.values = values
        }
    }

    /// A field of a form page.
    ///
    /// ```swift
    /// let fields = [PluginPages.Field(id: "name", label: "Name", value: "Ada"),
    ///               PluginPages.Field(id: "notes", label: "Notes", style: .multiline)]
    /// pages.form("/people/new", fields: { _ in fields }, buttons: [(id: "add", label: "Add")]) { _, _, values in
    ///     PluginPages.FormReply(message: "Added \(values["name"] ?? "")")
    /// }
    /// ```
    public struct Field: Sendable {
        /// How a field is edited: a line (`singleLine`), a box of lines (`multiline`), or not at
        /// all (`readOnly`, shown as text).
        ///
        /// ```swift
        /// let id = PluginPages.Field(id: "id", label: "Number", style: .readOnly, value: "42")
        /// pages.form("/people/42", fields: { _ in [id] }, buttons: []) { _, _, _ in PluginPages.FormReply() }
        /// ```
        public enum Style: String, Sendable { case singleLine, multiline, readOnly }
        /// The field's id: its key in the values an action receives and in ``FormReply/values``.
        ///
        /// ```swift
        /// let name = PluginPages.Field(id: "name", label: "Name")
        /// pages.form("/people/new", fields: { _ in [name] }, buttons: [(id: "add", label: "Add")]) { _, _, values in
        ///     PluginPages.FormReply(message: "Hello \(values[name.id] ?? "")")
        /// }
        /// ```
        public var id: String
        /// The text beside the field.
        ///
        /// ```swift
        /// pages.form("/people/:id", fields: { request in
        ///     var name = PluginPages.Field(id: "name", label: "Name")
        ///     if request.parameters["id"] == "new" { name.label = "Name of the new person" }
        ///     return [name]
        /// }, buttons: []) { _, _, _ in PluginPages.FormReply() }
        /// ```
        public var label: String
        /// How the field is edited.
        ///
        /// ```swift
        /// pages.form("/people/:id", fields: { request in
        ///     var name = PluginPages.Field(id: "name", label: "Name", value: "Ada")
        ///     if request.parameters["id"] == "1" { name.style = .readOnly }   // the owner's name stays
        ///     return [name]
        /// }, buttons: []) { _, _, _ in PluginPages.FormReply() }
        /// ```
        public var style: Style
        /// The text the field shows when the page opens.
        ///
        /// ```swift
        /// let people = LockedState(["1": "Ada", "2": "Grace"])
        /// pages.form("/people/:id", fields: { request in
        ///     var name = PluginPages.Field(id: "name", label: "Name")
        ///     name.value = people.withLock { $0[request.parameters["id"] ?? ""] } ?? ""
        ///     return [name]
        /// }, buttons: []) { _, _, _ in PluginPages.FormReply() }
        /// ```
        public var value: String
        /// A field; `style` is a single line and `value` empty unless given.
        ///
        /// ```swift
        /// let notes = PluginPages.Field(id: "notes", label: "Notes", style: .multiline, value: "Bring tea")
        /// pages.form("/people/new", fields: { _ in [notes] }, buttons: []) { _, _, _ in PluginPages.FormReply() }
        /// ```
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

    /// Serves the pages of plugin `pluginID` (its manifest's id) through `host`'s bus. It lives
    /// as long as the plugin: the bus holds it.
    ///
    /// ```swift
    /// let pages = PluginPages(pluginID: "weather", host: host)   // plugin.json: "id": "weather"
    /// pages.text("/weather/about") { _ in "Forecasts from the met office" }
    /// ```
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

    /// Serves `pattern` as a text page.
    ///
    /// ```swift
    /// pages.text("/shelf/about") { _ in "Items you keep" }
    /// ```
    public func text(_ pattern: String, _ text: @escaping @Sendable (PageRequest) -> String) {
        handlers.withLock { $0[pattern] = .text(text) }
    }

    /// Serves `pattern` as a table of `count` rows, read by range (`rows` returns one array of
    /// column texts per row of the range); `activated` is told the row the user opened.
    ///
    /// ```swift
    /// let readings = LockedState<[[String]]>([["Paris", "21.5 °C"], ["Oslo", "9 °C"]])
    /// pages.table("/weather", count: { _ in readings.withLock(\.count) },
    ///             rows: { _, range in readings.withLock { Array($0[range.clamped(to: $0.indices)]) } },
    ///             activated: { [host] _, row in host.navigate("/weather/\(row)") })
    /// ```
    ///
    /// Each row's first string is its title, the others its columns (see "Your first plugin").
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
    /// thread, a handler of these pages among them. See ``RowChange`` for the changes.
    ///
    /// ```swift
    /// let readings = LockedState<[[String]]>([])
    /// bus.watch("weather:reading", owner: self) { [pages] event in
    ///     pages.update("/weather") {
    ///         readings.withLock { $0.insert([event.data["city"]?.stringValue ?? "?"], at: 0) }
    ///         return [.insert(at: 0, count: 1)]
    ///     }
    /// }
    /// ```
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
