/// A mapped control object: its name (for logs and errors) and how to make it.
struct MappedObject<Make: Sendable>: Sendable {
    let name: String
    let make: Make
}

typealias BackgroundObject = MappedObject<@Sendable () -> any ControlObject>
typealias MainActorObject = MappedObject<@MainActor @Sendable () -> any ViewControlObject>

/// The control objects mapped to one command, per kind, in mapping order.
struct CommandStack: Sendable {
    var security: [BackgroundObject] = []
    var validation: [BackgroundObject] = []
    var business: [BackgroundObject] = []
    var view: [MainActorObject] = []
    var error: [MainActorObject] = []

    /// Adds a background object as `kind`; false if `kind` runs on the main actor.
    mutating func append(_ object: BackgroundObject, as kind: ControlKind) -> Bool {
        switch kind {
        case .security: security.append(object)
        case .validation: validation.append(object)
        case .business: business.append(object)
        case .view, .error: return false
        }
        return true
    }

    /// Adds a main-actor object as `kind`; false if `kind` runs off the main thread.
    mutating func append(_ object: MainActorObject, as kind: ControlKind) -> Bool {
        switch kind {
        case .view: view.append(object)
        case .error: error.append(object)
        case .security, .validation, .business: return false
        }
        return true
    }

    /// The background objects of `kind` (empty for main-actor kinds).
    func background(_ kind: ControlKind) -> [BackgroundObject] {
        switch kind {
        case .security: return security
        case .validation: return validation
        case .business: return business
        case .view, .error: return []
        }
    }

    /// Whether no object runs for a request of this command (error objects do not count).
    var hasNoStages: Bool {
        security.isEmpty && validation.isEmpty && business.isEmpty && view.isEmpty
    }
}

/// The objects one request runs through, fixed when it starts: the `default` command's
/// objects first, then the command's own, for each stage.
struct RequestPlan: Sendable {
    let stack: CommandStack

    init(defaults: CommandStack, command: CommandStack) {
        guard !defaults.hasNoStages else {
            stack = command
            return
        }
        var merged = CommandStack()
        merged.security = defaults.security + command.security
        merged.validation = defaults.validation + command.validation
        merged.business = defaults.business + command.business
        merged.view = defaults.view + command.view
        stack = merged
    }
}

/// Every command's stack. A command is known once something is mapped to it, of any kind,
/// or it is declared.
struct CommandMap {
    private var stacks: [String: CommandStack] = [:]

    var commands: [String] { stacks.keys.sorted() }

    mutating func declare(_ command: String) {
        if stacks[command] == nil { stacks[command] = CommandStack() }
    }

    /// Appends a background object; false (and nothing changes) if `kind` is a main-actor kind.
    mutating func append(_ object: BackgroundObject, as kind: ControlKind, to command: String) -> Bool {
        var stack = stacks[command] ?? CommandStack()
        guard stack.append(object, as: kind) else { return false }
        stacks[command] = stack
        return true
    }

    /// Appends a main-actor object; false (and nothing changes) if `kind` is a background kind.
    mutating func append(_ object: MainActorObject, as kind: ControlKind, to command: String) -> Bool {
        var stack = stacks[command] ?? CommandStack()
        guard stack.append(object, as: kind) else { return false }
        stacks[command] = stack
        return true
    }

    /// The plan for a request of `command`; `nil` if the command is unknown. The second value
    /// tells whether the command itself has nothing mapped to its stages.
    func plan(for command: String) -> (plan: RequestPlan, commandIsEmpty: Bool)? {
        guard let stack = stacks[command] else { return nil }
        let isDefault = command == FrontController.defaultCommand
        let defaults = isDefault ? CommandStack() : stacks[FrontController.defaultCommand] ?? CommandStack()
        return (RequestPlan(defaults: defaults, command: stack), stack.hasNoStages)
    }

    /// The error objects for a failure dispatched to `errorCommand`: its own, then the
    /// `default` command's as the fallback.
    func errorChain(for errorCommand: String) -> (own: [MainActorObject], fallback: [MainActorObject]) {
        let own = stacks[errorCommand]?.error ?? []
        let isDefault = errorCommand == FrontController.defaultCommand
        let fallback = isDefault ? [] : stacks[FrontController.defaultCommand]?.error ?? []
        return (own, fallback)
    }
}
