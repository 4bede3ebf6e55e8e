/// An item of the primary menu added from outside the app's own code — a plugin's command, or
/// a page it contributes — with what choosing it does.
public struct ContributedMenuItem: Sendable, Hashable {
    /// The window action's name: unique, made of letters, digits, `.` and `-` (GAction's rule).
    public let actionName: String
    /// What the menu shows, translated.
    public let title: String
    /// The keyboard shortcut asked for, in GTK's syntax (`<Control><Shift>h`), or nil. A front
    /// end binds it unless another action has it, and then says so in its log.
    public let accelerator: String?
    /// Who contributes it, for messages: `plugin "weather"`.
    public let contributor: String

    public init(actionName: String, title: String, accelerator: String? = nil, contributor: String) {
        self.actionName = actionName
        self.title = title
        self.accelerator = accelerator
        self.contributor = contributor
    }
}

/// What contributes primary-menu items: a plugin host, say. A front end asks for the items once
/// the contributor is registered (``Shell/contributeMenuItems(_:)``), greys out an item while
/// ``isAvailable(_:)`` is false, and asks again after every event matching
/// ``availabilityChangedPattern``.
@MainActor
public protocol MenuItemContributor: AnyObject {
    /// The items, in the order the menu shows them.
    var menuItems: [ContributedMenuItem] { get }
    /// Whether `item` can be chosen now.
    func isAvailable(_ item: ContributedMenuItem) -> Bool
    /// Runs `item` (the user chose it).
    func perform(_ item: ContributedMenuItem)
    /// The bus pattern of the events after which availability may have changed.
    var availabilityChangedPattern: String { get }
}

extension Shell {
    /// Adds `contributor`'s items to the primary menu of the front end (now, if it is shown
    /// already, through ``Frontend/menuContributorAdded(_:)``).
    ///
    /// ```swift
    /// shell.contributeMenuItems(PluginMenu(host: plugins, pages: pages))
    /// ```
    public func contributeMenuItems(_ contributor: any MenuItemContributor) {
        menuContributors.append(contributor)
        frontend?.menuContributorAdded(contributor)
    }
}
