import Foundation
import Testing
import TrellisCore

/// Route parameters read as typed values, with errors naming the route, the parameter and
/// the value.
@Suite("Typed route parameters")
struct RouteParameterTests {
    let values = RouteValues(path: "/notes/5", pattern: "/notes/:id", parameters: ["id": "5", "mode": "edit"])

    @Test("a parameter reads as each standard type its text is")
    func reads() throws {
        let id = UUID()
        let note = RouteValues(path: "/notes/\(id)", pattern: "/notes/:id",
                               parameters: ["id": id.uuidString, "zoom": "1.5", "pinned": "true"])
        #expect(try note.parameter("id", as: UUID.self) == id)
        #expect(try note.parameter("zoom", as: Double.self) == 1.5)
        #expect(try note.parameter("pinned", as: Bool.self))
        #expect(try values.parameter("id", as: Int.self) == 5)
        #expect(try values.parameter("mode", as: String.self) == "edit")
    }

    @Test("a text that is not of the type throws naming the path, the pattern, the parameter and the value")
    func invalid() {
        #expect(throws: NavigationError.invalidParameter(path: "/notes/5", pattern: "/notes/:id", name: "id",
                                                         value: "5", expected: "a UUID")) {
            try values.parameter("id", as: UUID.self)
        }
        let error = NavigationError.invalidParameter(path: "/notes/5", pattern: "/notes/:id", name: "id", value: "5",
                                                     expected: "a UUID")
        #expect(error.description == #""/notes/5": parameter "id" of /notes/:id is "5", which is not a UUID"#)
    }

    @Test("a parameter the route does not have throws naming it")
    func missing() {
        #expect(throws: NavigationError.missingParameter(path: "/notes/5", pattern: "/notes/:id", name: "page")) {
            try values.parameter("page", as: Int.self)
        }
    }
}
