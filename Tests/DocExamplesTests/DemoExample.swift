import Foundation
import TrellisCore
import TrellisDemo
import TrellisStore

/// Where the examples of TrellisDemo's doc comments are compiled: `.ci/doc-examples` makes each
/// ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisDemo_*.swift`: `shell` and `store` (the demo's) are the app's.
/// They are compiled, never run (TrellisHeadlessTests runs the demo).
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class DemoExample {
    let shell = Shell()
    lazy var store = try! DemoStore.open(dataDirectory: Resources.dataDirectory(), bus: shell.bus)
}
