/// What a page shows, in terms every front end can render: GTK widgets in the window, lines of
/// text headless.
@MainActor
public enum PageContent {
    /// A list fed by a table container (sources, cells, callbacks, controller).
    case table(TableContainer)
    /// Labelled fields, editable or not, with buttons.
    case form(Form)
    /// Plain text.
    case text(String)
    /// Content the app draws itself: a model, rendered by the renderer the app registered
    /// with each front end (a GTK widget in the window), or as its text lines.
    case custom(CustomContent)
}

/// Labelled fields and buttons: a detail page (read-only fields) or an editor.
///
/// ```swift
/// let form = Form(fields: [.init(id: "title", label: "Title"), .init(id: "body", label: "Text", style: .multiline)],
///                 actions: [.init(id: "save", label: "Save")])
/// form.onAction = { action, form in print(action, form["title"] ?? "") }
/// ```
@MainActor
public final class Form {
    public struct Field: Sendable, Equatable {
        /// How a field is shown and edited. Values are text in every style: `"true"`/`"false"`
        /// for a toggle, decimal digits for a number, one of the choices for a choice.
        public enum Style: Sendable, Equatable {
            case singleLine, multiline, readOnly
            /// A check box, its label beside it.
            case toggle
            /// A whole number within the range (a spin button).
            case number(ClosedRange<Int>)
            /// One of the texts (a drop-down list).
            case choice([String])
            /// A heading over the fields that follow: no value, not editable.
            case heading

            /// Whether the user can change the field.
            public var isEditable: Bool { self != .readOnly && self != .heading }
        }
        public let id: String
        public var label: String
        public var style: Style
        public var value: String
        /// A sentence under the field saying what it does ("" for none); also read by screen readers.
        public var help: String

        public init(id: String, label: String, style: Style = .singleLine, value: String = "", help: String = "") {
            self.id = id
            self.label = label
            self.style = style
            self.value = value
            self.help = help
        }
    }

    /// A button. The form's first action is its default one: suggested in style, and what
    /// Ctrl+S (and Enter in the last single-line field) presses in the window.
    public struct Action: Sendable, Equatable {
        public let id: String
        public var label: String
        /// Styled as destructive (red in most themes): for an action that deletes.
        public var isDestructive: Bool
        public init(id: String, label: String, isDestructive: Bool = false) {
            self.id = id
            self.label = label
            self.isDestructive = isDestructive
        }
    }

    public private(set) var fields: [Field]
    public let actions: [Action]
    /// Called when a button is pressed, with the action's id.
    public var onAction: ((String, Form) -> Void)?
    /// Called when the user typed into a field, with the field's id and new value.
    public var onEdit: ((String, String) -> Void)?
    /// Called when the page changed a value (not when the user typed it), so front ends refresh.
    public var onValuesReplaced: (() -> Void)?
    /// The page showing the form, told of each field the user edits (``PageController``).
    weak var page: PageController?

    public init(fields: [Field], actions: [Action] = []) {
        self.fields = fields
        self.actions = actions
    }

    /// The value of field `id` (`nil` for an unknown id).
    public subscript(id: String) -> String? {
        fields.first { $0.id == id }?.value
    }

    /// Records what the user typed into field `id`. Returns `false` for an unknown or read-only field.
    @discardableResult
    public func userEdited(_ id: String, value: String) -> Bool {
        guard let index = fields.firstIndex(where: { $0.id == id }), fields[index].style.isEditable else { return false }
        guard fields[index].value != value else { return true }
        fields[index].value = value
        page?.userEdited(field: id)
        onEdit?(id, value)
        return true
    }

    /// Replaces values from code (loading a record, undo) and tells the front end.
    public func setValues(_ values: [String: String]) {
        for index in fields.indices { if let value = values[fields[index].id] { fields[index].value = value } }
        onValuesReplaced?()
    }

    /// Presses button `id`. Returns `false` for an unknown action.
    @discardableResult
    public func press(_ id: String) -> Bool {
        guard actions.contains(where: { $0.id == id }) else { return false }
        onAction?(id, self)
        return true
    }

    /// The fields' values by id.
    public var values: [String: String] {
        Dictionary(fields.map { ($0.id, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
