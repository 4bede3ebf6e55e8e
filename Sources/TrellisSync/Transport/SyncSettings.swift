import Foundation
import TrellisCore

/// How ``BasicSync`` talks to a server: where, with which credentials, how patiently.
///
/// ```swift
/// var settings = SyncSettings()
/// settings.server = URL(string: "https://notes.example/api")
/// settings.bearerToken = "s3cret"            // sent as `Authorization: Bearer s3cret`
/// settings.timeout = 10                      // seconds per attempt
/// settings.retries = 2                       // GET, PUT and DELETE only
/// let sync = BasicSync(settings: settings, bus: bus)
/// ```
///
/// The same settings read from the app's settings file (see ``init(json:source:)``):
///
/// ```json
/// { "server": "https://notes.example/api", "token": "s3cret", "timeout": 10, "retries": 2,
///   "backoff": 0.5, "allowInsecureHosts": ["notes.lan"] }
/// ```
public struct SyncSettings: Sendable, Hashable {
    /// The server's base URL; the notes collection is `<server>/notes`. `nil`: local only.
    public var server: URL?
    /// Sent as `Authorization: Bearer <token>` on every request when set.
    public var bearerToken: String?
    /// Seconds one attempt may take, from sending to the whole answer.
    public var timeout: TimeInterval
    /// How many times an idempotent request (GET, PUT, DELETE) is sent again after a
    /// transient failure (see ``SyncError/isTransient``). POST and PATCH are sent once.
    public var retries: Int
    /// Seconds before the first retry; each further retry waits twice as long, up to
    /// ``maximumBackoff``.
    public var backoff: TimeInterval
    /// The longest wait between two attempts, in seconds.
    public var maximumBackoff: TimeInterval
    /// Hosts that may be reached over plain HTTP although they are not loopback. Every
    /// other host needs HTTPS; loopback (127.0.0.0/8, ::1, localhost) is always allowed.
    public var allowInsecureHosts: Set<String>

    /// Settings with these values; the defaults suit a server on the internet.
    public init(server: URL? = nil, bearerToken: String? = nil, timeout: TimeInterval = 15, retries: Int = 2,
                backoff: TimeInterval = 0.5, maximumBackoff: TimeInterval = 8, allowInsecureHosts: Set<String> = [])
    {
        self.server = server
        self.bearerToken = bearerToken
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.maximumBackoff = maximumBackoff
        self.allowInsecureHosts = allowInsecureHosts
    }

    /// Reads settings from a JSON object; absent keys keep their defaults. Keys: `server`
    /// (URL text), `token`, `timeout`, `retries`, `backoff`, `maximumBackoff` (numbers),
    /// `allowInsecureHosts` (array of host names).
    ///
    /// - Parameter source: names the settings file or key in errors.
    /// - Throws: ``SyncSettingsError`` naming the key and what was wrong with it.
    public init(json: JSONValue, source: String) throws(SyncSettingsError) {
        self.init()
        guard let object = json.objectValue else {
            throw .invalidValue(source: source, key: nil, expected: "an object", found: json)
        }
        func number(_ key: String, atLeast minimum: Double) throws(SyncSettingsError) -> Double? {
            guard let value = object[key] else { return nil }
            guard let number = value.doubleValue, number >= minimum, number.isFinite else {
                throw .invalidValue(source: source, key: key, expected: "a number of at least \(minimum)", found: value)
            }
            return number
        }
        if let value = object["server"] {
            guard let text = value.stringValue, let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw .invalidValue(source: source, key: "server", expected: "an absolute http(s) URL", found: value)
            }
            server = url
        }
        if let value = object["token"] {
            guard let token = value.stringValue, !token.isEmpty, !token.contains(where: \.isNewline) else {
                // The value is not echoed: it may be most of a secret.
                throw .invalidValue(source: source, key: "token", expected: "a non-empty single-line string",
                                    found: .string("(hidden)"))
            }
            bearerToken = token
        }
        timeout = try number("timeout", atLeast: 0.001) ?? timeout
        if let value = object["retries"] {
            guard let retries = value.intValue, retries >= 0 else {
                throw .invalidValue(source: source, key: "retries", expected: "a whole number of at least 0", found: value)
            }
            self.retries = retries
        }
        backoff = try number("backoff", atLeast: 0) ?? backoff
        maximumBackoff = try number("maximumBackoff", atLeast: 0) ?? maximumBackoff
        if let value = object["allowInsecureHosts"] {
            guard let hosts = value.arrayValue?.compactMap(\.stringValue), hosts.count == value.arrayValue?.count else {
                throw .invalidValue(source: source, key: "allowInsecureHosts", expected: "an array of host names",
                                    found: value)
            }
            allowInsecureHosts = Set(hosts.map { $0.lowercased() })
        }
    }

    /// The wait before retry number `retry` (1 for the first retry).
    public func delay(beforeRetry retry: Int) -> TimeInterval {
        min(maximumBackoff, backoff * pow(2, Double(max(0, retry - 1))))
    }

    /// Throws ``SyncError/refusedURL(method:url:reason:)`` unless `url` may be used: HTTPS,
    /// or HTTP to a loopback host or a host in ``allowInsecureHosts``.
    public func check(_ url: URL, for method: SyncRequest.Method) throws(SyncError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw .refusedURL(method: method, url: url, reason: "only http and https URLs are supported")
        }
        guard let host = url.host?.lowercased(), !host.isEmpty else {
            throw .refusedURL(method: method, url: url, reason: "the URL names no host")
        }
        if scheme == "http", !Self.isLoopback(host: host), !allowInsecureHosts.contains(host) {
            throw .refusedURL(method: method, url: url,
                              reason: "plain HTTP to '\(host)' is not allowed: use https, or list the host in allowInsecureHosts")
        }
    }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or
    /// the IPv6 loopback `::1` (with or without brackets).
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }
}

/// A sync setting that cannot be used.
public enum SyncSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `key` (or the settings themselves when `nil`) in `source` does not hold what it should.
    case invalidValue(source: String, key: String?, expected: String, found: JSONValue)

    public var description: String {
        switch self {
        case .invalidValue(let source, let key, let expected, let found):
            let place = key.map { "\(source): '\($0)'" } ?? source
            return "\(place): expected \(expected), found \(found.jsonString)"
        }
    }
}
