import Foundation
import Testing
@testable import TrellisCore

@Suite("ProcessEnvironment")
struct ProcessEnvironmentTests {
    @Test("reads this process's environment as Foundation does")
    func sameAsFoundation() {
        #expect(ProcessEnvironment.current == ProcessInfo.processInfo.environment)
        #expect(!ProcessEnvironment.current.isEmpty)
    }

    @Test("splits each entry at its first =; skips an entry without one; a later entry of a name wins")
    func entries() {
        let entries = ["A=1", "B=x=y", "EMPTY=", "NO_EQUALS", "ИМЯ=значение", "=nameless", "A=2"]
        let copies = entries.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let variables = (copies + [nil]).withUnsafeBufferPointer { ProcessEnvironment.variables(in: $0.baseAddress!) }
        #expect(variables == ["A": "2", "B": "x=y", "EMPTY": "", "ИМЯ": "значение", "": "nameless"])
    }
}
