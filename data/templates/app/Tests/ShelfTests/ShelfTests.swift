import Testing
import TrellisCore
import TrellisHeadless
@testable import Shelf

/// The app without a window: its pages as text, typed into and clicked, as a user would.
@MainActor @Test("searching the items and opening one")
func itemsAreSearchedAndOpened() async throws {
    let shell = Shell()
    let screen = HeadlessFrontend(shell: shell)
    try ShelfRoutes.install(on: shell)
    try shell.navigate(to: "/")
    try screen.type("screw")
    #expect(screen.table?.lines == ["Screwdriver"])
    try screen.click(text: "Screwdriver")
    try await screen.settle()
    #expect(screen.page?.title == "Screwdriver")
    #expect(screen.render().contains("Item 2 of 3"))
}
