import Foundation
import PropertyBased
import Testing
import TrellisCore

/// Route patterns and paths from hostile pieces: parsing and matching never crash, errors name
/// the input, and every match is consistent.
@Suite("Fuzz: routes")
struct RouteFuzzTests {
    @Test("any text is either a valid pattern or an invalidPattern error naming it")
    func patterns() async {
        await propertyCheck(count: 3000, input: Hostile.path) { text in
            await Hostile.yieldToOtherTests()
            do {
                let pattern = try RoutePattern(text)
                #expect(pattern.text == text)
            } catch let error as RouteError {
                guard case .invalidPattern(let named, _) = error else {
                    Issue.record("unexpected error \(error) for \(text.debugDescription)")
                    return
                }
                #expect(named == text)
            } catch {
                Issue.record("untyped error \(error)")
            }
        }
    }

    @Test("matching any path against a table of tricky patterns returns a match or a typed error")
    func paths() async throws {
        let table = RouteTable<Int>()
        for (index, pattern) in ["/", "/notes", "/notes/:id", "/notes/:id/edit", "/files/*rest", "/б/:name", "/a/:x/c", "/a/b/d"].enumerated() {
            try table.add(pattern, owner: "fuzz", target: index)
        }
        await propertyCheck(count: 5000, input: Hostile.path) { path in
            await Hostile.yieldToOtherTests()
            do {
                let match = try table.match(path)
                #expect(match.path.hasPrefix("/"))
                #expect(!match.path.contains("?"), "the query is never part of the matched path")
                for value in match.parameters.values { #expect(!value.contains("\u{0}"), "a NUL never reaches a parameter") }
            } catch let error as RouteError {
                switch error {
                case .notFound(let named), .invalidPath(let named, _): #expect(named == path)
                case .invalidPattern: Issue.record("a path gave a pattern error: \(path.debugDescription)")
                }
            } catch {
                Issue.record("untyped error \(error)")
            }
        }
    }

    @Test("a path built from percent-encoded random segments matches its parameter pattern and decodes back")
    func roundTrip() async throws {
        let table = RouteTable<Int>()
        try table.add("/x/:a/:b", owner: "fuzz", target: 1)
        let segment = Gen.element(of: Hostile.pathPieces).array(of: 1...6).map { $0.compactMap { $0 }.joined() }
        await propertyCheck(count: 2000, input: segment, segment) { a, b in
            await Hostile.yieldToOtherTests()
            guard !a.contains("\u{0}"), !b.contains("\u{0}"), a != ".", a != "..", b != ".", b != ".." else { return }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_~".unicodeScalars)
            func encode(_ s: String) -> String {
                s.utf8.map { byte in
                    allowed.contains(Unicode.Scalar(byte)) ? String(Unicode.Scalar(byte)) : String(format: "%%%02X", byte)
                }.joined()
            }
            let match = try? table.match("/x/\(encode(a))/\(encode(b))")
            #expect(match?.parameters["a"] == a, "\(a.debugDescription) / \(b.debugDescription)")
            #expect(match?.parameters["b"] == b)
        }
    }
}
