import CGtk
import Foundation
import TrellisCore
import TrellisDemo
import TrellisGtk

/// Wires the demo's pages into the GTK front end.
@MainActor
final class DemoWindowApp {
    let rows: Int?
    let exitAfterFirstFrame: Bool
    let automation: Bool
    let app: Application
    var window: ShellWindow?
    var list: VirtualListView?

    init(rows: Int?, exitAfterFirstFrame: Bool, automation: Bool) {
        self.rows = rows
        self.exitAfterFirstFrame = exitAfterFirstFrame
        self.automation = automation
        app = Application(id: "io.github.trellis.Demo", unique: !(exitAfterFirstFrame || automation))
        app.onActivate = { [weak self] _ in self?.activate() }
    }

    func run() -> Int32 { app.run() }

    private func activate() {
        if let window { window.present(); return }
        let window = ShellWindow(application: app.pointer, title: "Trellis")
        self.window = window
        let source: any ListRowSource
        if let rows {
            source = StaticRows(synthetic: rows)
        } else {
            do {
                source = StaticRows(try Resources.loadCatalog(from: Resources.dataDirectory()))
            } catch {
                FileHandle.standardError.write(Data("trellis: \(error)\n".utf8))
                source = StaticRows([])
                window.showMessage(String(describing: error))
            }
        }
        let list = VirtualListView(source: source)
        self.list = list
        window.push(list.widget, title: "Catalog")
        if exitAfterFirstFrame { window.afterFirstFrame { [app] in app.quit() } }
        if automation {
            let channel = AutomationChannel(handler: { [weak self] command, argument, reply in
                self?.automate(command, argument, reply)
            }, onEndOfInput: { [app] in app.quit() })
            channel.start()
        }
        window.present()
    }

    private func automate(_ command: String, _ argument: String, _ reply: @escaping (JSONValue) -> Void) {
        guard let window, let list else { return reply(["ok": false, "error": "no window"]) }
        switch command {
        case "dump":
            window.afterNextFrame {
                let rows = list.visibleRows().map { row -> JSONValue in ["position": .number(Double(row.position)), "text": .string(row.text)] }
                reply(["ok": true, "rows": .array(rows), "count": .number(Double(list.model.count))])
            }
        case "screenshot":
            window.afterNextFrame {
                do { try Screenshot.save(window.window, to: argument); reply(["ok": true]) }
                catch { reply(["ok": false, "error": .string(String(describing: error))]) }
            }
        case "quit":
            reply(["ok": true]); app.quit()
        default:
            reply(["ok": false, "error": .string("unknown command \(command)")])
        }
    }
}
