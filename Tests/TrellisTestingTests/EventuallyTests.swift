import Testing
import TrellisTesting

@Suite("eventually")
struct EventuallyTests {
    @Test("polls until the condition holds, in the caller's isolation")
    func pollsUntilTrue() async {
        var polls = 0
        #expect(await eventually { polls += 1; return polls == 3 })
        #expect(polls == 3)
    }

    @Test("says false once its deadline passes, and passes on what the condition throws")
    func deadlineAndErrors() async throws {
        #expect(await eventually(timeout: .milliseconds(50)) { false } == false)
        struct Broken: Error {}
        await #expect(throws: Broken.self) { try await eventually { throw Broken() } }
    }
}
