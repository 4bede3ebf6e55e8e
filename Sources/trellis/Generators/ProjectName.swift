import TrellisCore
import TrellisPlugins

/// The name given to `trellis plugin new NAME` or `trellis app new NAME`, and what is made of it:
/// `BookShelf` is the Swift type, package and title; `book-shelf` the plugin's id (its event
/// namespace and its page, `/book-shelf`).
struct ProjectName: Equatable {
    /// Letters and digits, starting with a capital letter: a Swift type name.
    let typeName: String
    /// The type name in lower case, words joined by `-`: a plugin id, a route segment.
    let id: String

    /// Reads `text`: letters and digits of ASCII, starting with a letter (made a capital).
    init(_ text: String) throws(ProjectNameError) {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else {
            throw ProjectNameError(name: text, reason: "a name is ASCII letters and digits, starting with a letter, such as Shelf or BookShelf")
        }
        guard text.count <= 40 else { throw ProjectNameError(name: text, reason: "a name has at most 40 characters") }
        typeName = text.prefix(1).uppercased() + text.dropFirst()
        id = Self.words(of: typeName).joined(separator: "-")
    }

    /// `BookShelf` → `book`, `shelf`; `HTTPLog` → `http`, `log`; `Player2` → `player2`.
    private static func words(of name: String) -> [String] {
        var words: [String] = []
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord = character.isUppercase && previous.map { previous in
                previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true)
            } == true
            if words.isEmpty || startsWord { words.append("") }
            words[words.count - 1].append(character.lowercased())
        }
        return words
    }

    /// Why the id cannot be a plugin's in the demo app (a namespace of Trellis's own, or the
    /// first segment of one of the app's routes), or nil.
    func pluginProblem(appRoutes: [RoutePattern]) -> String? {
        PluginReservedNames.problem(withID: id, appRoutes: appRoutes).map { "its plugin id, \"\(id)\", \($0)" }
    }
}

/// A name `trellis plugin new` or `trellis app new` cannot use, and why.
struct ProjectNameError: Error, CustomStringConvertible {
    let name: String
    let reason: String
    var description: String { "cannot use the name \(name.debugDescription): \(reason)" }
}
