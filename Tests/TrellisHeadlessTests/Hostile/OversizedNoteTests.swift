import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// A note's text is limited to 1 MiB of UTF-8: a 10 MB paste is refused with a message naming
/// the limit and the size, checked off the main actor so the window stays responsive, and
/// nothing is saved; text up to the limit is saved and read back whole. (The title's limit,
/// 200 characters, is in `NotesFlowTests`.)
@MainActor
@Suite("Oversized notes")
struct OversizedNoteTests {
    static let limit = 1024 * 1024

    @Test("a 10 MB text is refused with the limit and the size, checked off the main actor, and nothing is saved")
    func tenMegabytesRefused() async throws {
        let url = Fixtures.temporaryStoreURL()
        let (shell, screen) = try await Fixtures.demo(storeURL: url)
        try shell.navigate(to: "/notes/new")
        try screen.fill("title", with: "A long log")
        try screen.fill("body", with: String(repeating: "0123456789", count: 1_048_576))
        let requests = EventRecorder(bus: shell.bus, pattern: "request:*")

        try screen.press("save")
        // Still on the main actor, in the same turn: had the press validated the text itself,
        // the refusal would be shown already. It is a request, validated in the background.
        #expect(screen.page?.message == nil)
        #expect(shell.controller.requestsInFlight == 1)
        let refused = try await requests.wait(for: RequestEvents.validationFailed)
        #expect(refused.first?.data["object"] == "NoteValidation")
        try await screen.settle()

        #expect(screen.page?.message == "A note's text may have at most \(Self.limit) bytes; this one has 10485760.")
        #expect(screen.page?.values.path == "/notes/new", "the editor stays, with what was typed")
        #expect(screen.form?["body"]?.utf8.count == 10_485_760)
        try shell.navigate(to: "/notes")
        #expect(screen.table?.container.flatCount == 0)
        #expect(try StoreSnapshot(of: url, dataDirectory: Fixtures.dataDirectory).lines.allSatisfy { !$0.hasPrefix("Note ") })
    }

    @Test("a text of exactly 1 MiB is saved, listed and read back whole")
    func oneMebibyteSaved() async throws {
        let url = Fixtures.temporaryStoreURL()
        let body = String(repeating: "я", count: Self.limit / 2)
        let (shell, screen) = try await Fixtures.demo(storeURL: url)
        try shell.navigate(to: "/notes")
        try screen.pressPageAction("new")
        try screen.fill("title", with: "Exactly at the limit")
        try screen.fill("body", with: body)
        try screen.press("save")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == 1 })
        #expect(screen.table?.render().first?.hasPrefix("Exactly at the limit | яяя") == true)

        try screen.click(row: 0)
        #expect(screen.form?["title"] == "Exactly at the limit")
        #expect(screen.form?["body"] == body, "the editor reads the whole text back from the store")
        let stored = try StoreSnapshot(of: url, dataDirectory: Fixtures.dataDirectory).lines.filter { $0.hasPrefix("Note ") }
        #expect(stored.count == 1 && stored.first?.contains("body=\"\(body)\"") == true, "the file holds it whole")
    }
}
