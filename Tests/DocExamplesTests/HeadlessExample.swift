import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless

/// Where the examples of TrellisHeadless's doc comments are compiled: `.ci/doc-examples` makes
/// each ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisHeadless_*.swift`, so that an example reads as an app's test:
/// `shell` and `screen` (a headless front end on it) are the test's, and the demo's data and
/// the names below its own. They are compiled, never run (TrellisHeadlessTests tests the front end).
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class HeadlessExample {
    let shell = Shell()
    lazy var screen = HeadlessFrontend(shell: shell)
    /// The demo's data folder and catalog.
    let data = try! Resources.dataDirectory()
    lazy var genres = try! Resources.loadCatalog(from: data)
    /// People, and a table's columns of them.
    let persons = [Person(firstName: "Ada", age: 36)]
    let columns = [TableColumn(key: "firstName", title: "First name", value: \Person.firstName),
                   TableColumn(key: "age", title: "Age", value: \Person.age)]

    struct Person: KeyValueCoding, Sendable {
        var firstName: String
        var age: Int
        func value(forKey key: String) -> JSONValue? {
            switch key {
            case "firstName": .string(firstName)
            case "age": .number(Double(age))
            default: nil
            }
        }
    }
}
