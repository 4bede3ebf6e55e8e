import FlyingFox
import Foundation
import TrellisCore

/// The REST logic of ``NotesServer``: `/notes` and `/notes/<id>` with GET, POST, PUT,
/// PATCH and DELETE; `If-Match` checked against the note's version (412 with the current
/// note when it differs); `ETag: "<version>"` on every note answer.
struct NotesHandler: HTTPHandler {
    weak let owner: NotesServer?

    init(owner: NotesServer) {
        self.owner = owner
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let owner else { return Self.answer(503, ["error": "server gone"]) }
        let data = try await request.bodyData
        let body = data.isEmpty ? nil : try? TrellisCore.JSONValue(jsonData: data, source: "request body")
        let authorization = request.headers[HTTPHeader("Authorization")]
        let ifMatch = request.headers[HTTPHeader("If-Match")].flatMap(Self.version(fromETag:))
        let received = NotesServer.Received(method: request.method.rawValue, path: request.path,
                                            authorization: authorization, ifMatch: ifMatch, body: body)
        let (delay, failure, token, malformed) = owner.state.withLock { state in
            state.received.append(received)
            var failure: Int?
            if state.failures.count > 0 {
                state.failures.count -= 1
                failure = state.failures.status
            }
            return (state.delay, failure, state.requiredToken, state.malformed)
        }
        if let delay { try await Task.sleep(for: delay) }
        defer { owner.state.withLock { $0.answered += 1 } }
        if let failure { return Self.answer(failure, ["error": "injected failure"]) }
        if let token, authorization != "Bearer \(token)" { return Self.answer(401, ["error": "bad token"]) }
        let response = owner.state.withLock { state in
            Self.route(request.method.rawValue, path: request.path, body: body, ifMatch: ifMatch, state: &state)
        }
        guard malformed, (200..<300).contains(response.statusCode.code) else { return response }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{\"id\": \"1\", ".utf8))
    }

    private static func route(_ method: String, path: String, body: TrellisCore.JSONValue?, ifMatch: String?,
                              state: inout NotesServer.State) -> HTTPResponse
    {
        let segments = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        guard segments.first == "notes", segments.count <= 2 else { return answer(404, ["error": "no such path"]) }
        guard segments.count == 2 else {
            switch method {
            case "GET":
                return answer(200, .array(state.notes.map(\.json)))
            case "POST":
                guard let attributes = body?.objectValue else { return answer(400, ["error": "expected an object"]) }
                return answer(201, note: state.create(attributes))
            default:
                return answer(405, ["error": "method not allowed"])
            }
        }
        guard let index = state.notes.firstIndex(where: { $0.id == segments[1] }) else {
            return answer(404, ["error": "no such note"])
        }
        let current = state.notes[index]
        if method != "GET", let ifMatch, ifMatch != String(current.version) {
            return answer(412, note: current)
        }
        switch method {
        case "GET":
            return answer(200, note: current)
        case "PUT", "PATCH":
            guard var attributes = body?.objectValue?.filter({ !state.dropsMembers.contains($0.key) }) else {
                return answer(400, ["error": "expected an object"])
            }
            attributes["id"] = nil
            attributes["version"] = nil
            if method == "PUT" {
                state.notes[index].attributes = attributes
            } else {
                state.notes[index].attributes.merge(attributes) { _, new in new }
            }
            state.notes[index].version += 1
            return answer(200, note: state.notes[index])
        case "DELETE":
            state.notes.remove(at: index)
            return HTTPResponse(statusCode: .noContent)
        default:
            return answer(405, ["error": "method not allowed"])
        }
    }

    private static func answer(_ status: Int, note: NotesServer.Note) -> HTTPResponse {
        var response = answer(status, note.json)
        response.headers[.eTag] = "\"\(note.version)\""
        return response
    }

    private static func answer(_ status: Int, _ body: TrellisCore.JSONValue) -> HTTPResponse {
        HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status \(status)"),
                     headers: [.contentType: "application/json"], body: body.jsonData())
    }

    private static func version(fromETag etag: String) -> String? {
        let text = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return text.isEmpty ? nil : text
    }
}
