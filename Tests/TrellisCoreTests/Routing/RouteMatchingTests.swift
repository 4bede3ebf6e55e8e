import Testing
@testable import TrellisCore

/// One row of the matching table: a path and what the fixture table must answer.
struct MatchCase: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// Matches the pattern written as `pattern` with these merged parameters and this query.
        case match(pattern: String, parameters: [String: String], query: [String: String])
        case notFound
        /// `RouteError.invalidPath` whose reason contains this text.
        case invalid(reasonContaining: String)
    }

    let path: String
    let outcome: Outcome

    var testDescription: String { RouteError.quoted(path) }

    static func match(_ path: String, _ pattern: String, _ parameters: [String: String] = [:], query: [String: String] = [:]) -> MatchCase {
        MatchCase(path: path, outcome: .match(pattern: pattern, parameters: parameters, query: query))
    }

    static func notFound(_ path: String) -> MatchCase {
        MatchCase(path: path, outcome: .notFound)
    }

    static func invalid(_ path: String, _ reason: String) -> MatchCase {
        MatchCase(path: path, outcome: .invalid(reasonContaining: reason))
    }
}

@Suite("Route matching")
struct RouteMatchingTests {
    /// The patterns every case is matched against; each route's target is its pattern text.
    static let patterns = [
        "/", "/notes", "/notes/:id", "/notes/new", "/notes/:id/edit",
        "/files", "/files/*path",
        "/a/:x/c", "/a/b/d",
        "/users/:user/posts/:post", "/users/me/posts/:post",
        "/каталог/:genre", "/caf%C3%A9/menu", "/time/10%3A30",
        "/docs/*rest", "/docs/guide/:page", "/docs/:section/intro",
        "/x/:p/end", "/x/:p/*rest",
        "/shadow/:first", "/shadow/:second",
        "/search",
    ]

    /// One table shared by every case (matching does not change it).
    static let table = Result { () throws(RouteError) -> RouteTable<String> in
        let table = RouteTable<String>()
        for pattern in patterns {
            try table.add(pattern, owner: "fixture", target: pattern)
        }
        return table
    }

    static let cases: [MatchCase] = [
        // Literals, parameters and the root.
        .match("/", "/"),
        .match("/notes", "/notes"),
        .match("/notes/42", "/notes/:id", ["id": "42"]),
        .match("/notes/42/edit", "/notes/:id/edit", ["id": "42"]),
        .notFound("/notes/42/other"),
        .notFound("/nowhere"),
        .notFound("/NOTES"),
        // Trailing slashes.
        .match("/notes/", "/notes"),
        .match("/notes/42/", "/notes/:id", ["id": "42"]),
        .match("/files/", "/files"),
        // Precedence: literal over parameter over splat, with backtracking, then registration order.
        .match("/notes/new", "/notes/new"),
        .match("/notes/new/edit", "/notes/:id/edit", ["id": "new"]),
        .match("/a/b/c", "/a/:x/c", ["x": "b"]),
        .match("/a/b/d", "/a/b/d"),
        .match("/a/z/c", "/a/:x/c", ["x": "z"]),
        .notFound("/a/b"),
        .match("/users/me/posts/7", "/users/me/posts/:post", ["post": "7"]),
        .match("/users/bob/posts/7", "/users/:user/posts/:post", ["user": "bob", "post": "7"]),
        .match("/docs/guide/intro", "/docs/guide/:page", ["page": "intro"]),
        .match("/docs/api/intro", "/docs/:section/intro", ["section": "api"]),
        .match("/docs/api/other", "/docs/*rest", ["rest": "api/other"]),
        .match("/docs/guide/a/b", "/docs/*rest", ["rest": "guide/a/b"]),
        .match("/x/1/end", "/x/:p/end", ["p": "1"]),
        .match("/x/1/more/end", "/x/:p/*rest", ["p": "1", "rest": "more/end"]),
        .match("/shadow/1", "/shadow/:first", ["first": "1"]),
        // Splats take one segment or more.
        .match("/files", "/files"),
        .match("/files/a", "/files/*path", ["path": "a"]),
        .match("/files/a/b/c.txt", "/files/*path", ["path": "a/b/c.txt"]),
        .match("/files/a%20b/c%2Fd", "/files/*path", ["path": "a b/c/d"]),
        // Percent-encoding and Unicode.
        .match("/notes/a%2Fb", "/notes/:id", ["id": "a/b"]),
        .match("/notes/a%2Fb/edit", "/notes/:id/edit", ["id": "a/b"]),
        .match("/notes/%D0%B8%D0%B4", "/notes/:id", ["id": "ид"]),
        .match("/notes/a+b", "/notes/:id", ["id": "a+b"]),
        .match("/каталог/фэнтези", "/каталог/:genre", ["genre": "фэнтези"]),
        .match("/%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3/%D1%84%D1%8D%D0%BD%D1%82%D0%B5%D0%B7%D0%B8",
               "/каталог/:genre", ["genre": "фэнтези"]),
        .match("/café/menu", "/caf%C3%A9/menu"),
        .match("/caf%c3%a9/menu", "/caf%C3%A9/menu"),
        .match("/cafe\u{301}/menu", "/caf%C3%A9/menu"),
        .match("/time/10:30", "/time/10%3A30"),
        .match("/time/10%3a30", "/time/10%3A30"),
        // Query strings and fragments.
        .match("/notes/42?tab=history", "/notes/:id", ["id": "42", "tab": "history"], query: ["tab": "history"]),
        .match("/notes/42?id=9&tab=x", "/notes/:id", ["id": "42", "tab": "x"], query: ["id": "9", "tab": "x"]),
        .match("/search?q=caf%C3%A9+au+lait", "/search", ["q": "café au lait"], query: ["q": "café au lait"]),
        .match("/search?a=1&a=2", "/search", ["a": "2"], query: ["a": "2"]),
        .match("/search?flag&x=", "/search", ["flag": "", "x": ""], query: ["flag": "", "x": ""]),
        .match("/search?=v&&k=v%3Dw", "/search", ["k": "v=w"], query: ["k": "v=w"]),
        .match("/search?", "/search"),
        .match("/search#top", "/search"),
        .match("/search?q=1#frag?x=2", "/search", ["q": "1"], query: ["q": "1"]),
        .match("/notes/42/#x", "/notes/:id", ["id": "42"]),
        // Length limit: 4096 bytes is accepted.
        .match("/files/" + String(repeating: "a", count: 4089), "/files/*path", ["path": String(repeating: "a", count: 4089)]),
        // Invalid paths.
        .invalid("", "must start with \"/\""),
        .invalid("notes/42", "must start with \"/\""),
        .invalid("?q=1", "must start with \"/\""),
        .invalid("/notes/..", "\"..\" segments are not allowed"),
        .invalid("/notes/./42", "\"..\" segments are not allowed"),
        .invalid("/notes/%2E%2E", "\"..\" segments are not allowed"),
        .invalid("/notes/a\0b", "control character U+0000"),
        .invalid("/notes/a\nb", "control character U+000A"),
        .invalid("/search#a\u{7F}", "control character U+007F"),
        .invalid("/notes/%00", "NUL"),
        .invalid("/notes/%zz", "not followed by two hex digits"),
        .invalid("/notes/%4", "not followed by two hex digits"),
        .invalid("/notes/%", "not followed by two hex digits"),
        .invalid("/notes/%FF", "does not decode to UTF-8"),
        .invalid("/notes/%D0", "does not decode to UTF-8"),
        .invalid("/notes//42", "empty segment"),
        .invalid("/notes//", "empty segment"),
        .invalid("//", "empty segment"),
        .invalid("/search?q=%zz", "query parameter \"q=%zz\""),
        .invalid("/files/" + String(repeating: "a", count: 4090), "4097 bytes is longer than the limit of 4096"),
    ]

    @Test("a path matches the pattern the precedence rules choose", arguments: cases)
    func matches(_ testCase: MatchCase) throws {
        let table = try Self.table.get()
        switch testCase.outcome {
        case let .match(pattern, parameters, query):
            let match = try table.match(testCase.path)
            #expect(match.target == pattern)
            #expect(match.pattern.text == pattern)
            #expect(match.parameters == parameters)
            #expect(match.query == query)
        case .notFound:
            #expect(throws: RouteError.notFound(path: testCase.path)) { try table.match(testCase.path) }
        case .invalid(let expectedReason):
            do {
                let match = try table.match(testCase.path)
                Issue.record("expected an invalid path, matched \(match.pattern)")
            } catch {
                guard case let .invalidPath(path, reason) = error else {
                    Issue.record("expected invalidPath, got \(error)")
                    return
                }
                #expect(path == testCase.path)
                #expect(reason.contains(expectedReason), "reason: \(reason)")
            }
        }
    }
}
