import TrellisCore

/// A change a plugin announces to the rows of its table page (`<plugin>:page:changed`), in
/// ranges: `{"insert": [start, count]}`, `{"remove": [start, count]}`, `{"update": [start,
/// count]}`, `{"move": [from, to]}`. Positions refer to the table as it is when the change is
/// applied, after the changes before it in the same message.
enum PluginTableChange: Equatable {
    case insert(start: Int, count: Int)
    case remove(start: Int, count: Int)
    case update(start: Int, count: Int)
    case move(from: Int, to: Int)

    init(json: JSONValue) throws(PluginPageError) {
        guard let object = json.objectValue, object.count == 1, let (key, value) = object.first,
              let pair = value.arrayValue, pair.count == 2, let first = pair[0].intValue, let second = pair[1].intValue else {
            throw .malformed("a change must be one of {\"insert\"|\"remove\"|\"update\": [start, count]} or {\"move\": [from, to]}, not \(json)")
        }
        switch key {
        case "insert": self = .insert(start: first, count: second)
        case "remove": self = .remove(start: first, count: second)
        case "update": self = .update(start: first, count: second)
        case "move": self = .move(from: first, to: second)
        default: throw .malformed("unknown change \"\(key)\" (insert, remove, update or move)")
        }
    }
}

/// Why a plugin's page cannot be shown: what the plugin sent, or did not.
public enum PluginPageError: Error, Equatable, CustomStringConvertible {
    /// The plugin sent something the page cannot use.
    case malformed(String)
    /// The plugin did not answer in time.
    case noAnswer(what: String, within: Duration)

    public var description: String {
        switch self {
        case .malformed(let reason): reason
        case .noAnswer(let what, let within): "no answer to \(what) within \(within)"
        }
    }
}
