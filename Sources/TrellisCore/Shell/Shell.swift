import Logging

/// The composition root of a Trellis application: one event bus, one route table with its
/// navigator, one service registry, one front controller (``controller``) — injected, never global, so every
/// test builds its own.
///
/// ```swift
/// let shell = Shell()
/// try shell.route("/", to: HomePage.self, isPublic: true)
/// shell.frontend = HeadlessFrontend(shell: shell)      // or the GTK window
/// try shell.navigate(to: "/")
/// ```
@MainActor
public final class Shell {
    public let bus: EventBus
    public let routes: RouteTable<RouteTarget>
    public let services: ServiceRegistry
    /// The front controller: commands mapped to control stacks (QuickConnect).
    public let controller: FrontController
    public let logger: Logger
    public private(set) lazy var navigator = Navigator(shell: self)
    /// The window's notices ("Deleted “Groceries” · Undo"): see ``notify(_:undoLabel:duration:undo:)``.
    public private(set) lazy var notices = NoticeBoard(shell: self)
    /// The front end showing the navigation stack; `nil` when there is none (pages then `start`).
    /// The shell owns its front end; a front end refers back to its shell without owning it.
    public var frontend: (any Frontend)? {
        // What start-up put in the status line (a plugin's first position, say) before there
        // was a front end to show it.
        didSet { if let statusText { frontend?.showStatus(statusText) } }
    }
    /// The status line's text as last shown (``showStatus(_:)``): a front end attached later
    /// shows it too.
    public private(set) var statusText: String?
    /// Options given at route registration, by route id.
    var routeOptions: [RouteID: JSONValue] = [:]
    /// Values provided to pages, by type.
    var environment: [ObjectIdentifier: AnyObject] = [:]
    /// The app's top-level sections, in order: the window's sidebar and the primary menu
    /// (Alt+1, Alt+2, …) list them; see ``ShellSection``. Front ends are told when they change.
    ///
    /// ```swift
    /// shell.sections = [ShellSection(title: tr("Notes"), path: "/notes")]
    /// ```
    public var sections: [ShellSection] = [] {
        didSet { frontend?.sectionsDidChange() }
    }
    /// Who adds buttons to pages (``contributePageActions(_:)``).
    var pageActionProviders: [@MainActor (PageController) -> [ContributedPageAction]] = []
    /// Who adds items to the primary menu (``contributeMenuItems(_:)``).
    public internal(set) var menuContributors: [any MenuItemContributor] = []
    /// Who does work the shell waits for when it settles (``addPendingWork(_:)``).
    var pendingWorkSources: [any PendingWorkSource] = []

    public init(logger: Logger = Logger(trellis: "trellis.shell"), bus: EventBus? = nil) {
        self.logger = logger
        self.bus = bus ?? EventBus()
        self.routes = RouteTable()
        self.services = ServiceRegistry(bus: self.bus)
        self.controller = FrontController(bus: self.bus)
        // Navigation over the bus (`route:open`), for views that hold no reference to the shell.
        self.bus.watchOnMainActor(RouteOpen.name, owner: self) { shell, event in shell.openRequested(event) }
    }

    /// Registers a page type for a route pattern (iStructure's `$routec`).
    /// `isPublic` routes may be opened from outside (deep links); `owner` groups routes for
    /// ``unroute(owner:)``.
    @discardableResult
    public func route(_ pattern: String, to page: PageController.Type, action: String? = nil, isPublic: Bool = false,
                      owner: String = "app", options: JSONValue = .null) throws(RouteError) -> RouteID {
        let id = try routes.add(pattern, owner: owner, isPublic: isPublic, target: .controller(page, action: action))
        if !options.isNull { routeOptions[id] = options }
        return id
    }

    /// Registers a block for a route pattern (iStructure's `$route(pattern, block)`).
    @discardableResult
    public func route(_ pattern: String, isPublic: Bool = false, owner: String = "app", options: JSONValue = .null,
                      _ block: @escaping @MainActor @Sendable (RouteValues) -> Void) throws(RouteError) -> RouteID {
        let id = try routes.add(pattern, owner: owner, isPublic: isPublic, target: .block(block))
        if !options.isNull { routeOptions[id] = options }
        return id
    }

    /// Removes every route registered by `owner` (iStructure's `$unroute`).
    public func unroute(owner: String) {
        routes.remove(owner: owner)
    }

    /// Navigates the window (see ``Navigator/navigate(to:data:external:)``).
    public func navigate(to path: String, data: JSONValue = .null, external: Bool = false) throws(NavigationError) {
        try navigator.navigate(to: path, data: data, external: external)
    }

    /// Goes back one page; `false` at the root.
    @discardableResult
    public func back() -> Bool { navigator.back() }

    /// Shows `text` in the front end's status line (nil: empty), now or once one is attached.
    public func showStatus(_ text: String?) {
        statusText = text
        frontend?.showStatus(text)
    }
}

// MARK: - Environment

extension Shell {
    /// Makes `value` available to every page through ``resolve(_:)`` (one value per type).
    ///
    /// ```swift
    /// shell.provide(NotesRepository(store))
    /// // in a page:
    /// let notes = shell.resolve(NotesRepository.self)
    /// ```
    public func provide<T: AnyObject>(_ value: T) {
        environment[ObjectIdentifier(T.self)] = value
    }

    /// The value provided for type `T`, if any.
    public func resolve<T: AnyObject>(_ type: T.Type) -> T? {
        environment[ObjectIdentifier(T.self)] as? T
    }
}
