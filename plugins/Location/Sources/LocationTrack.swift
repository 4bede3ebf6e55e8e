import Foundation
import TrellisPluginSDK

/// One position: degrees and an accuracy radius in metres.
struct LocationPoint: Equatable {
    var latitude: Double
    var longitude: Double
    var accuracy: Double

    /// Why the point is not a valid position, or `nil`.
    var problem: String? {
        guard latitude.isFinite, (-90...90).contains(latitude) else { return "latitude \(latitude) is not within -90...90" }
        guard longitude.isFinite, (-180...180).contains(longitude) else { return "longitude \(longitude) is not within -180...180" }
        guard accuracy.isFinite, accuracy >= 0 else { return "accuracy \(accuracy) is not a distance in metres" }
        return nil
    }

    /// The payload of `location:update`.
    func update(at timestamp: Date) -> JSONValue {
        ["latitude": .number(latitude), "longitude": .number(longitude), "accuracy": .number(accuracy),
         "timestamp": .number(timestamp.timeIntervalSince1970)]
    }

    /// The text of the plugin's status item: "55.75222, 37.61556 ±12 m".
    /// "48.85840, 2.29450 ±15 m", with `decimals` digits after the point (the plugin's setting).
    func statusText(decimals: Int = 5) -> String {
        "\(coordinates(decimals: decimals)) ±\(String(format: "%.0f", accuracy)) m"
    }

    /// "48.85840, 2.29450".
    func coordinates(decimals: Int) -> String {
        String(format: "%.\(decimals)f, %.\(decimals)f", latitude, longitude)
    }
}

/// A recorded track to replay: `{"name": "...", "points": [{"latitude": .., "longitude": .., "accuracy": ..}, ...]}`
/// (`accuracy` optional, default 10 metres).
enum LocationTrack {
    /// The track's points, or why the file cannot be used (as the `reason` of `location:error`).
    static func load(path: String) -> Result<[LocationPoint], LocationTrackError> {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            return .failure(.unreadable(reason: error.localizedDescription))
        }
        let json: JSONValue
        do { json = try JSONValue(jsonData: data, source: path) } catch {
            return .failure(.malformed(reason: "not valid JSON"))
        }
        guard let points = json["points"]?.arrayValue else {
            return .failure(.malformed(reason: "key \"points\" must be an array of positions"))
        }
        guard !points.isEmpty else { return .failure(.malformed(reason: "the track has no points")) }
        var track: [LocationPoint] = []
        for (index, point) in points.enumerated() {
            guard let latitude = point["latitude"]?.doubleValue, let longitude = point["longitude"]?.doubleValue else {
                return .failure(.malformed(reason: "point \(index) needs numeric \"latitude\" and \"longitude\""))
            }
            let position = LocationPoint(latitude: latitude, longitude: longitude,
                                         accuracy: point["accuracy"]?.doubleValue ?? 10)
            if let problem = position.problem { return .failure(.malformed(reason: "point \(index): \(problem)")) }
            track.append(position)
        }
        return .success(track)
    }
}

/// Why a track file cannot be replayed.
enum LocationTrackError: Error, CustomStringConvertible, Equatable {
    case unreadable(reason: String)
    case malformed(reason: String)

    var description: String {
        switch self {
        case .unreadable(let reason): return "cannot read the track: \(reason)"
        case .malformed(let reason): return "malformed track: \(reason)"
        }
    }
}
