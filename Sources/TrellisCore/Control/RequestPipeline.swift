/// Where a request stands after a run of control objects.
enum StageStep: Sendable {
    /// Every object continued; go on with the (possibly changed) request.
    case finished(ControlRequest)
    /// An object of `kind`, named `object`, returned `.stop`.
    case stopped(ControlKind, object: String, ControlRequest)
    /// An object threw or dispatched to an error command.
    case failed(RequestFailure, ControlRequest)
    /// The task was cancelled, or an object threw `CancellationError`.
    case cancelled

    /// The step that follows `result` from the object `name` of `kind`; `nil` to go on.
    static func after(_ result: ControlResult, of kind: ControlKind, object name: String, _ request: ControlRequest) -> StageStep? {
        switch result {
        case .continue:
            return nil
        case .stop:
            return .stopped(kind, object: name, request)
        case .dispatchToError(let errorCommand, let reason):
            let failure = RequestFailure(
                command: request.command, errorCommand: errorCommand, stage: kind, object: name,
                reason: reason, underlying: nil)
            return .failed(failure, request)
        }
    }

    /// The step that follows an error thrown by the object `name` of `kind`.
    static func thrown(_ error: any Error, by kind: ControlKind, object name: String, _ request: ControlRequest) -> StageStep {
        if error is CancellationError || Task.isCancelled { return .cancelled }
        let failure = RequestFailure(
            command: request.command, errorCommand: request.command, stage: kind, object: name,
            reason: String(describing: error), underlying: error)
        return .failed(failure, request)
    }
}

extension FrontController {
    /// Runs a request through its plan and reports how it ended.
    func run(_ request: ControlRequest) async -> RequestOutcome {
        announce(RequestEvents.started, request)
        if let failure = request.failure {
            // A typed command that could not be encoded: its stack has nothing to read.
            let outcome = RequestOutcome.failed(failure, handled: await runErrorObjects(for: failure, request))
            announceEnd(of: request, outcome, stoppedBy: nil)
            return outcome
        }
        guard let (plan, commandIsEmpty) = commandMap.withLock({ $0.plan(for: request.command) }) else {
            let unknown = ControlError.unknownCommand(request.command)
            let failure = RequestFailure(
                command: request.command, errorCommand: request.command, stage: nil, object: nil,
                reason: unknown.description, underlying: unknown)
            logger.error("\(request.id): \(unknown)")
            let outcome = RequestOutcome.failed(failure, handled: false)
            announceEnd(of: request, outcome, stoppedBy: nil)
            return outcome
        }
        if commandIsEmpty {
            logger.debug("\(request.id): nothing is mapped to command '\(request.command)'")
        }

        var step = await runBackgroundStages(plan, request)
        // A command without view objects never hops to the main actor.
        if case .finished(let request) = step, !plan.stack.view.isEmpty {
            step = await runViewStage(plan, request)
        }

        let outcome: RequestOutcome
        var stopper: String?
        switch step {
        case .finished(let request):
            outcome = .completed(request.parameters)
        case .stopped(let kind, let object, let request):
            outcome = .stopped(kind, request.parameters)
            stopper = object
        case .failed(let failure, let request):
            let handled = await runErrorObjects(for: failure, request)
            outcome = .failed(failure, handled: handled)
        case .cancelled:
            outcome = .cancelled
        }
        announceEnd(of: request, outcome, stoppedBy: stopper)
        return outcome
    }

    /// Security, validation and business, in that order, off the main actor.
    @concurrent
    private func runBackgroundStages(_ plan: RequestPlan, _ request: ControlRequest) async -> StageStep {
        var request = request
        for kind in [ControlKind.security, .validation, .business] {
            for mapped in plan.stack.background(kind) {
                if Task.isCancelled { return .cancelled }
                let object = mapped.make()
                do {
                    let result = try await object.handle(&request)
                    if let step = StageStep.after(result, of: kind, object: mapped.name, request) { return step }
                } catch {
                    return .thrown(error, by: kind, object: mapped.name, request)
                }
            }
        }
        return .finished(request)
    }

    /// The view objects, on the main actor.
    @MainActor
    private func runViewStage(_ plan: RequestPlan, _ request: ControlRequest) async -> StageStep {
        var request = request
        for mapped in plan.stack.view {
            if Task.isCancelled { return .cancelled }
            let object = mapped.make()
            do {
                let result = try await object.handle(&request)
                if let step = StageStep.after(result, of: .view, object: mapped.name, request) { return step }
            } catch {
                return .thrown(error, by: .view, object: mapped.name, request)
            }
        }
        return .finished(request)
    }

    /// Hands a failure to the error objects of its error command, then to the `default`
    /// command's, until one returns `.stop`. Returns whether any error object ran; if none
    /// did, the failure is logged as unhandled.
    @MainActor
    private func runErrorObjects(for failure: RequestFailure, _ request: ControlRequest) async -> Bool {
        var request = request
        request.failure = failure
        let chain = commandMap.withLock { $0.errorChain(for: failure.errorCommand) }
        var ran = false
        for mapped in chain.own + chain.fallback {
            ran = true
            let object = mapped.make()
            do {
                switch try await object.handle(&request) {
                case .continue: continue
                case .stop: return true
                case .dispatchToError(let command, _):
                    logger.warning(
                        "\(request.id): error object '\(mapped.name)' dispatched to '\(command)'; error objects cannot dispatch, going on")
                }
            } catch {
                logger.error("\(request.id): error object '\(mapped.name)' threw while handling \(failure): \(error)")
            }
        }
        if !ran {
            logger.error("\(request.id): unhandled: \(failure)")
        }
        return ran
    }
}
