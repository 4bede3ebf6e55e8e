extension ControlRequest {
    /// The request's parameters read as the typed command `type` — sent with
    /// ``FrontController/submit(_:from:)`` or by name with matching parameters (a plugin's
    /// request, a configuration's command). Parameters `type` does not declare are ignored;
    /// the request's own ``command`` is not checked against ``Command/name``, so a command
    /// mapped to the same objects under another name reads the same way.
    ///
    /// ```swift
    /// let save = try request.command(as: SaveNote.self)
    /// // with {"title": 5}, throws: command 'note.save': parameter 'title' should be
    /// // String, but it is 5
    /// ```
    ///
    /// Thrown from a control object, the error goes to the command's error objects (then the
    /// `default` command's) as ``RequestFailure/underlying``, and the request is reported as
    /// a validation failure (``RequestEvents/validationFailed``).
    /// - Throws: ``ControlError/malformedParameters(command:parameter:reason:)`` naming the
    ///   command, the parameter and the type it should have.
    public func command<Value: Command>(as type: Value.Type) throws(ControlError) -> Value {
        try CommandParameters.decode(type, from: parameters, command: self.command)
    }
}
