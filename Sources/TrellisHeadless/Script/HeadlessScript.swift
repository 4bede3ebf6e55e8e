import TrellisCore

/// A script that drives an app without a display, one step per line: what an app author's
/// CI runs against its pages, and what `trellis --headless --script FILE` reads.
///
/// ```text
/// # Write a note and check the list shows it.
/// navigate /notes/new
/// fill title Shopping
/// fill body "milk\nbread"
/// press save
/// expect Shopping | milk
/// print
/// ```
///
/// | step | does |
/// | --- | --- |
/// | `navigate PATH` | opens a route path |
/// | `back` | presses Back |
/// | `fill FIELD TEXT` | types TEXT into form field FIELD, replacing what it held |
/// | `press BUTTON` | presses a form button, else a header-bar button of the page, by its id or, when one button only has it, by its label (a plugin's page action: `plugin-<plugin id>-<command id>`, or its title) |
/// | `select ROW` | activates the row whose text is ROW, or the only row containing it (`#3`: the row at index 3) |
/// | `toggle ROW` | ticks or unticks the checkbox of a row, found as `select` finds it |
/// | `type TEXT` | types TEXT into the search field |
/// | `sort KEY` | clicks the header of column KEY: sorts by it, descending if it was sorted ascending |
/// | `expect TEXT` | waits until the screen shows TEXT, else fails |
/// | `print` | prints the screen as text |
/// | `undo` | what Ctrl+Z does: undoes the page's last unsaved change, else the last notice's change (a deleted note comes back) |
///
/// An app adds steps of its own (the demo adds `sync`). A TEXT that starts with `"` is a
/// JSON string (`"two\nlines"`); otherwise it is the rest of the line, trimmed. Blank lines
/// and lines starting with `#` are ignored. The whole script is read before anything runs,
/// so a mistyped step fails at once, and every error names the line and the step:
/// `notes.script:4: press save: no button "save" on this page (buttons: delete)`.
public struct HeadlessScript: Sendable {
    /// One step, with where it was written.
    public struct Step: Sendable, Equatable {
        /// The line number, from 1.
        public let line: Int
        /// The step's word (`navigate`, `fill`…).
        public let command: String
        /// The first word after the command, for steps that name something and take a text
        /// (`fill FIELD TEXT`); `nil` otherwise.
        public let target: String?
        /// The rest of the line (a quoted text decoded).
        public let argument: String
        /// The line as written, trimmed.
        public let source: String
    }

    /// The steps every script knows, and how many words each needs before its text.
    static let builtIn: [String: (targets: Int, needsArgument: Bool)] = [
        "navigate": (0, true), "back": (0, false), "fill": (1, false), "press": (0, true), "select": (0, true),
        "toggle": (0, true), "type": (0, false), "expect": (0, true), "print": (0, false), "undo": (0, false),
        "sort": (0, true),
    ]

    /// Where the script comes from, as errors name it (a file path, or `-` for standard input).
    public let name: String
    /// The steps, in order.
    public let steps: [Step]

    /// Reads a script.
    ///
    /// - Parameter extraCommands: steps the app adds, each taking the rest of its line.
    /// - Throws: ``HeadlessScriptError`` for the first line that is not a known step or
    ///   lacks what the step needs.
    public init(source: String, name: String, extraCommands: Set<String> = []) throws(HeadlessScriptError) {
        self.name = name
        var steps: [Step] = []
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            steps.append(try Self.parse(line, number: index + 1, name: name, extraCommands: extraCommands))
        }
        self.steps = steps
    }

    private static func parse(_ line: String, number: Int, name: String, extraCommands: Set<String>)
        throws(HeadlessScriptError) -> Step
    {
        func fail(_ reason: String) -> HeadlessScriptError {
            HeadlessScriptError(script: name, line: number, step: line, reason: reason)
        }
        let (command, rest) = split(line)
        let known = builtIn[command] ?? (extraCommands.contains(command) ? (0, false) : nil)
        guard let (targets, needsArgument) = known else {
            let all = (Array(builtIn.keys) + extraCommands).sorted().joined(separator: ", ")
            throw fail("unknown step \"\(command)\" (steps: \(all))")
        }
        var target: String?
        var text = rest
        if targets == 1 {
            let (word, after) = split(rest)
            guard !word.isEmpty else { throw fail("\(command) needs a name, then a text") }
            target = word
            text = after
        }
        if command == "back" || command == "print", !text.isEmpty { throw fail("\(command) takes nothing after it") }
        let argument: String
        if text.hasPrefix("\"") {
            guard let decoded = try? JSONValue(jsonString: text, source: "\(name):\(number)").stringValue else {
                throw fail("the quoted text is not a JSON string: \(text)")
            }
            argument = decoded
        } else {
            argument = text
        }
        if needsArgument, argument.isEmpty { throw fail("\(command) needs something after it") }
        return Step(line: number, command: command, target: target, argument: argument, source: line)
    }

    /// The first word of `text` and the rest, trimmed.
    private static func split(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(where: \.isWhitespace) else { return (text, "") }
        return (String(text[..<space]), text[space...].trimmingCharacters(in: .whitespaces))
    }
}

/// A script step that cannot be read or run: the script, the line, the step, and why.
public struct HeadlessScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script's name (its path, or `-`).
    public let script: String
    /// The line number, from 1.
    public let line: Int
    /// The step as written.
    public let step: String
    /// What went wrong.
    public let reason: String

    public init(script: String, line: Int, step: String, reason: String) {
        self.script = script
        self.line = line
        self.step = step
        self.reason = reason
    }

    public var description: String { "\(script):\(line): \(step): \(reason)" }
}
