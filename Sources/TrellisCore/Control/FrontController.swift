import Logging
import Synchronization

/// The front controller: QuickConnect's `handleRequest` with control stacks, injected
/// rather than a singleton.
///
/// Control objects are mapped to a command by kind; a request for that command runs
/// security → validation → business off the main thread, then view on the main actor. The
/// `default` command's objects run before every command's own. Business objects add results
/// to the parameters later objects see. Failures go to error objects.
///
/// ```swift
/// let controller = FrontController(bus: bus)
/// controller.mapValidation("addNote") { NoteTitleValidation() }
/// controller.mapBusiness("addNote") { SaveNoteBusiness(store: store) }
/// controller.mapView("addNote") { ShowNotesView(window: window) }
/// controller.mapError("invalidNote") { ShowMessageView(window: window) }
///
/// let outcome = await controller.handleRequest("addNote", parameters: ["title": "Фэнтези"])
/// ```
///
/// A command may also be a value, a ``Command`` whose properties are its parameters:
/// `controller.submit(AddNote(title: "Фэнтези"), from: page.id)`, read by its objects with
/// ``ControlRequest/command(as:)``.
///
/// ## Errors
/// An object that throws, or returns `.dispatchToError(command:reason:)`, ends the request.
/// The failure (in `request.failure`) goes to the error objects mapped to the error command
/// (the request's own command for a throw), in mapping order, then to the `default`
/// command's error objects, until one returns `.stop`. If there is none, the failure is
/// logged with the command's name. An error thrown by a control object never crashes the shell.
///
/// ## Lifecycle
/// Each request triggers `request:started` and then exactly one of `request:finished`,
/// `request:validation-failed`, `request:failed` or `request:cancelled` (see
/// ``RequestEvents``) on the bus.
public final class FrontController: Sendable {
    /// The command whose objects run before every command's own, and whose error objects
    /// handle failures that the error command's objects do not stop.
    public static let defaultCommand = "default"

    /// The bus lifecycle events are triggered on.
    public let bus: EventBus
    /// The named control objects that `map(_:command:named:)` and configurations draw on.
    public let objects: ControlObjectRegistry
    let logger: Logger
    let commandMap = LockedState(CommandMap())
    private let lastRequestID = Atomic<UInt64>(0)
    private let running = Atomic<Int>(0)

    /// Creates a front controller with nothing mapped.
    public init(
        bus: EventBus, objects: ControlObjectRegistry = ControlObjectRegistry(),
        logger: Logger = Logger(trellis: "trellis.control")
    ) {
        self.bus = bus
        self.objects = objects
        self.logger = logger
    }

    // MARK: Mapping

    /// Makes `command` known without mapping anything to it: its requests run the `default`
    /// objects only (and log at debug level that nothing is mapped).
    public func declare(_ command: String) {
        commandMap.withLock { $0.declare(command) }
    }

    /// Maps a security object (SCO) to `command`; the factory runs once per request.
    public func mapSecurity<Object: ControlObject>(_ command: String, _ factory: @escaping @Sendable () -> Object) {
        appendBackground(.security, command, factory)
    }

    /// Maps a validation object (ValCO) to `command`; the factory runs once per request.
    public func mapValidation<Object: ControlObject>(_ command: String, _ factory: @escaping @Sendable () -> Object) {
        appendBackground(.validation, command, factory)
    }

    /// Maps a business object (BCO) to `command`; the factory runs once per request.
    public func mapBusiness<Object: ControlObject>(_ command: String, _ factory: @escaping @Sendable () -> Object) {
        appendBackground(.business, command, factory)
    }

    /// Maps a view object (VCO) to `command`; the factory runs on the main actor once per
    /// request.
    public func mapView<Object: ViewControlObject>(
        _ command: String, _ factory: @escaping @MainActor @Sendable () -> Object
    ) {
        appendMainActor(.view, command, factory)
    }

    /// Maps an error object (ECO) to the error command `command`; the factory runs on the main
    /// actor once per failure.
    public func mapError<Object: ViewControlObject>(
        _ command: String, _ factory: @escaping @MainActor @Sendable () -> Object
    ) {
        appendMainActor(.error, command, factory)
    }

    /// Maps the control object registered under `name` in ``objects`` as `kind` of `command`.
    /// - Throws: ``ControlError/unknownObjectName(name:command:kind:)`` if no object has that
    ///   name; ``ControlError/kindMismatch(name:command:kind:)`` if it is of the other family
    ///   (a view object mapped as business, say). Nothing is mapped then.
    public func map(_ kind: ControlKind, command: String, named name: String) throws {
        guard let factory = objects.factory(named: name) else {
            throw ControlError.unknownObjectName(name: name, command: command, kind: kind)
        }
        let mapped = commandMap.withLock { map in
            switch factory {
            case .background(let make): map.append(BackgroundObject(name: name, make: make), as: kind, to: command)
            case .mainActor(let make): map.append(MainActorObject(name: name, make: make), as: kind, to: command)
            }
        }
        guard mapped else { throw ControlError.kindMismatch(name: name, command: command, kind: kind) }
        logger.debug("mapped '\(name)' as \(kind) object of '\(command)'")
    }

    /// Every known command (mapped or declared), sorted.
    public var commands: [String] {
        commandMap.withLock { $0.commands }
    }

    private func appendBackground<Object: ControlObject>(
        _ kind: ControlKind, _ command: String, _ factory: @escaping @Sendable () -> Object
    ) {
        let object = BackgroundObject(name: Self.name(of: Object.self)) { factory() }
        // Background objects always fit the background kinds these callers pass.
        _ = commandMap.withLock { $0.append(object, as: kind, to: command) }
    }

    private func appendMainActor<Object: ViewControlObject>(
        _ kind: ControlKind, _ command: String, _ factory: @escaping @MainActor @Sendable () -> Object
    ) {
        let object = MainActorObject(name: Self.name(of: Object.self)) { factory() }
        // Main-actor objects always fit the main-actor kinds these callers pass.
        _ = commandMap.withLock { $0.append(object, as: kind, to: command) }
    }

    /// A control object's name: its type's, as `String(describing:)` prints it, without the
    /// look-ups for a description conformance a metatype never has (on Linux each first one
    /// scans every conformance record loaded: ~1 M instructions a type, at start-up).
    private static func name(of type: Any.Type) -> String {
        _typeName(type, qualified: false)
    }

    // MARK: Requests

    /// Runs a request for `command` in the calling task and returns how it ended. Cancelling
    /// the calling task cancels the request (it ends `.cancelled` before its next object).
    /// An unknown command ends `.failed` with ``ControlError/unknownCommand(_:)``. `page`,
    /// when given, is the page the request is made for (``ControlRequest/page``).
    public func handleRequest(_ command: String, parameters: [String: JSONValue] = [:],
                              from page: PageID? = nil) async -> RequestOutcome {
        await handle(makeRequest(command, parameters, page))
    }

    /// Starts a request for `command` in a new task and returns its handle, to await or cancel.
    /// `page`, when given, is the page the request is made for (``ControlRequest/page``).
    public func submit(_ command: String, parameters: [String: JSONValue] = [:], from page: PageID? = nil) -> RequestHandle {
        start(makeRequest(command, parameters, page))
    }

    /// Runs `request` in the calling task, counted in ``requestsInFlight``.
    func handle(_ request: ControlRequest) async -> RequestOutcome {
        requestBegan()
        defer { requestEnded() }
        return await run(request)
    }

    /// Runs `request` in a new task and returns its handle.
    func start(_ request: ControlRequest) -> RequestHandle {
        requestBegan()
        return RequestHandle(id: request.id, task: Task {
            defer { self.requestEnded() }
            return await self.run(request)
        })
    }

    /// How many requests (and batches) were started, by ``submit(_:parameters:from:)`` or another
    /// call, and have not ended yet: counted from the call, before the request's task runs.
    /// For the headless front end's `settle()`, which waits until this is 0.
    package var requestsInFlight: Int {
        running.load(ordering: .acquiring)
    }

    func requestBegan() {
        running.add(1, ordering: .relaxed)
    }

    func requestEnded() {
        running.subtract(1, ordering: .releasing)
    }

    func makeRequest(_ command: String, _ parameters: [String: JSONValue], _ page: PageID?) -> ControlRequest {
        let id = RequestID(rawValue: lastRequestID.add(1, ordering: .relaxed).newValue)
        return ControlRequest(id: id, command: command, parameters: parameters, page: page)
    }
}
