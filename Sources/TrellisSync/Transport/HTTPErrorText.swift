import Foundation
import TrellisCore

/// An HTTP error answer as a person reads it: the status's reason phrase and a short
/// plain-text excerpt of the body — a JSON body as compact JSON, a text body with its
/// whitespace folded, an HTML page (a proxy's, a framework's error page) as the text it
/// shows, tags, scripts, styles and the head left out, entities decoded.
///
/// ```swift
/// assert(HTTPErrorText.reasonPhrase(502) == "Bad Gateway")
/// assert(HTTPErrorText.excerpt(of: .string("<html><body><h1>502 Bad Gateway</h1>\n</body></html>"))
///        == "502 Bad Gateway")
/// ```
enum HTTPErrorText {
    /// How many characters of the body an excerpt keeps.
    static let excerptLength = 200

    /// The standard reason phrase of `status` (RFC 9110 and the common extensions), if any.
    static func reasonPhrase(_ status: Int) -> String? { reasonPhrases[status] }

    /// The body as one line of plain text, at most ``excerptLength`` characters (an ellipsis
    /// marks a cut); `nil` when nothing readable is left.
    static func excerpt(of body: JSONValue) -> String? {
        let text: String
        switch body {
        case .null: return nil
        case .string(let raw): text = looksLikeHTML(raw) ? visibleText(ofHTML: raw) : raw
        default: text = body.jsonString
        }
        let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !folded.isEmpty else { return nil }
        return folded.count > excerptLength ? String(folded.prefix(excerptLength - 1)) + "…" : folded
    }

    /// Whether `text` is an HTML document or fragment rather than plain text.
    static func looksLikeHTML(_ text: String) -> Bool {
        let start = text.drop { $0.isWhitespace }.prefix(200).lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.hasPrefix("<head")
            || start.hasPrefix("<body") || (start.hasPrefix("<") && text.contains("</"))
    }

    /// The text an HTML page shows: its `<body>` (the whole page without one), with the
    /// contents of `script`, `style`, `head` and `title` elements and comments left out,
    /// tags taken out (a block tag stands for a space) and entities decoded.
    static func visibleText(ofHTML html: String) -> String {
        var text = html
        for element in ["head", "script", "style", "title"] {
            text = text.replacingOccurrences(of: "<\(element)\\b[^>]*>[\\s\\S]*?</\(element)\\s*>", with: " ",
                                             options: [.regularExpression, .caseInsensitive])
        }
        text = text.replacingOccurrences(of: "<!--[\\s\\S]*?-->", with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        return decodingEntities(text)
    }

    /// `text` with the common named entities and numeric character references decoded.
    static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let candidate = rest[ampersand...].prefix(12)
            if let semicolon = candidate.firstIndex(of: ";"),
               let decoded = entity(String(candidate[candidate.index(after: ampersand)..<semicolon]))
            {
                result.append(decoded)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest[rest.index(after: ampersand)...]
            }
        }
        return result + rest
    }

    private static func entity(_ name: String) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            let number = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            return number.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }

    private static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency",
        425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 507: "Insufficient Storage",
        508: "Loop Detected", 511: "Network Authentication Required",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
    ]
}
