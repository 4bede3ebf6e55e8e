import Dispatch
import Testing
@testable import TrellisCore

@Suite("Route table")
struct RouteTableTests {
    @Test("a match carries the route's target, id, publicity and the normalised path")
    func matchFields() throws {
        let table = RouteTable<String>()
        try table.add("/notes", owner: "notes", target: "list")
        let id = try table.add("/notes/:id", owner: "notes", isPublic: true, target: "detail")
        let match = try table.match("/notes/caf%C3%A9/?tab=1#top")
        #expect(match.target == "detail")
        #expect(match.id == id)
        #expect(match.isPublic)
        #expect(match.path == "/notes/caf%C3%A9")
        #expect(try table.match("/notes").path == "/notes")
        #expect(try table.match("/notes").isPublic == false)
    }

    @Test("the root path keeps its slash")
    func rootPath() throws {
        let table = RouteTable<Int>()
        try table.add("/", owner: "shell", target: 0)
        #expect(try table.match("/?q=1").path == "/")
    }

    @Test("entries list every route in registration order")
    func entriesInOrder() throws {
        let table = RouteTable<Int>()
        let texts = ["/z", "/a/:id", "/m/*rest", "/", "/a/:other"]
        let ids = try texts.enumerated().map { index, text in
            try table.add(text, owner: index.isMultiple(of: 2) ? "even" : "odd", isPublic: index == 1, target: index)
        }
        let entries = table.entries
        #expect(entries.map(\.pattern.text) == texts)
        #expect(entries.map(\.id) == ids)
        #expect(entries.map(\.target) == [0, 1, 2, 3, 4])
        #expect(entries.map(\.owner) == ["even", "odd", "even", "odd", "even"])
        #expect(entries.map(\.isPublic) == [false, true, false, false, false])
        #expect(ids == ids.sorted())
    }

    @Test("the same pattern registered twice: the first wins, the second takes over when the first is removed")
    func shadowing() throws {
        let table = RouteTable<String>()
        let first = try table.add("/notes/:id", owner: "notes", target: "first")
        try table.add("/notes/:noteID/", owner: "plugin", target: "second")
        #expect(try table.match("/notes/5").target == "first")
        #expect(try table.match("/notes/5").parameters == ["id": "5"])
        #expect(table.remove(first))
        #expect(try table.match("/notes/5").target == "second")
        #expect(try table.match("/notes/5").parameters == ["noteID": "5"])
    }

    @Test("removing a route by id makes its paths fall back to the next best pattern")
    func removeByID() throws {
        let table = RouteTable<String>()
        let literal = try table.add("/a/b/c", owner: "x", target: "literal")
        try table.add("/a/:x/c", owner: "x", target: "parameter")
        try table.add("/a/*rest", owner: "x", target: "splat")
        #expect(try table.match("/a/b/c").target == "literal")
        #expect(table.remove(literal))
        #expect(try table.match("/a/b/c").target == "parameter")
        #expect(table.remove(literal) == false)
        #expect(table.entries.map(\.target) == ["parameter", "splat"])
    }

    @Test("removing every route of an owner leaves the others ($unroute)")
    func removeByOwner() throws {
        let table = RouteTable<String>()
        try table.add("/notes", owner: "notes", target: "list")
        try table.add("/notes/:id", owner: "notes", target: "detail")
        try table.add("/notes/:id", owner: "plugin", target: "plugin-detail")
        try table.add("/plugins", owner: "plugin", target: "plugins")
        #expect(table.remove(owner: "notes") == 2)
        #expect(table.remove(owner: "notes") == 0)
        #expect(throws: RouteError.notFound(path: "/notes")) { try table.match("/notes") }
        #expect(try table.match("/notes/3").target == "plugin-detail")
        #expect(table.entries.map(\.target) == ["plugin-detail", "plugins"])
        #expect(table.remove(owner: "plugin") == 2)
        #expect(table.entries.isEmpty)
        #expect(throws: RouteError.notFound(path: "/plugins")) { try table.match("/plugins") }
    }

    @Test("a route can be registered again after removal")
    func reAdd() throws {
        let table = RouteTable<Int>()
        let old = try table.add("/x/:a/y", owner: "o", target: 1)
        table.remove(old)
        let new = try table.add("/x/:a/y", owner: "o", target: 2)
        #expect(new != old)
        #expect(try table.match("/x/1/y").target == 2)
    }

    @Test("routes added and removed from many threads while others match: no lost route, consistent table")
    func concurrentUse() throws {
        let table = RouteTable<Int>()
        try table.add("/stable/:id", owner: "stable", target: -1)
        let writers = 4, routesPerWriter = 300, readers = 4
        let failures = LockedState<[String]>([])
        DispatchQueue.concurrentPerform(iterations: writers + readers) { worker in
            if worker < writers {
                for index in 0..<routesPerWriter {
                    do {
                        let id = try table.add("/w\(worker)/r\(index)/:x", owner: "writer\(worker)", target: index)
                        if index.isMultiple(of: 2) { table.remove(id) }
                    } catch {
                        failures.withLock { $0.append("add: \(error)") }
                    }
                }
            } else {
                for index in 0..<2_000 {
                    do {
                        let match = try table.match("/stable/\(index)")
                        if match.target != -1 || match.parameters["id"] != "\(index)" {
                            failures.withLock { $0.append("wrong match for /stable/\(index): \(match.pattern)") }
                        }
                    } catch {
                        failures.withLock { $0.append("match: \(error)") }
                    }
                    _ = try? table.match("/w\(index % writers)/r\(index % routesPerWriter)/v")
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let entries = table.entries
        #expect(entries.count == 1 + writers * routesPerWriter / 2)
        #expect(Set(entries.map(\.id)).count == entries.count)
        for worker in 0..<writers {
            for index in 0..<routesPerWriter {
                let path = "/w\(worker)/r\(index)/v"
                if index.isMultiple(of: 2) {
                    #expect(throws: RouteError.notFound(path: path)) { try table.match(path) }
                } else {
                    #expect(try table.match(path).target == index)
                }
            }
        }
    }
}
