import TrellisCore

/// The front end with no display: shows the shell's navigation stack as text and takes clicks,
/// typing and Back — in the spirit of SwiftNIO's `EmbeddedChannel`. Every logic test runs
/// against it, and `trellis --headless PATH` prints its rendering.
///
/// ```swift
/// let shell = Shell()
/// try DemoApp.install(on: shell, catalog: genres, store: try DemoStore.open(dataDirectory: data, bus: shell.bus))
/// let screen = HeadlessFrontend(shell: shell)
/// try shell.navigate(to: "/catalog")
/// try screen.type("фэнтези")
/// try screen.click(row: 0)          // opens /catalog/5
/// try await screen.settle()         // runs what the click queued on the main actor
/// print(screen.render())
/// ```
@MainActor
public final class HeadlessFrontend: Frontend {
    /// The shell, which owns this front end (set as its `frontend` by `init`).
    public unowned let shell: Shell
    /// Whether the activity indicator would be shown (`activity:changed` said so).
    public private(set) var isActivityVisible = false
    /// The status line (set by the app through ``showStatus(_:)``).
    public private(set) var status: String?
    /// The notice shown ("Deleted “Groceries”" with Undo), if any.
    public private(set) var notice: Notice?
    /// Every push and pop, in order (`push /catalog`, `pop /catalog/5`), for tests.
    public private(set) var history: [String] = []
    var tables: [ObjectIdentifier: HeadlessTableView] = [:]
    /// The custom content each page shows, followed while the page is on the stack.
    private var customObservations: [ObjectIdentifier: (content: CustomContent, token: ObservationToken)] = [:]
    /// How often the screen changed (pages pushed, popped or changed, the status line), for
    /// ``settle(maximumRounds:timeout:)``.
    private(set) var screenChanges = 0
    /// Every message triggered on the shell's bus, counted for ``settle(maximumRounds:timeout:)``.
    let busActivity: BusActivity

    public init(shell: Shell) {
        self.shell = shell
        busActivity = BusActivity(bus: shell.bus)
        shell.frontend = self
        shell.bus.watchOnMainActor(NetworkActivity.changed, owner: self) { frontend, event in
            frontend.isActivityVisible = event.data["active"]?.boolValue ?? false
        }
    }

    // MARK: - Frontend

    public func navigator(_ navigator: Navigator, didPush page: PageController) {
        history.append("push \(page.values.path)")
        screenChanges += 1
        attach(page)
    }

    public func navigator(_ navigator: Navigator, didPop page: PageController) {
        history.append("pop \(page.values.path)")
        screenChanges += 1
        tables[ObjectIdentifier(page)] = nil
        customObservations[ObjectIdentifier(page)] = nil
    }

    public func pageDidChange(_ page: PageController) {
        screenChanges += 1
        attach(page)
    }

    private func attach(_ page: PageController) {
        let id = ObjectIdentifier(page)
        if case .table(let container) = page.content {
            if tables[id]?.container !== container {
                tables[id] = HeadlessTableView(container: container)
            }
        } else {
            tables[id] = nil
        }
        if case .custom(let custom) = page.content {
            if customObservations[id]?.content !== custom {
                // A change of the model changes the rendering: `settle()` waits for it.
                let token = custom.onModelChanged { [weak self] in self?.screenChanges += 1 }
                customObservations[id] = (custom, token)
            }
        } else {
            customObservations[id] = nil
        }
    }

    // MARK: - What is on screen

    /// The page on top.
    public var page: PageController? { shell.navigator.top }

    /// The table of the page on top, if it shows one.
    public var table: HeadlessTableView? { page.flatMap { tables[ObjectIdentifier($0)] } }

    /// The form of the page on top, if it shows one.
    public var form: Form? {
        if case .form(let form)? = page?.content { return form }
        return nil
    }

    /// The custom content of the page on top, if it shows some.
    public var custom: CustomContent? {
        if case .custom(let custom)? = page?.content { return custom }
        return nil
    }

    public func showStatus(_ text: String?) {
        status = text
        screenChanges += 1
    }

    public func show(notice: Notice?) {
        self.notice = notice
        screenChanges += 1
    }

    /// The whole screen as text: the header (back, title, search, activity), the message, the
    /// content (a field the message is about ends in " !"), the notice (`[Deleted “Groceries” · (Undo)]`), the status line.
    public func render() -> String {
        guard let page else { return "(no page)" }
        var header = (shell.navigator.stack.count > 1 ? "< " : "") + page.title
        if let table, table.container.isSearchable, !table.searchText.isEmpty { header += "  [search: \(table.searchText)]" }
        if isActivityVisible { header += "  [busy]" }
        let buttons = page.shownActions
        if !buttons.isEmpty { header += "  " + buttons.map { "(\($0.label))" }.joined(separator: " ") }
        var lines = [header, String(repeating: "=", count: max(8, header.count))]
        if let message = page.message { lines.append("! \(message)") }
        switch page.content {
        case .table:
            lines += table?.screenLines() ?? []
            if let placeholder = table?.container.placeholder { lines.append("  \(placeholder)") }
        case .form(let form):
            for field in form.fields {
                switch field.style {
                case .readOnly: lines.append("\(field.label): \(field.value)")
                case .singleLine, .multiline, .number:
                    let invalid = page.message != nil && page.messageField == field.id
                    lines.append("\(field.label): [\(field.value)]" + (invalid ? " !" : ""))
                case .choice: lines.append("\(field.label): [\(field.value) ▾]")
                case .toggle: lines.append("[\(field.value == "true" ? "x" : " ")] \(field.label)")
                case .heading: lines.append("## \(field.label)")
                }
                if !field.help.isEmpty { lines.append("   \(field.help)") }
            }
            if !form.actions.isEmpty { lines.append(form.actions.map { "(\($0.label))" }.joined(separator: " ")) }
        case .text(let text):
            lines.append(text)
        case .custom(let custom):
            lines += custom.textLines
        }
        if let notice { lines.append("[\(notice.text)\(notice.buttonLabel.map { " · (\($0))" } ?? "")]") }
        if let status { lines.append("-- \(status)") }
        return lines.joined(separator: "\n")
    }

    // MARK: - Acting as the user

    /// Activates row `index` of the table on screen.
    public func click(row index: Int) throws(HeadlessError) {
        let table = try requireTable()
        do { try table.click(row: index) } catch { throw .table(error) }
    }

    /// Activates the first row whose text is `text`, else whose first column is (a row by its title).
    public func click(text: String) throws(HeadlessError) {
        let table = try requireTable()
        do { try table.click(text: text) } catch { throw .table(error) }
    }

    /// Clicks the checkbox of row `index`.
    public func toggle(row index: Int) throws(HeadlessError) {
        let table = try requireTable()
        do { try table.toggle(row: index) } catch { throw .table(error) }
    }

    /// Clicks the header of column `key` of the table on screen: sorts by it, ascending, or
    /// descending when it is sorted ascending by that column already.
    public func clickHeader(key: String) throws(HeadlessError) {
        let table = try requireTable()
        do { try table.clickHeader(key: key) } catch { throw .sort(error) }
    }

    /// Types into the search field of the table on screen (replacing what was there).
    public func type(_ text: String) throws(HeadlessError) {
        let table = try requireTable()
        guard table.container.isSearchable else { throw .notSearchable(page: page?.title ?? "") }
        table.clearSearch()
        table.type(text)
    }

    /// Types `text` into form field `id`.
    public func fill(_ id: String, with text: String) throws(HeadlessError) {
        guard let form else { throw .noForm(page: page?.title ?? "") }
        guard form.userEdited(id, value: text) else { throw .noSuchField(id) }
    }

    /// Presses form button `id`.
    public func press(_ id: String) throws(HeadlessError) {
        guard let form else { throw .noForm(page: page?.title ?? "") }
        guard form.press(id) else { throw .noSuchAction(id) }
    }

    /// Presses the page's header-bar button `id`.
    public func pressPageAction(_ id: String) throws(HeadlessError) {
        guard let page, page.press(pageAction: id) else { throw .noSuchAction(id) }
    }

    /// Presses the Undo button of the notice on screen.
    public func pressNoticeUndo() throws(HeadlessError) {
        guard notice?.undoLabel != nil, shell.notices.undo() else { throw .noNoticeUndo }
    }

    /// Presses the button of the notice on screen, whatever it does (Undo, or "Plugins").
    public func pressNoticeButton() throws(HeadlessError) {
        guard notice?.buttonLabel != nil, shell.notices.pressButton() else { throw .noNoticeButton }
    }

    /// Presses Back; `false` at the root.
    @discardableResult
    public func back() -> Bool { shell.back() }

    private func requireTable() throws(HeadlessError) -> HeadlessTableView {
        guard let table else { throw .noTable(page: page?.title ?? "") }
        return table
    }
}

/// What a headless interaction could not do, naming the page or element.
public enum HeadlessError: Error, CustomStringConvertible, Equatable {
    case noTable(page: String)
    case noForm(page: String)
    case notSearchable(page: String)
    case noSuchField(String)
    case noSuchAction(String)
    /// No notice with an Undo button is shown.
    case noNoticeUndo
    /// No notice with a button is shown.
    case noNoticeButton
    case table(HeadlessTableError)
    /// The table on screen could not be sorted by the column clicked.
    case sort(TableSortError)
    /// ``HeadlessFrontend/settle(maximumRounds:timeout:)`` gave up: what was still busy.
    case neverSettled(String)

    public var description: String {
        switch self {
        case .noTable(let page): return "the page \"\(page)\" shows no table"
        case .noForm(let page): return "the page \"\(page)\" shows no form"
        case .notSearchable(let page): return "the table of \"\(page)\" cannot be searched"
        case .noSuchField(let id): return "no editable field \"\(id)\" on this page"
        case .noSuchAction(let id): return "no button \"\(id)\" on this page"
        case .noNoticeUndo: return "no notice with an Undo button is shown"
        case .noNoticeButton: return "no notice with a button is shown"
        case .table(let error): return error.description
        case .sort(let error): return error.description
        case .neverSettled(let busy): return "the shell never settled: \(busy)"
        }
    }
}
