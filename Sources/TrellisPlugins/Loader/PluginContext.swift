import TrellisCore
import Logging
import TrellisPluginABI

/// The host's side of one loaded plugin: what its `context` pointer stands for in every host
/// function. It owns the plugin's watches on the bus (it is their `owner`), collects the
/// services the plugin registers during its entry, and knows whether the plugin is active.
///
/// A context lives for the rest of the process once its table is handed out: the plugin may
/// keep the table and call it from any thread at any time (plugins are never unloaded).
final class PluginContext: Sendable {
    /// Where the plugin stands, as far as calls from the plugin are concerned.
    enum Phase: Sendable {
        /// Its entry is running: services may be registered.
        case entry
        /// Loaded and enabled: its services may start.
        case active
        /// Failed or disabled: its services refuse to start.
        case inactive
    }

    private struct State: Sendable {
        var phase = Phase.entry
        var pending: [ServiceCallbacks] = []
        var names: [String] = []
        var refusal: PluginFailure?
        var watches: Set<UInt64> = []
    }

    let pluginID: String
    let declaredServices: [String]
    let bus: EventBus
    let logger: Logger
    /// Checks every call of the plugin against its manifest's permissions (replaced when the
    /// plugin is reloaded with a new manifest).
    var gate: PluginGate { gateState.withLock { $0 } }
    private let gateState: LockedState<PluginGate>
    private let isPublicRoute: @Sendable (String) -> Bool?
    private let navigation: @Sendable (PluginNavigationRequest) -> Void
    let handleRequest: @Sendable (String, JSONValue) -> Void
    private let state = LockedState(State())
    /// The plugin's setting values, as `get_settings` answers them (set by the host).
    let settings = LockedState<JSONValue>(.object([:]))
    /// The data of the plugin's latest `<id>:status` event for each item it named (at most
    /// ``maximumStatusItems``): status lines that start after the plugin set its items, as
    /// during its load, begin with them.
    let latestStatus = LockedState<[String: JSONValue]>([:])
    static let maximumStatusItems = 64
    /// `<id>:status`, made once: every trigger of the plugin is compared with it.
    private let statusMessage: String

    init(pluginID: String, declaredServices: [String], permissions: PluginPermissions, bus: EventBus, logger: Logger,
         isPublicRoute: @escaping @Sendable (String) -> Bool?,
         navigate: @escaping @Sendable (PluginNavigationRequest) -> Void,
         handleRequest: @escaping @Sendable (String, JSONValue) -> Void) {
        self.pluginID = pluginID
        self.statusMessage = "\(pluginID):status"
        self.declaredServices = declaredServices
        self.bus = bus
        self.logger = logger
        self.isPublicRoute = isPublicRoute
        self.gateState = LockedState(PluginGate(pluginID: pluginID, permissions: permissions, isPublicRoute: isPublicRoute,
                                                log: { [logger] in logger.warning("\($0)") }))
        self.navigation = navigate
        self.handleRequest = handleRequest
    }

    /// Checks the plugin's calls against `permissions` from now on.
    func replacePermissions(_ permissions: PluginPermissions) {
        let gate = PluginGate(pluginID: pluginID, permissions: permissions, isPublicRoute: isPublicRoute,
                              log: { [logger] in logger.warning("\($0)") })
        gateState.withLock { $0 = gate }
    }

    // MARK: Calls checked against the permissions (both isolation modes)

    /// Triggers `message` if the plugin may; `TRELLIS_ERROR_DENIED` otherwise.
    func trigger(_ message: String, _ data: JSONValue) -> Int32 {
        guard acceptsCalls else { return TRELLIS_ERROR_REFUSED }
        if message == PluginGate.navigationMessage {
            // `route:open` from a plugin is its navigate call, under the same rules.
            guard let path = data["path"]?.stringValue else { return TRELLIS_ERROR_INVALID_ARGUMENT }
            return navigate(path, data["data"] ?? .null)
        }
        guard gate.allows(.trigger, message) else { return TRELLIS_ERROR_DENIED }
        if message == statusMessage, let item = data["item"]?.stringValue {
            latestStatus.withLock { latest in
                if latest[item] != nil || latest.count < Self.maximumStatusItems { latest[item] = data }
            }
        }
        bus.trigger(message, data, from: self)
        return TRELLIS_OK
    }

    /// Asks the app to open `path` if the plugin may; `TRELLIS_ERROR_DENIED` otherwise.
    func navigate(_ path: String, _ data: JSONValue) -> Int32 {
        guard acceptsCalls else { return TRELLIS_ERROR_REFUSED }
        let verdict = gate.navigation(to: path)
        guard !verdict.isDenied else { return TRELLIS_ERROR_DENIED }
        navigation(PluginNavigationRequest(plugin: pluginID, path: path, data: data, isGranted: verdict == .granted))
        return TRELLIS_OK
    }

    /// Sends `command` to the front controller if the plugin may; `TRELLIS_ERROR_DENIED` otherwise.
    func request(_ command: String, _ parameters: JSONValue) -> Int32 {
        guard acceptsCalls else { return TRELLIS_ERROR_REFUSED }
        guard gate.allows(.request, command) else { return TRELLIS_ERROR_DENIED }
        handleRequest(command, parameters)
        return TRELLIS_OK
    }

    var phase: Phase { state.withLock { $0.phase } }

    /// Moves to `phase`. Becoming inactive removes every watch the plugin made.
    func setPhase(_ phase: Phase) {
        state.withLock { state in
            state.phase = phase
            if phase == .inactive { state.watches = [] }
        }
        if phase == .inactive { bus.unwatch(owner: self) }
    }

    /// False once the plugin failed or was disabled: its calls to the bus, the navigator and
    /// the front controller are then refused.
    var acceptsCalls: Bool { phase != .inactive }

    // MARK: Service registration (during the entry)

    /// Accepts a service definition from the plugin's entry, or records why not (the first
    /// refusal fails the whole plugin).
    func register(_ service: ServiceCallbacks) -> Int32 {
        let refusal: PluginFailure? = state.withLock { state in
            if let problem = problem(registering: service.name, state) { return problem }
            state.names.append(service.name)
            state.pending.append(service)
            return nil
        }
        guard let refusal else { return TRELLIS_OK }
        refuse(refusal)
        service.release()
        return TRELLIS_ERROR_REFUSED
    }

    /// Why a service `name` cannot be registered now, or nil (for a plugin in a process of
    /// its own, whose definitions stay there: see ``noteRegistration(of:)``).
    func checkRegistration(of name: String) -> PluginFailure? {
        state.withLock { problem(registering: name, $0) }
    }

    /// Records that a plugin in a process registered service `name` (checked before).
    func noteRegistration(of name: String) {
        state.withLock { $0.names.append(name) }
    }

    private func problem(registering name: String, _ state: State) -> PluginFailure? {
        guard state.phase == .entry else {
            return .invalidService(service: name, reason: "registered after the plugin's entry returned")
        }
        if !declaredServices.contains(name) {
            let listed = declaredServices.isEmpty ? "none" : declaredServices.joined(separator: ", ")
            return .invalidService(service: name, reason: "not listed in the manifest's \"services\" (\(listed))")
        }
        if state.names.contains(name) {
            return .invalidService(service: name, reason: "registered twice by the plugin")
        }
        return nil
    }

    /// Starts a new entry of the plugin (its process was started again): services may be
    /// registered anew, and nothing of the previous entry is remembered.
    func beginEntry() {
        state.withLock { state in
            state = State()
        }
    }

    /// Records why the plugin cannot be accepted; the first reason counts.
    func refuse(_ failure: PluginFailure) {
        state.withLock { if $0.refusal == nil { $0.refusal = failure } }
        logger.error("\(failure)")
    }

    /// The services registered during the entry and the first refusal, if any; clears the list.
    func takeRegistrations() -> (services: [ServiceCallbacks], refusal: PluginFailure?) {
        state.withLock { state in
            defer { state.pending = [] }
            return (state.pending, state.refusal)
        }
    }

    // MARK: Watches

    /// Records a watch made by the plugin, so that only its own watches can be removed by id.
    func remember(_ watch: WatchID) {
        state.withLock { _ = $0.watches.insert(watch.rawValue) }
    }

    /// Forgets a watch of the plugin; false when it never made one with this id.
    func forget(_ id: UInt64) -> Bool {
        state.withLock { $0.watches.remove(id) != nil }
    }
}
