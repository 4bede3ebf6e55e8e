/// The five kinds of control object in a command's stack, in the order a request meets them.
///
/// The names spell out QuickConnect's abbreviations: security (SCO), validation (ValCO),
/// business (BCO), view (VCO) and error (ECO) control objects.
public enum ControlKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Security control objects (SCO): may this request run at all? Off the main thread.
    case security
    /// Validation control objects (ValCO): are the parameters acceptable? Off the main thread.
    case validation
    /// Business control objects (BCO): the work itself (database, network, computation),
    /// adding results to the parameters. Off the main thread.
    case business
    /// View control objects (VCO): show the result. On the main actor.
    case view
    /// Error control objects (ECO): report a failure to the user and clean up. On the main
    /// actor. They are mapped to an error command, not to the stage where the error happens.
    case error

    /// Whether objects of this kind run on the main actor (``ViewControlObject``) rather
    /// than off the main thread (``ControlObject``).
    public var runsOnMainActor: Bool {
        switch self {
        case .security, .validation, .business: return false
        case .view, .error: return true
        }
    }

    public var description: String { rawValue }
}

/// What a control object tells the front controller after handling a request.
public enum ControlResult: Sendable, Hashable {
    /// Go on with the next object.
    case `continue`
    /// End the request here. A stop in security or validation ends it before business and
    /// view; a stop in an error object means the error is handled and goes no further.
    case stop
    /// End the request and hand it to the error objects mapped to `command` (the seeds'
    /// `dispatchToECO`), with `reason` for them to show.
    case dispatchToError(command: String, reason: String)
}
