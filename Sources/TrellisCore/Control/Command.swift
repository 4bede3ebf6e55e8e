/// A command as a value: its name in the command map, and its parameters as stored
/// properties (QuickConnect's command string and parameter dictionary, typed).
///
/// Submitting one encodes its properties (with `JSONEncoder`) into the request's parameters,
/// one parameter per property, and runs the stack mapped to ``name``: the string map, the
/// configuration files, the `default` command and plugins' requests by name are unchanged. A
/// control object reads the value back with ``ControlRequest/command(as:)``, whoever sent the
/// request — a typed submit or a plugin's `{"title": …}`.
///
/// ```swift
/// struct RenameNote: Command {
///     static let name = "note.rename"
///     var id: UUID
///     var title: String
/// }
///
/// struct RenameNoteBusiness: ControlObject {
///     func handle(_ request: inout ControlRequest) async throws -> ControlResult {
///         let rename = try request.command(as: RenameNote.self)
///         print("renaming", rename.id, "to", rename.title)
///         return .continue
///     }
/// }
///
/// controller.mapBusiness(RenameNote.name) { RenameNoteBusiness() }
/// _ = controller.submit(RenameNote(id: id, title: "Покупки"), from: page.id)
/// ```
///
/// A command encodes as an object of parameters (a struct with stored properties; an enum
/// or a single value does not); parameters its type does not declare — results business
/// objects add, say — are ignored when reading it.
public protocol Command: Codable, Sendable {
    /// The command the value is submitted as, and that control objects are mapped to.
    static var name: String { get }
}
