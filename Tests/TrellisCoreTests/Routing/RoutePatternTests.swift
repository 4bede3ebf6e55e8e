import Testing
@testable import TrellisCore

@Suite("Route patterns")
struct RoutePatternTests {
    @Test("literals, parameters and a splat parse into segments, literals decoded")
    func parsesSegments() throws {
        let pattern = try RoutePattern("/caf%C3%A9/:id/каталог/*rest/")
        #expect(pattern.segments == [.literal("café"), .parameter("id"), .literal("каталог"), .splat("rest")])
        #expect(pattern.text == "/caf%C3%A9/:id/каталог/*rest/")
        #expect(pattern.description == pattern.text)
        #expect(pattern.segments.map(\.description) == ["café", ":id", "каталог", "*rest"])
    }

    @Test("the root pattern has no segments")
    func root() throws {
        #expect(try RoutePattern("/").segments.isEmpty)
    }

    @Test("patterns are equal when their segments are, whatever the spelling")
    func equality() throws {
        #expect(try RoutePattern("/notes/") == RoutePattern("/notes"))
        #expect(try RoutePattern("/caf%C3%A9") == RoutePattern("/café"))
        #expect(try RoutePattern("/a/:x") != RoutePattern("/a/:y"))
        let set: Set<RoutePattern> = [try RoutePattern("/notes/"), try RoutePattern("/notes")]
        #expect(set.count == 1)
    }

    /// A malformed pattern and a text its error reason must contain (usually the segment at fault).
    static let invalidPatterns: [(String, String)] = [
        ("", "must start with \"/\""),
        ("notes/:id", "must start with \"/\""),
        ("/notes/:", "segment \":\": empty parameter name"),
        ("/files/*", "segment \"*\": empty splat name"),
        ("/a/:id/b/:id", "segment \":id\": the name \"id\" is already used"),
        ("/a/:id/*id", "segment \"*id\": the name \"id\" is already used"),
        ("/files/*path/more", "segment \"more\" follows the splat \"*path\""),
        ("/a:b", "segment \"a:b\": \":\" and \"*\" may only begin a segment"),
        ("/a*b", "segment \"a*b\": \":\" and \"*\" may only begin a segment"),
        ("/:1st", "segment \":1st\": a parameter name is ASCII letters"),
        ("/:na-me", "segment \":na-me\": a parameter name is ASCII letters"),
        ("/:имя", "segment \":имя\": a parameter name is ASCII letters"),
        ("/a//b", "empty segment"),
        ("/a/..", "segment \"..\": \".\" and \"..\" segments are not allowed"),
        ("/a/%zz", "segment \"%zz\": \"%\" at byte 0 is not followed by two hex digits"),
        ("/a/%00", "segment \"%00\": \"%00\" encodes a NUL byte"),
        ("/a\tb", "control character U+0009"),
        ("/search?q=1", "a pattern has no query or fragment"),
        ("/page#top", "a pattern has no query or fragment"),
        ("/" + String(repeating: "a", count: 4096), "4097 bytes is longer than the limit of 4096"),
    ]

    @Test("a malformed pattern is rejected with an error naming the pattern and the segment", arguments: invalidPatterns)
    func rejects(_ text: String, _ expectedReason: String) {
        do {
            let pattern = try RoutePattern(text)
            Issue.record("expected an error, parsed \(pattern.segments)")
        } catch {
            guard case let .invalidPattern(pattern, reason) = error else {
                Issue.record("expected invalidPattern, got \(error)")
                return
            }
            #expect(pattern == text)
            #expect(reason.contains(expectedReason), "reason: \(reason)")
        }
    }

    @Test("a literal colon or star is written percent-encoded")
    func encodedColon() throws {
        #expect(try RoutePattern("/%3Aid/%2A").segments == [.literal(":id"), .literal("*")])
    }
}
