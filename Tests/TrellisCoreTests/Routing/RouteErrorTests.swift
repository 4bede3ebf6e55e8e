import Testing
@testable import TrellisCore

@Suite("Route errors")
struct RouteErrorTests {
    @Test("messages name the pattern or path and the reason")
    func messages() {
        #expect(RouteError.invalidPattern(pattern: "/a:b", reason: "bad").description == "invalid route pattern \"/a:b\": bad")
        #expect(RouteError.invalidPath(path: "/x/..", reason: "bad").description == "invalid path \"/x/..\": bad")
        #expect(RouteError.notFound(path: "/nowhere").description == "no route matches path \"/nowhere\"")
    }

    @Test("control characters are escaped in messages")
    func escapesControlCharacters() {
        #expect(RouteError.notFound(path: "/a\0b").description == #"no route matches path "/a\0b""#)
    }

    @Test("a very long path is cut short in the message, with its size")
    func truncatesLongPaths() {
        let path = "/" + String(repeating: "a", count: 5000)
        let message = RouteError.notFound(path: path).description
        #expect(message.count < 250)
        #expect(message.hasSuffix("… (5001 bytes)"))
    }

    @Test("an error from the table carries the path as given")
    func carriesPath() throws {
        let table = RouteTable<Int>()
        try table.add("/notes/:id", owner: "notes", target: 1)
        #expect(throws: RouteError.notFound(path: "/notes/1/more?x=1")) { try table.match("/notes/1/more?x=1") }
        #expect(throws: RouteError.invalidPattern(pattern: "/a/:", reason: "segment \":\": empty parameter name")) {
            try table.add("/a/:", owner: "notes", target: 2)
        }
    }
}
