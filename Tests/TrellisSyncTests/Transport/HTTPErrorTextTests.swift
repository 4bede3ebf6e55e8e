import Foundation
import Testing
import TrellisCore
@testable import TrellisSync

/// An HTTP error reads as a person would say it: the status, its reason phrase and the text
/// the server's page shows — never the page's HTML source with escaped newlines.
@Suite("HTTP error text")
struct HTTPErrorTextTests {
    static let url = URL(string: "http://127.0.0.1:8000/notes")!

    /// Error pages as real servers send them (byte for byte, newlines included).
    static let pages: [(server: String, status: Int, page: String, expected: String)] = [
        ("nginx", 502,
         "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
            + "<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n",
         "GET http://127.0.0.1:8000/notes: the server answered HTTP 502: Bad Gateway: 502 Bad Gateway nginx/1.22.1"),
        ("Django, DEBUG off", 404,
         "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1>"
            + "<p>The requested resource was not found on this server.</p>\n</body>\n</html>\n",
         "GET http://127.0.0.1:8000/notes: the server answered HTTP 404: Not Found: Not Found The requested resource was not found on this server."),
        ("Python's http.server", 501,
         "<!DOCTYPE HTML>\n<html lang=\"en\">\n    <head>\n        <meta charset=\"utf-8\">\n        <title>Error response</title>\n"
            + "    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 501</p>\n"
            + "        <p>Message: Unsupported method (&#x27;PATCH&#x27;).</p>\n"
            + "        <p>Error code explanation: 501 - Server does not support this operation.</p>\n    </body>\n</html>\n",
         "GET http://127.0.0.1:8000/notes: the server answered HTTP 501: Not Implemented: Error response Error code: 501 "
            + "Message: Unsupported method ('PATCH'). Error code explanation: 501 - Server does not support this operation."),
    ]

    @Test("an error page from nginx, Django or Python's http.server reads as its status, reason and visible text",
          arguments: 0..<3)
    func errorPages(index: Int) {
        let (server, status, page, expected) = Self.pages[index]
        let error = SyncError.httpStatus(method: .get, url: Self.url, status: status, body: .string(page))
        #expect(error.description == expected, "\(server)")
        #expect(!error.description.contains("\\n") && !error.description.contains("<"), "\(server)")
    }

    @Test("scripts, styles and comments are left out, entities decoded, a long page cut to an excerpt")
    func pageText() {
        let page = "<html><head><style>body { color: red }</style></head><body><!-- debug -->"
            + "<script>var x = \"<p>\";</script><p>Tom &amp; Jerry &lt;3 &quot;caf&#233;&quot;&nbsp;&#x2713;</p>"
            + "<p>" + String(repeating: "word ", count: 100) + "</p></body></html>"
        let excerpt = HTTPErrorText.excerpt(of: .string(page)) ?? ""
        #expect(excerpt.hasPrefix("Tom & Jerry <3 \"café\" ✓ word word"))
        #expect(excerpt.count == HTTPErrorText.excerptLength && excerpt.hasSuffix("…"))
    }

    @Test("a JSON body stays compact JSON, a text body is folded to one line, an empty body adds nothing")
    func otherBodies() {
        let json = SyncError.httpStatus(method: .put, url: Self.url, status: 422, body: ["title": ["This field is required."]])
        #expect(json.description == #"PUT http://127.0.0.1:8000/notes: the server answered HTTP 422: Unprocessable Content: {"title":["This field is required."]}"#)
        let text = SyncError.httpStatus(method: .get, url: Self.url, status: 503, body: .string("Down for\n  maintenance.\n"))
        #expect(text.description == "GET http://127.0.0.1:8000/notes: the server answered HTTP 503: Service Unavailable: Down for maintenance.")
        let empty = SyncError.httpStatus(method: .delete, url: Self.url, status: 599, body: .null)
        #expect(empty.description == "DELETE http://127.0.0.1:8000/notes: the server answered HTTP 599")
        #expect(HTTPErrorText.excerpt(of: .string("  \n ")) == nil)
        #expect(HTTPErrorText.excerpt(of: .string("a < b and c > d")) == "a < b and c > d")
    }
}
