import Foundation
import Logging
import TrellisCore
import TrellisPlugins

/// Where the examples of TrellisCore's doc comments are compiled: `.ci/doc-examples` makes each
/// ```swift block (one not beginning with `import`) the body of an `async throws` method of this
/// class, in `Generated/Symbols_TrellisCore_*.swift`, so that an example reads as code in a notes
/// app's page: `self` owns watches, and `shell`, `bus`, `values`, `title` and `content` are as a
/// page's (a ``PageController`` subclass's). They are compiled, never run (what TrellisCore does
/// is tested by TrellisCoreTests).
///
/// The names below are plain stand-ins, each for a name an example uses that is neither
/// Trellis's nor the example's own. An example uses them as locals: its method begins with
/// `let shell = self.shell` for each it names (`.ci/doc-examples`), so its closures capture them
/// as they would in an app's function.
@MainActor final class CoreExample {
    /// The app's shell.
    let shell = Shell()
    /// The shell's bus.
    var bus: EventBus { shell.bus }
    /// The shell's front controller.
    var controller: FrontController { shell.controller }
    /// The values, title and content of a page (these examples are a page's code): those of
    /// `navigate(to: "/notes/7?mode=edit", data: ["from": "list"])` by the route `/notes/:id`.
    let values = RouteValues(path: "/notes/7", pattern: "/notes/:id", parameters: ["id": "7", "mode": "edit"],
                             query: ["mode": "edit"], data: ["from": "list"])
    var title = ""
    var content: PageContent = .text("")
    /// A page on the shell's stack.
    lazy var page = PageController(values: values, shell: shell)
    /// The app's log.
    let logger = Logger(label: "org.example.Notes")
    /// A note: the sender of `note:…` events.
    let note = Note()
    /// The id of a note.
    let id = UUID()
    /// The app's window, as its code sees it.
    let window = NotesWindow()
    /// The app's storage of notes.
    let store = NoteStore()
    /// Watches kept for as long as the page (`bus.watch(…) { … }.store(in: &watches)`).
    var watches: [WatchToken] = []
    /// What counts events.
    let counter = Counter()
    /// What logs the requests and navigations it sees.
    let log = NavigationLog()
    /// The app's services.
    var registry: ServiceRegistry { shell.services }
    /// The app's plugin host and its plugins' pages.
    lazy var plugins = shell.pluginHost(searchPaths: [], handleRequest: { _, _ in })
    lazy var pages = PluginPageRoutes(shell: shell, host: plugins)
    /// A plugin's name.
    let pluginName = "Weather"
    /// A request, as a control object is handed it.
    let request = ControlRequest(command: SaveNote.name, parameters: ["title": 5])
    /// A push notification the app was given.
    let notification = PushNotification()
    /// A URL being fetched.
    let url = URL(string: "https://notes.example/api/notes")!
    /// A catalog's lines, and people.
    let genres = ["Фэнтези", "Киберпанк", "Мистика"]
    let lines = ["Фэнтези", "Киберпанк", "Мистика"]
    let persons = [Person(id: 1, firstName: "Ada", lastName: "Lovelace", age: 36)]
    /// A table's columns of people.
    let columns = [TableColumn(key: "firstName", title: "First name", value: \Person.firstName),
                   TableColumn(key: "age", title: "Age", value: \Person.age)]
    /// A list's rows and its table (`catalog` is a searchable one).
    let rows = ArraySource(["Row"])
    lazy var container = TableContainer(source: rows)
    lazy var catalog = TableContainer(source: ArraySource(genres), searchable: true)
    /// A list of events shown in a table.
    let eventLog = ArraySource(["network:on"])
    /// The id of the row that had the focus before a page was opened on top.
    let savedID = 3
    /// A front end's list model, which the table's changes update.
    let model = ListModel()

    /// Reads the note again (a stand-in for the page's own work).
    func reload() {}
    /// Counts one more (a stand-in for a service's own work; any thread).
    nonisolated func increment() {}
    /// Shares what `values` shows (a stand-in for the app's own work).
    func share(_ values: RouteValues) {}
    /// Puts a deleted note back (a stand-in for the app's own work).
    func restore(_ note: Note) {}
    /// Fetches what `url` holds (a stand-in for the app's own network work).
    func fetch(_ url: URL) async throws -> Data { Data() }
    /// Shows an item (a stand-in for the app's own work).
    func show(_ item: TableItem) {}

    final class Note: Sendable {}

    final class Counter: Sendable {
        func increment() {}
    }

    @MainActor final class NavigationLog {
        func append(_ path: String) {}
    }

    @MainActor final class NotesWindow {
        final class Spinner { var isVisible = false }
        let spinner = Spinner()
        /// Shows a new note in the list.
        func append(_ note: JSONValue?) {}
    }

    final class NoteStore: Sendable {
        /// Adds a note; returns it as JSON.
        func add(title: JSONValue?) async throws -> JSONValue { ["title": title ?? .null] }
        func saveFavourites(_ ids: [TableItemID]) {}
    }

    /// The list model of a front end, updated from a table's flat changes.
    @MainActor final class ListModel {
        func itemsChanged(_ position: Int, _ removed: Int, _ added: Int) {}
        func apply(_ changes: [FlatChange]) {}
    }

    struct Person: KeyValueCoding, Sendable {
        var id: Int
        var firstName: String
        var lastName: String
        var age: Int
        func value(forKey key: String) -> JSONValue? {
            switch key {
            case "firstName": .string(firstName)
            case "lastName": .string(lastName)
            case "age": .number(Double(age))
            default: nil
            }
        }
    }

    /// The app's home page.
    final class HomePage: PageController {}

    /// What the app provides to its pages (``Shell/provide(_:)``).
    final class NotesRepository {
        init(_ store: NoteStore) {}
    }

    /// The commands and control objects of ``Command`` and ``ControlObject``'s examples, which
    /// other examples use.
    struct RenameNote: Command {
        static let name = "note.rename"
        var id: UUID
        var title: String
    }

    struct SaveNote: Command {
        static let name = "note.save"
        var title: String
    }

    struct NoteTitleValidation: ControlObject {
        func handle(_ request: inout ControlRequest) async throws -> ControlResult { .continue }
    }

    struct SaveNoteBusiness: ControlObject {
        let store: NoteStore
        func handle(_ request: inout ControlRequest) async throws -> ControlResult { .continue }
    }

    @MainActor final class ShowNotesView: ViewControlObject {
        let window: NotesWindow
        init(window: NotesWindow) { self.window = window }
        func handle(_ request: inout ControlRequest) async throws -> ControlResult { .continue }
    }

    @MainActor final class ShowMessageView: ViewControlObject {
        let window: NotesWindow
        init(window: NotesWindow) { self.window = window }
        func handle(_ request: inout ControlRequest) async throws -> ControlResult { .continue }
    }

    /// The service of ``Service``'s example, which ``ServiceRegistry``'s uses.
    final class GreeterService: Service {
        func start(options: JSONValue, bus: EventBus) throws {}
        func stop(options: JSONValue) {}
    }

    /// The custom content model of ``CustomContentModel``'s example.
    final class Temperatures: CustomContentModel {
        var readings: [Double] = [12.5, 14, 13.5]
        var textLines: [String] { readings.map { "\($0) °C" } }
    }
}
