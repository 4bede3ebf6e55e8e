import Testing
import TrellisCore
import TrellisHeadless
import TrellisTesting

/// Routes, navigation and the navigation stack (iStructure's $routec, $route, $navigate, $unroute).
@MainActor
@Suite("Navigator")
struct NavigatorTests {
    final class Recorder {
        var values: [RouteValues] = []
        var started: [RouteValues] = []
        var actions: [String] = []
    }

    final class NotePage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = "Note \(values.parameters["id"] ?? "?")"
            content = .text(values.data["body"]?.stringValue ?? "")
            shell.resolve(Recorder.self)?.values.append(values)
        }

        override func perform(action: String) { shell?.resolve(Recorder.self)?.actions.append(action) }

        override class func start(values: RouteValues, shell: Shell) {
            shell.resolve(Recorder.self)?.started.append(values)
        }
    }

    final class RootPage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = "Root"
        }
    }

    private func makeShell() throws -> (Shell, Recorder) {
        let shell = Shell()
        let recorder = Recorder()
        shell.provide(recorder)
        try shell.route("/", to: RootPage.self, isPublic: true)
        try shell.route("/notes/:id", to: NotePage.self, isPublic: true)
        try shell.route("/notes/:id/edit", to: NotePage.self, action: "edit")
        return (shell, recorder)
    }

    @Test("navigating pushes a page made with the route's parameters, query and data")
    func pushesWithValues() throws {
        let (shell, recorder) = try makeShell()
        let screen = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/")
        try shell.navigate(to: "/notes/7?mode=edit&id=ignored", data: ["body": "Привет"])
        #expect(shell.navigator.stack.count == 2)
        #expect(screen.page?.title == "Note 7")
        let values = try #require(recorder.values.first)
        #expect(values.parameters == ["id": "7", "mode": "edit"], "route parameters win over the query")
        #expect(values.query == ["mode": "edit", "id": "ignored"])
        #expect(values.pattern == "/notes/:id")
        #expect(values.path == "/notes/7")
        #expect(screen.render().contains("Привет"))
    }

    @Test("a controller route with an action performs it on the new page")
    func performsAction() throws {
        let (shell, recorder) = try makeShell()
        _ = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/notes/3/edit")
        #expect(recorder.actions == ["edit"])
    }

    @Test("without a navigation stack the page type's start entry point is called instead")
    func startsWithoutFrontend() throws {
        let (shell, recorder) = try makeShell()
        try shell.navigate(to: "/notes/9", data: ["x": 1])
        #expect(shell.navigator.stack.isEmpty)
        #expect(recorder.values.isEmpty, "no page instance is made")
        #expect(recorder.started.map(\.parameters) == [["id": "9"]])
        #expect(recorder.started.first?.data == ["x": 1])
    }

    @Test("a block route runs its block with the values")
    func blockRoute() throws {
        let shell = Shell()
        let recorder = Recorder()
        try shell.route("/hello/*rest") { values in recorder.values.append(values) }
        try shell.navigate(to: "/hello/a/b%20c")
        #expect(recorder.values.first?.parameters["rest"] == "a/b c")
    }

    @Test("an unknown path is a catchable error and a route:not-found event, never a crash")
    func unknownPath() throws {
        let (shell, _) = try makeShell()
        _ = HeadlessFrontend(shell: shell)
        let log = EventRecorder(bus: shell.bus, pattern: "route:*")
        #expect(throws: NavigationError.notFound(path: "/nowhere")) { try shell.navigate(to: "/nowhere") }
        #expect(log.all.map(\.message) == ["route:not-found"])
        #expect(log.all.first?.data["path"] == "/nowhere")
    }

    @Test("malformed paths are refused with the reason", arguments: ["/notes/../etc", "/notes/%00", "notes/1", "/a//b"])
    func malformedPaths(path: String) throws {
        let (shell, _) = try makeShell()
        #expect {
            try shell.navigate(to: path)
        } throws: { error in
            guard case NavigationError.invalidPath(let failing, _) = error else { return false }
            return failing == path
        }
    }

    @Test("a deep link may open public routes only")
    func deepLinksArePublicOnly() throws {
        let (shell, _) = try makeShell()
        _ = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/notes/1", external: true)
        #expect(throws: NavigationError.notPublic(path: "/notes/1/edit", pattern: "/notes/:id/edit")) {
            try shell.navigate(to: "/notes/1/edit", external: true)
        }
        try shell.navigate(to: "/notes/1/edit")
    }

    @Test("back pops to the page below and stops at the root")
    func back() throws {
        let (shell, _) = try makeShell()
        let screen = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/")
        try shell.navigate(to: "/notes/1")
        #expect(screen.back())
        #expect(screen.page?.title == "Root")
        #expect(!screen.back(), "the root stays")
        #expect(screen.history == ["push /", "push /notes/1", "pop /notes/1"])
    }

    @Test("a popped page is released and leaves no watcher behind")
    func poppedPageLeavesNoWatcher() throws {
        let (shell, _) = try makeShell()
        _ = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/")
        let baseline = shell.bus.watchCount
        weak var page: PageController?
        try shell.navigate(to: "/notes/1")
        page = shell.navigator.top
        shell.bus.watch("x", owner: try #require(page)) { _, _ in }
        #expect(shell.bus.watchCount == baseline + 1)
        shell.back()
        #expect(page == nil, "nothing keeps a popped page alive")
        #expect(shell.bus.watchCount == baseline)
    }

    @Test("unroute removes an owner's routes")
    func unroute() throws {
        let shell = Shell()
        try shell.route("/a", to: RootPage.self, owner: "plugin.x")
        try shell.route("/b", to: RootPage.self, owner: "app")
        shell.unroute(owner: "plugin.x")
        #expect(shell.routes.entries.map(\.pattern.text) == ["/b"])
        #expect(throws: NavigationError.notFound(path: "/a")) { try shell.navigate(to: "/a") }
    }

    @Test("the route listing shows pattern, target, owner and access in registration order")
    func listing() throws {
        let (shell, _) = try makeShell()
        let lines = RouteListing.table(shell.routes.entries).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("PATTERN"))
        #expect(lines[2].contains("/notes/:id") && lines[2].contains("NotePage") && lines[2].hasSuffix("public"))
        #expect(lines[3].contains("NotePage → edit") && !lines[3].hasSuffix("public"))
    }
}
