import Foundation

extension PushNotification {
    /// The largest badge count accepted (a badge is a count people read, not an identifier).
    public static let maximumBadge = 999_999

    /// Reads the payload file at `url`. Errors name the file and the key at fault.
    public init(contentsOf url: URL) throws(NotificationPayloadError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .unreadable(source: url.path, reason: "it is a folder, not a file")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(source: url.path, reason: Self.reason(error))
        }
        try self.init(jsonData: data, source: url.path)
    }

    /// Parses payload JSON text; `source` names it in errors (a file path, "D-Bus").
    public init(jsonData data: Data, source: String) throws(NotificationPayloadError) {
        let json: JSONValue
        do { json = try JSONValue(jsonData: data, source: source) } catch {
            if case JSONValueError.malformed(_, let reason) = error { throw .malformed(source: source, reason: reason) }
            throw .malformed(source: source, reason: String(describing: error))
        }
        try self.init(json: json, source: source)
    }

    /// Reads a payload from a JSON value; `source` names it in errors.
    public init(json: JSONValue, source: String) throws(NotificationPayloadError) {
        guard case .object(var root) = json else {
            throw .wrongType(source: source, key: "the payload", expected: "an object", found: Self.kind(of: json))
        }
        guard let apsValue = root.removeValue(forKey: "aps") else { throw .missingKey(source: source, key: "aps") }
        guard case .object(let aps) = apsValue else {
            throw .wrongType(source: source, key: "aps", expected: "an object", found: Self.kind(of: apsValue))
        }
        if let unknown = aps.keys.sorted().first(where: { !Self.apsKeys.contains($0) }) {
            throw .unknownKey(source: source, key: "aps.\(unknown)", allowed: Self.apsKeys)
        }
        var notification = PushNotification(custom: root)
        if let alert = aps["alert"] { notification.alert = try Self.alert(from: alert, source: source) }
        if let badge = aps["badge"] { notification.badge = try Self.badge(from: badge, source: source) }
        if let sound = aps["sound"] {
            guard case .string(let name) = sound else {
                throw .wrongType(source: source, key: "aps.sound", expected: "a string", found: Self.kind(of: sound))
            }
            notification.sound = name
        }
        if let flag = aps["content-available"] { notification.contentAvailable = try Self.flag(from: flag, source: source) }
        self = notification
    }

    private static func alert(from value: JSONValue, source: String) throws(NotificationPayloadError) -> Alert {
        switch value {
        case .string(let body):
            return Alert(body: body)
        case .object(let alert):
            if let unknown = alert.keys.sorted().first(where: { !alertKeys.contains($0) }) {
                throw .unknownKey(source: source, key: "aps.alert.\(unknown)", allowed: alertKeys)
            }
            guard let bodyValue = alert["body"] else { throw .missingKey(source: source, key: "aps.alert.body") }
            guard case .string(let body) = bodyValue else {
                throw .wrongType(source: source, key: "aps.alert.body", expected: "a string", found: kind(of: bodyValue))
            }
            switch alert["show-view"] {
            case nil, .bool(true)?:
                return Alert(body: body, showView: .show)
            case .bool(false)?:
                return Alert(body: body, showView: .hide)
            case .string(let path)?:
                guard path.hasPrefix("/") else {
                    throw .invalidValue(source: source, key: "aps.alert.show-view", expected: "a route path starting with /",
                                        found: "\"\(path)\"")
                }
                return Alert(body: body, showView: .open(path: path))
            case let other?:
                throw .wrongType(source: source, key: "aps.alert.show-view", expected: "true, false or a route path",
                                 found: kind(of: other))
            }
        default:
            throw .wrongType(source: source, key: "aps.alert", expected: "a string or an object {body, show-view}",
                             found: kind(of: value))
        }
    }

    private static func badge(from value: JSONValue, source: String) throws(NotificationPayloadError) -> Int {
        guard case .number(let number) = value else {
            throw .wrongType(source: source, key: "aps.badge", expected: "an integer", found: kind(of: value))
        }
        guard let badge = value.intValue, (0...maximumBadge).contains(badge) else {
            throw .invalidValue(source: source, key: "aps.badge", expected: "an integer from 0 to \(maximumBadge)",
                                found: JSONValue.number(number).jsonString)
        }
        return badge
    }

    private static func flag(from value: JSONValue, source: String) throws(NotificationPayloadError) -> Bool {
        guard case .number = value else {
            throw .wrongType(source: source, key: "aps.content-available", expected: "the number 0 or 1", found: kind(of: value))
        }
        switch value.intValue {
        case 0?: return false
        case 1?: return true
        default:
            throw .invalidValue(source: source, key: "aps.content-available", expected: "0 or 1", found: value.jsonString)
        }
    }

    /// A JSON value's kind and, for short scalars, the value itself, for error messages.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "the boolean \(flag)"
        case .number: return "the number \(value.jsonString)"
        case .string(let text): return text.count > 40 ? "a string" : "the string \(value.jsonString)"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default: return error.localizedDescription
        }
    }
}
