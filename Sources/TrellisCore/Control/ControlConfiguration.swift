extension FrontController {
    /// Maps commands from a configuration by control object name, as the seeds' mapping files
    /// did. The configuration maps each command to its kinds, and each kind to object names
    /// registered in ``objects``, in mapping order:
    ///
    /// ```json
    /// {
    ///   "addNote":     { "validation": ["NoteTitleValidation"],
    ///                    "business": ["SaveNoteBusiness"], "view": ["ShowNotesView"] },
    ///   "invalidNote": { "error": ["ShowMessageView"] }
    /// }
    /// ```
    ///
    /// The whole configuration is checked before anything is mapped: a malformed entry, an
    /// unknown kind, an unknown object name or an object of the wrong family is an error that
    /// names the command and the entry, and leaves the mapping unchanged.
    /// - Throws: ``ControlError``.
    public func apply(configuration: JSONValue, source: String = "configuration") throws {
        guard let commands = configuration.objectValue else {
            throw ControlError.malformedConfiguration(path: source, reason: "expected an object of commands")
        }
        var entries: [(kind: ControlKind, command: String, name: String)] = []
        for command in commands.keys.sorted() {
            let path = "\(source).\(command)"
            guard let kinds = commands[command]?.objectValue else {
                throw ControlError.malformedConfiguration(path: path, reason: "expected an object of kinds")
            }
            for kindName in kinds.keys.sorted() {
                guard let kind = ControlKind(rawValue: kindName) else {
                    let known = ControlKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ControlError.malformedConfiguration(
                        path: "\(path).\(kindName)", reason: "unknown kind '\(kindName)' (expected one of \(known))")
                }
                guard let names = kinds[kindName]?.arrayValue?.compactMap(\.stringValue),
                    names.count == kinds[kindName]?.arrayValue?.count
                else {
                    throw ControlError.malformedConfiguration(
                        path: "\(path).\(kindName)", reason: "expected an array of control object names")
                }
                for name in names {
                    try check(name, as: kind, of: command)
                    entries.append((kind, command, name))
                }
            }
        }
        for entry in entries {
            try map(entry.kind, command: entry.command, named: entry.name)
        }
    }

    /// Throws the error `map(_:command:named:)` would, without mapping anything.
    private func check(_ name: String, as kind: ControlKind, of command: String) throws {
        switch objects.factory(named: name) {
        case nil:
            throw ControlError.unknownObjectName(name: name, command: command, kind: kind)
        case .background where kind.runsOnMainActor, .mainActor where !kind.runsOnMainActor:
            throw ControlError.kindMismatch(name: name, command: command, kind: kind)
        case .background, .mainActor:
            return
        }
    }
}
