/// A request running in its own task: await its outcome or cancel it.
///
/// ```swift
/// let handle = controller.submit("syncNotes")
/// handle.cancel()                       // ends .cancelled before its next control object
/// let outcome = await handle.outcome
/// ```
public struct RequestHandle: Sendable {
    /// The request's identity, as in its lifecycle events.
    public let id: RequestID
    let task: Task<RequestOutcome, Never>

    /// Asks the request to stop; a control object that is awaiting sees the cancellation,
    /// and no further object starts.
    public func cancel() {
        task.cancel()
    }

    /// How the request ended.
    public var outcome: RequestOutcome {
        get async { await task.value }
    }
}

/// One request of a batch.
public struct BatchRequest: Sendable {
    /// The command to run.
    public let command: String
    /// Its parameters.
    public let parameters: [String: JSONValue]

    /// Describes one request of a batch.
    public init(_ command: String, parameters: [String: JSONValue] = [:]) {
        self.command = command
        self.parameters = parameters
    }
}

/// A batch running in its own task: await its outcomes or cancel it.
public struct BatchHandle: Sendable {
    let task: Task<[RequestOutcome], Never>

    /// Cancels every request of the batch still running; the completion still fires, once.
    public func cancel() {
        task.cancel()
    }

    /// The outcomes, in the order the requests were given, once the completion has run.
    public var outcomes: [RequestOutcome] {
        get async { await task.value }
    }
}

extension FrontController {
    /// Runs several requests concurrently and returns their outcomes in the order given.
    public func handleBatch(_ requests: [BatchRequest]) async -> [RequestOutcome] {
        await withTaskGroup(of: (Int, RequestOutcome).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { (index, await self.handleRequest(request.command, parameters: request.parameters)) }
            }
            var outcomes = [RequestOutcome](repeating: .cancelled, count: requests.count)
            for await (index, outcome) in group {
                outcomes[index] = outcome
            }
            return outcomes
        }
    }

    /// Starts several requests concurrently; `completion` runs on the main actor exactly once,
    /// when all of them have ended (at once for an empty batch), with their outcomes in the
    /// order given. The seeds' batch callback never fired for more than one request; this one
    /// always fires, cancelled or not.
    @discardableResult
    public func submitBatch(
        _ requests: [BatchRequest], completion: @escaping @MainActor @Sendable ([RequestOutcome]) -> Void
    ) -> BatchHandle {
        requestBegan()
        return BatchHandle(task: Task {
            defer { self.requestEnded() }
            let outcomes = await self.handleBatch(requests)
            await completion(outcomes)
            return outcomes
        })
    }
}
