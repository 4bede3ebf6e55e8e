extension FrontController {
    /// Starts a request for a typed command in a new task and returns its handle: the request
    /// of ``Command/name`` with `command`'s properties as its parameters, run by whatever is
    /// mapped to that name. `page`, when given, is the page the request is made for
    /// (``ControlRequest/page``).
    ///
    /// ```swift
    /// _ = controller.submit(RenameNote(id: id, title: "Покупки"), from: page.id)
    /// // the same request as
    /// _ = controller.submit("note.rename", parameters: ["id": .string(id.uuidString), "title": "Покупки"],
    ///                       from: page.id)
    /// ```
    ///
    /// A command that cannot be encoded (``ControlError/unencodableCommand(command:reason:)``)
    /// runs none of its stack: its failure goes to the command's error objects.
    public func submit<Value: Command>(_ command: Value, from page: PageID? = nil) -> RequestHandle {
        start(makeRequest(command, page))
    }

    /// Runs a request for a typed command in the calling task and returns how it ended, as
    /// ``submit(_:from:)`` starts it.
    public func handleRequest<Value: Command>(_ command: Value, from page: PageID? = nil) async -> RequestOutcome {
        await handle(makeRequest(command, page))
    }

    /// The request for `command`; one that cannot be encoded carries its failure from the
    /// start, for the pipeline to hand to the error objects.
    private func makeRequest<Value: Command>(_ command: Value, _ page: PageID?) -> ControlRequest {
        do throws(ControlError) {
            return makeRequest(Value.name, try CommandParameters.encode(command), page)
        } catch {
            var request = makeRequest(Value.name, [:], page)
            request.failure = RequestFailure(
                command: Value.name, errorCommand: Value.name, stage: nil, object: nil,
                reason: error.description, underlying: error)
            return request
        }
    }
}
