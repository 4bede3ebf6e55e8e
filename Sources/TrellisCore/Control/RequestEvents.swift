/// The bus messages a front controller triggers as requests run, so an event log or a test
/// can follow them. Each carries `{"id": Int, "command": String}` plus the fields listed, and
/// is triggered from the front controller (the `sender` of the event).
///
/// Every request triggers `request:started`, then exactly one of the four others.
///
/// ```swift
/// bus.watch("request:*", owner: log) { _, event in
///     print(event.message, event.data["command"]?.stringValue ?? "")
/// }
/// ```
public enum RequestEvents {
    /// The request began (before any object ran).
    public static let started = "request:started"
    /// A validation object stopped the request, or dispatched it to an error command, or a
    /// control object found the parameters malformed for its typed command
    /// (``ControlError/malformedParameters(command:parameter:reason:)``). Adds `"object"`,
    /// and for a dispatch or malformed parameters the fields of `request:failed`
    /// (`"errorCommand"`, `"reason"`, `"handled"`, `"stage"`).
    public static let validationFailed = "request:validation-failed"
    /// The request ran to the end or was stopped by a security, business or view object.
    /// Adds `"status"`: `"completed"` or `"stopped"`, and for a stop `"stage"`.
    public static let finished = "request:finished"
    /// An object threw (other than malformed parameters), an object other than a validation
    /// object dispatched to an error command, the command was unknown, or a typed command
    /// could not be encoded. Adds
    /// `"errorCommand"`, `"reason"`, `"handled"` (whether an error object ran) and, when
    /// known, `"stage"` and `"object"`.
    public static let failed = "request:failed"
    /// The request was cancelled.
    public static let cancelled = "request:cancelled"
}

extension FrontController {
    /// Triggers a lifecycle event for `request` with `extra` fields.
    func announce(_ message: String, _ request: ControlRequest, _ extra: [String: JSONValue] = [:]) {
        var data = [String: JSONValue](minimumCapacity: extra.count + 2)
        data.merge(extra) { _, new in new }
        data["id"] = .number(Double(request.id.rawValue))
        data["command"] = .string(request.command)
        bus.trigger(message, .object(data), from: self)
    }

    /// Triggers the terminal lifecycle event matching `outcome`.
    func announceEnd(of request: ControlRequest, _ outcome: RequestOutcome, stoppedBy object: String?) {
        switch outcome {
        case .completed:
            announce(RequestEvents.finished, request, ["status": "completed"])
        case .stopped(.validation, _):
            announce(RequestEvents.validationFailed, request, ["object": object.map(JSONValue.string) ?? .null])
        case .stopped(let stage, _):
            announce(RequestEvents.finished, request, ["status": "stopped", "stage": .string(stage.rawValue)])
        case .failed(let failure, let handled):
            var extra: [String: JSONValue] = [
                "errorCommand": .string(failure.errorCommand), "reason": .string(failure.reason),
                "handled": .bool(handled),
            ]
            if let stage = failure.stage { extra["stage"] = .string(stage.rawValue) }
            if let object = failure.object { extra["object"] = .string(object) }
            announce(failure.rejectsInput ? RequestEvents.validationFailed : RequestEvents.failed, request, extra)
        case .cancelled:
            announce(RequestEvents.cancelled, request)
        }
    }
}

extension RequestFailure {
    /// Whether the request's input was rejected, a validation failure: a validation object
    /// dispatched to an error command, or a control object found the parameters malformed
    /// for its typed command (in whichever stage it read them).
    var rejectsInput: Bool {
        if case .malformedParameters? = underlying as? ControlError { return true }
        return stage == .validation && underlying == nil
    }
}
