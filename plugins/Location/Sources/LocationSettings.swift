import Foundation
import TrellisPluginSDK

/// The plugin's settings (its manifest's `"settings"`, edited on the Settings page) as they
/// bear on the `location` service: with `source` left at `app`, the service runs with the
/// options it was started with; `fixed` takes the `position` setting ("48.8584, 2.2945"),
/// `track` the `track` file, each every `interval` seconds.
///
/// ```swift
/// let options = try LocationSettings.options(started: ["interval": 2, "track": "/…/track-demo.json"],
///                                            settings: host.settings)
/// ```
enum LocationSettings {
    /// The options the service runs with: `started` unless the settings choose a source.
    /// Whether the settings choose the source (a fixed position or a track) over the app's options.
    static func choosesSource(_ settings: JSONValue) -> Bool {
        ["fixed", "track"].contains(settings["source"]?.stringValue ?? "app")
    }

    static func options(started: JSONValue, settings: JSONValue) throws(LocationOptionsError) -> LocationOptions {
        let interval = JSONValue.number(Double(settings["interval"]?.intValue ?? 5))
        switch settings["source"]?.stringValue {
        case "fixed":
            let text = settings["position"]?.stringValue ?? ""
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let latitude = parts[0], let longitude = parts[1] else {
                throw .invalid(key: "position", reason: "must read \"latitude, longitude\" in degrees, such as \"48.8584, 2.2945\" (it is \"\(text)\")")
            }
            return try LocationOptions(["interval": interval, "latitude": .number(latitude), "longitude": .number(longitude)])
        case "track":
            let path = settings["track"]?.stringValue ?? ""
            guard !path.isEmpty else { throw .invalid(key: "track", reason: "is empty: choose a track file in Settings") }
            return try LocationOptions(["interval": interval, "track": .string(path)])
        default:
            return try LocationOptions(started)
        }
    }
}
