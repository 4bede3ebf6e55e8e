import CGtk
import CTrellisGtk
import Foundation
import TrellisCore

/// The commands `trellis --automation` understands, each acting through the real widgets
/// (signals, actions) as a person would, and answered with one JSON object:
///
/// | command | effect |
/// | --- | --- |
/// | `dump` | after the next frame: title, depth, path, rows on screen, spinner, status, message, notice, question asked (`dialog`), search, fields, buttons, content width, plugins still waiting to load |
/// | `activate N` | activates row N of the list (`GtkListView::activate`, as a click) |
/// | `toggle N` | clicks the checkbox of row N |
/// | `select N`, `select none` | selects row N of the page's table as the app would (`TableContainer.select(flatIndex:)`), or deselects every row |
/// | `back` | clicks the header bar's back button |
/// | `action NAME` | activates a GAction (`win.search`, `win.back`, `app.quit`, …) |
/// | `accels NAME` | the keyboard accelerators bound to a GAction |
/// | `search TEXT` | opens the search bar and types TEXT; answers once the list is filtered |
/// | `field ID TEXT` | types TEXT into form field ID |
/// | `press ID` | clicks form button ID |
/// | `enter ID` | activates form field ID, as Enter in it does |
/// | `page-action ID` | clicks the page's header-bar button ID (a question it asks first shows as `dialog` in `dump`) |
/// | `dialog-accept`, `dialog-cancel` | answers the question asked, as its confirming or Cancel button does |
/// | `notice-undo`, `notice-close` | clicks the notice's Undo or close button |
/// | `navigate PATH` | navigates as a deep link would |
/// | `trigger MESSAGE [JSON]` | triggers a bus event |
/// | `sort KEY [desc]` | sorts a table shown as columns by column KEY, as a header click does |
/// | `screenshot PATH` | after the next frame, saves the window as PNG (the question asked instead, while one is) |
/// | `stats` | resident memory, live watches, live row items, stack depth |
/// | `cycle N [PATTERN]` | N navigate/back cycles (`PATTERN` with `%d`, default `<top path>/%d`); stats before and after |
/// | `quit` | quits |
///
/// and the desktop-integration commands of `GtkFrontend+DesktopAutomation.swift`; for a
/// table shown as columns `dump` adds `columns`, `sort` and `cells`
/// (`GtkFrontend+ColumnAutomation.swift`), for custom content `custom`
/// (`GtkFrontend+CustomAutomation.swift`).
///
/// Test hooks, not API: reached with `@_spi(Testing) import TrellisGtk`.
extension GtkFrontend {
    /// Turns off GTK's animations (page slides, search bar reveal), so that what a test reads or
    /// photographs after a frame is the settled state, as GTK's own tests do.
    @_spi(Testing)
    public static func disableAnimations() {
        guard let settings = gtk_settings_get_default() else { return }
        GtkSettingsProperty.setBool(gobj(settings), "gtk-enable-animations", false)
    }

    /// Runs one automation command (see the table above) and calls `reply` once with its answer.
    @_spi(Testing)
    public func automate(_ command: String, _ argument: String, _ reply: @escaping (JSONValue) -> Void) {
        func fail(_ message: String) { reply(["ok": false, "error": .string(message)]) }
        func done() { reply(["ok": true]) }
        switch command {
        case "dump":
            window.afterNextFrame { [weak self] in reply(self?.snapshot() ?? ["ok": false]) }
        case "activate", "toggle":
            guard let position = Int(argument) else { return fail("\(command) needs a row number, not '\(argument)'") }
            guard let list = currentView?.list else { return fail("the page on top has no list") }
            if command == "activate" {
                list.activate(position: position)
            } else if !list.clickCheckbox(position: position) {
                return fail("row \(position) has no checkbox on screen")
            }
            done()
        case "select":
            guard let container = currentView?.container else { return fail("the page on top has no table") }
            if argument == "none" { container.clearSelection(); return done() }
            guard let position = Int(argument) else { return fail("select needs a row number or none, not '\(argument)'") }
            do { try container.select(flatIndex: position) } catch { return fail(String(describing: error)) }
            done()
        case "back":
            guard window.backButton.isVisible else { return fail("the back button is hidden (root page)") }
            trellis_button_emit_clicked(window.backButton.object.as())
            done()
        case "action":
            Actions.activate(argument, on: window.window.object) ? done() : fail("no action named \(argument)")
        case "accels":
            reply(["ok": true, "accels": .array(Actions.accelerators(for: argument, application: application.pointer).map { .string($0) })])
        case "search":
            guard window.isSearchable, let container = currentView?.container else { return fail("the page on top cannot be searched") }
            window.setSearchActive(true)
            let typed = window.searchText != argument
            window.setSearchText(argument)
            // Answered at the first frame painted after the search applied: what a person typing
            // sees (the search applies within a keystroke's main-loop turn once the rows are folded).
            guard typed, container.searchText != argument else { return window.afterNextFrame(done) }
            func answerWhenApplied() {
                afterNextSearch.append { [weak self] in
                    guard let self else { return }
                    if container.searchText == argument { return self.window.afterNextFrame(done) }
                    answerWhenApplied()
                }
            }
            answerWhenApplied()
        case "page-action":
            guard let button = window.pageActionButtons[argument] else { return fail("no page action \(argument)") }
            trellis_button_emit_clicked(button.object.as())
            done()
        case "dialog-accept", "dialog-cancel":
            guard let dialog = window.confirmationDialog else { return fail("no question is asked") }
            dialog.respond(confirmed: command == "dialog-accept")
            done()
        case "notice-undo", "notice-close":
            guard let bar = window.noticeBar, bar.text != nil else { return fail("no notice is shown") }
            if command == "notice-undo" && bar.undoLabel == nil { return fail("the notice has no Undo button") }
            trellis_button_emit_clicked((command == "notice-undo" ? bar.undoButton : bar.closeButton).object.as())
            done()
        case "field", "press":
            guard let view = currentView, view.form != nil else { return fail("the page on top has no form") }
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard let id = parts.first else { return fail("\(command) needs an id") }
            if command == "press" {
                guard let button = view.actionButtons[id] else { return fail("no button \(id)") }
                trellis_button_emit_clicked(button.object.as())
            } else {
                guard let widget = view.fieldWidgets[id] else { return fail("no field \(id)") }
                let text = parts.count > 1 ? parts[1].replacingOccurrences(of: "\\n", with: "\n") : ""
                switch widget {
                case is TextView:
                    gtk_text_buffer_set_text(gtk_text_view_get_buffer(widget.object.as()), text, -1)
                case is SpinButton:
                    gtk_spin_button_set_value(widget.object.as(), Double(text) ?? 0)
                case is CheckButton:
                    gtk_check_button_set_active(widget.object.as(), text == "true" ? 1 : 0)
                case is DropDown:
                    guard let model = gtk_drop_down_get_model(widget.object.opaque) else { return fail("field \(id) has no choices") }
                    let choices = (0..<g_list_model_get_n_items(model)).map { gtk_string_list_get_string(model, $0).map { String(cString: $0) } ?? "" }
                    guard let index = choices.firstIndex(of: text) else { return fail("field \(id) has no choice \(text)") }
                    gtk_drop_down_set_selected(widget.object.opaque, guint(index))
                case is Entry:
                    gtk_editable_set_text(widget.object.as(), text)
                default:
                    return fail("field \(id) cannot be edited")
                }
            }
            done()
        case "enter":
            // Enter in a single-line field, as a key press would activate it.
            guard let widget = currentView?.fieldWidgets[argument] else { return fail("no field \(argument)") }
            guard widget is Entry else { return fail("field \(argument) is not a single-line field") }
            trellis_entry_emit_activate(widget.object.as())
            done()
        case "navigate":
            do { try shell.navigate(to: argument, external: true); done() } catch { fail(String(describing: error)) }
        case "trigger":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard let message = parts.first else { return fail("trigger needs a message name") }
            do {
                let data = parts.count > 1 ? try JSONValue(jsonString: parts[1], source: "trigger data") : .null
                shell.bus.trigger(message, data)
                done()
            } catch { fail(String(describing: error)) }
        case "sort":
            automateSort(argument, reply)
        case "screenshot":
            saveScreenshot(to: argument, attemptsLeft: 3, done: done, fail: fail)
        case "stats":
            reply(stats())
        case "frame-gaps":
            // "start" measures from now; anything else answers the longest gap so far (ms).
            if argument == "start" {
                window.measureFrameGaps()
                return done()
            }
            guard let gaps = window.frameGapsSoFar else { return fail("frame-gaps start first") }
            reply(["ok": true, "longestMs": .number(Double(gaps.longest) / 1000), "frames": .number(Double(gaps.frames))])
        case "cycle":
            // N navigate/back cycles through the detail routes of the page on top, then the
            // stats before and after (leak tests: memory and watchers must stay flat).
            guard let count = Int(argument.split(separator: " ").first ?? ""),
                  let base = shell.navigator.top?.values.path else { return fail("cycle needs a count") }
            let pattern = argument.split(separator: " ").dropFirst().first.map(String.init) ?? base + "/%d"
            let before = stats()
            do {
                for index in 0..<count {
                    try shell.navigate(to: pattern.replacingOccurrences(of: "%d", with: String(index % 100)))
                    guard shell.back() else { return fail("back failed after \(index) cycles") }
                }
            } catch { return fail(String(describing: error)) }
            window.afterNextFrame { [weak self] in
                guard let self else { return }
                reply(["ok": true, "before": before, "after": self.stats()])
            }
        case "quit":
            done()
            application.quit()
        default:
            automateDesktop(command, argument, reply)
        }
    }

    /// What the window shows now.
    func snapshot() -> JSONValue {
        var result: JSONValue = [
            "ok": true,
            "title": .string(window.title),
            "depth": .number(Double(window.depth)),
            "spinner": .bool(window.isActivityVisible),
            "search": .string(window.searchText),
            "searchActive": .bool(window.isSearchActive),
            "back": .bool(window.backButton.isVisible),
            "frame": .number(Double(frameCounter)),
            "renderer": .string(window.rendererName),
        ]
        // The widget with the keyboard focus: its GType, and the row it is when it is one.
        if let focus = gtk_root_get_focus(window.window.object.opaque) {
            result["focusType"] = .string(String(cString: g_type_name_from_instance(GObjectPointer(focus).as())))
        }
        result["path"] = shell.navigator.top.map { .string($0.values.path) } ?? .null
        result["actions"] = .array((shell.navigator.top?.shownActions ?? []).map { .string($0.id) })
        result["dialog"] = window.confirmationDialog.map { dialog in
            ["title": .string(dialog.confirmation.title), "details": .string(dialog.confirmation.details)]
        } ?? .null
        result["status"] = window.status.map { .string($0) } ?? .null
        // What the shell still waits for: plugins starting (all of them until the window's
        // deferred start is done), or handling an event in their process.
        result["pendingWork"] = .array(shell.pendingWork.map { .string($0) })
        result["message"] = window.message.map { .string($0) } ?? .null
        result["notice"] = window.noticeBar.flatMap { bar in
            bar.text.map { text in ["text": .string(text), "undo": bar.undoLabel.map { .string($0) } ?? .null] }
        } ?? .null
        if case .text(let text)? = shell.navigator.top?.content { result["text"] = .string(text) }
        if let list = currentView?.list {
            result["count"] = .number(Double(list.model.count))
            result["rowWidgetsBuilt"] = .number(Double(list.rowWidgetsBuilt))
            result["rows"] = .array(list.visibleRows().map { row in
                var item: JSONValue = ["position": .number(Double(row.position)), "text": .string(row.text)]
                if let checkbox = row.checkbox { item["checkbox"] = .bool(checkbox) }
                return item
            })
        }
        columnSnapshot(into: &result)
        customSnapshot(into: &result)
        result["placeholder"] = currentView?.placeholder.map { .string($0) } ?? .null
        result["contentWidth"] = .number(Double(currentView?.contentWidth ?? 0))
        if let form = currentView?.form {
            result["fields"] = .object(form.values.mapValues { .string($0) })
            let focus = gtk_root_get_focus(window.window.object.as())
            let focused = (currentView?.fieldWidgets ?? [:]).first { (_: String, widget: Widget) -> Bool in
                guard let focus else { return false }
                return focus == widget.widget || gtk_widget_is_ancestor(focus, widget.widget) != 0
            }
            result["focus"] = focused.map { JSONValue.string($0.key) } ?? .null
            result["buttons"] = .object((currentView?.actionButtons ?? [:]).mapValues { button in
                let styles = ["suggested-action", "destructive-action"].filter { (style: String) in gtk_widget_has_css_class(button.widget, style) != 0 }
                return .array(styles.map { .string($0) })
            })
            result["buttonLabels"] = .object((currentView?.actionButtons ?? [:]).mapValues { button in
                .string(gtk_button_get_label(button.object.as()).map { String(cString: $0) } ?? "")
            })
        }
        desktopSnapshot(into: &result)
        return result
    }

    /// How many frames the window's frame clock has painted: it goes up while the main loop
    /// runs and paints, and stands still while something blocks it.
    private var frameCounter: Int {
        guard let clock = gtk_widget_get_frame_clock(window.window.object.as()) else { return 0 }
        return Int(gdk_frame_clock_get_frame_counter(clock))
    }

    /// Saves a screenshot of the next frame; when the renderer has nothing yet (a popover
    /// or a dialog still being mapped), tries again with the following frames.
    private func saveScreenshot(to path: String, attemptsLeft: Int, done: @escaping () -> Void,
                                fail: @escaping (String) -> Void) {
        // What is in front: the question asked, while one is.
        let front = { [weak self] () -> GObjectPointer? in
            self.map { $0.window.confirmationDialog?.window ?? $0.window.window.object }
        }
        window.captureNextFrame(of: front) { [weak self] frame in
            guard let self else { return }
            do throws(Screenshot.Failure) {
                try Screenshot.save(try frame.get(), to: path)
                done()
            } catch {
                if attemptsLeft > 1 {
                    self.saveScreenshot(to: path, attemptsLeft: attemptsLeft - 1, done: done, fail: fail)
                } else {
                    fail(String(describing: error))
                }
            }
        }
    }

    /// Memory and bookkeeping counts: resident memory, live bus watches, live row items, pages.
    func stats() -> JSONValue {
        [
            "ok": true,
            // The heap first: it gives free pages back, which resident memory then leaves out.
            "heapKiB": .number(Double(trellis_heap_in_use() / 1024)),
            "rssKiB": .number(Double(Self.residentKiB())),
            "watches": .number(Double(shell.bus.watchCount)),
            "rowItems": .number(Double(trellis_row_item_live_count())),
            "depth": .number(Double(shell.navigator.stack.count)),
        ]
    }

    /// This process's resident set size, from /proc/self/statm.
    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
