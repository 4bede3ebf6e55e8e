import Foundation
import TrellisPluginSDK

/// The `location` service's start options.
///
/// ```json
/// {"interval": 2, "latitude": 48.8584, "longitude": 2.2945, "accuracy": 15}
/// {"interval": 1, "track": "/usr/share/trellis/data/track-demo.json"}
/// ```
///
/// `interval` (seconds, default 1) is the time between updates. Either a fixed position
/// (`latitude`, `longitude`, optional `accuracy` in metres, default 10) or `track`, the path of
/// a track file replayed point by point (a relative path is resolved against the working
/// directory; the app passes an absolute one).
struct LocationOptions: Equatable {
    enum Source: Equatable {
        case fixed(LocationPoint)
        case track(path: String)
    }

    var interval: Double
    var source: Source

    init(_ options: JSONValue) throws(LocationOptionsError) {
        guard options.objectValue != nil else { throw .notAnObject }
        interval = try Self.number(options, "interval") ?? 1
        guard interval > 0, interval.isFinite else { throw .invalid(key: "interval", reason: "must be a positive number of seconds") }
        if let track = options["track"], !track.isNull {
            guard let path = track.stringValue, !path.isEmpty else { throw .invalid(key: "track", reason: "must be a file path") }
            source = .track(path: path)
            return
        }
        guard let latitude = try Self.number(options, "latitude"),
              let longitude = try Self.number(options, "longitude") else { throw .noSource }
        let point = LocationPoint(latitude: latitude, longitude: longitude,
                                  accuracy: try Self.number(options, "accuracy") ?? 10)
        if let problem = point.problem { throw .invalid(key: "position", reason: problem) }
        source = .fixed(point)
    }

    private static func number(_ options: JSONValue, _ key: String) throws(LocationOptionsError) -> Double? {
        guard let value = options[key], !value.isNull else { return nil }
        guard let number = value.doubleValue else { throw .invalid(key: key, reason: "must be a number") }
        return number
    }
}

/// Why the `location` service's options were refused (its start fails with this).
enum LocationOptionsError: Error, CustomStringConvertible, Equatable {
    case notAnObject
    case noSource
    case invalid(key: String, reason: String)

    var description: String {
        switch self {
        case .notAnObject:
            return "location options must be a JSON object"
        case .noSource:
            return "location options need either \"latitude\" and \"longitude\", or \"track\""
        case .invalid(let key, let reason):
            return "location option \"\(key)\" \(reason)"
        }
    }
}
