import Foundation
import Testing
import TrellisCore
import TrellisHeadless
import TrellisTesting

/// Where the examples of TrellisTesting's doc comments are compiled: `.ci/doc-examples` makes
/// each ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisTesting_*.swift`, so that an example reads as an app's test: `self`
/// owns watches, `bus` and `screen` (a headless front end) are the test's, and `#expect`
/// records issues. They are compiled, never run (TrellisTestingTests tests the helpers).
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class TestingExample {
    let shell = Shell()
    var bus: EventBus { shell.bus }
    lazy var screen = HeadlessFrontend(shell: shell)
}
