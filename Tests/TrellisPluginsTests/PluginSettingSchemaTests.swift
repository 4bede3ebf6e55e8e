import Testing
@testable import TrellisPlugins
import TrellisCore

/// What a manifest's `"settings"` may say beyond bool, int, string and path: choices with
/// titles people read (the stored value stays the manifest's), and a position that must parse.
/// Manifests written before either keep loading as they did.
@Suite("Plugin setting schema")
struct PluginSettingSchemaTests {
    private func settings(_ json: String) throws -> [PluginSetting] {
        let text = #"{"id": "p", "name": "P", "version": "1", "abiVersion": 2, "library": "libp.so", "settings": \#(json)}"#
        return try PluginManifest(json: try JSONValue(jsonString: text), file: "/p/plugin.json").settings
    }

    @Test("a choice may title its values; plain values still read, titled by themselves")
    func titledChoices() throws {
        let setting = try #require(try settings(#"""
            [{"key": "source", "type": "choice", "default": "app", "title": "Positions from",
              "choices": [{"value": "app", "title": "The app’s choice"}, "fixed", {"value": "track", "title": "A track file"}]}]
            """#).first)
        #expect(setting.kind == .choice(["app", "fixed", "track"]))
        #expect(["app", "fixed", "track"].map(setting.title(ofChoice:)) == ["The app’s choice", "fixed", "A track file"])
        #expect(setting.check("fixed") == .success("fixed"))
        #expect(setting.check("The app’s choice") == .failure(.init(key: "source", reason: "must be one of The app’s choice, fixed, A track file")))
        #expect(setting.json["choices"] == [["value": "app", "title": "The app’s choice"], "fixed", ["value": "track", "title": "A track file"]])
        let old = try #require(try settings(#"[{"key": "u", "type": "choice", "choices": ["metric", "imperial"], "default": "metric", "title": "U"}]"#).first)
        #expect(old.choiceTitles.isEmpty && old.title(ofChoice: "metric") == "metric")
    }

    @Test("a position reads as latitude, longitude in degrees, on Earth", arguments: [
        ("48.8584, 2.2945", true), ("-33.8568,151.2153", true), (" 90 , -180 ", true), ("0, 0", true),
        ("north pole", false), ("91, 0", false), ("0, 181", false), ("48.8584", false), ("1, 2, 3", false), ("", false), ("48,8584; 2,2945", false),
    ])
    func position(text: String, valid: Bool) throws {
        let setting = try #require(try settings(#"[{"key": "home", "type": "position", "default": "48.8584, 2.2945", "title": "Home"}]"#).first)
        #expect(setting.kind == .position)
        switch setting.check(.string(text)) {
        case .success: #expect(valid, "\(text) was accepted")
        case .failure(let error):
            #expect(!valid, "\(text) was refused")
            #expect(error.reason.contains("latitude from -90 to 90 and a longitude from -180 to 180"))
        }
    }

    @Test("a bad choice or position in a manifest is refused naming the key", arguments: [
        (#"[{"key": "a", "type": "choice", "default": "x", "title": "A", "choices": [{"value": "x"}]}]"#, #"key "settings[0].choices[0]""#),
        (#"[{"key": "a", "type": "choice", "default": "x", "title": "A", "choices": ["x", {"value": "x", "title": "X"}]}]"#,
         #"key "settings[0].choices[1]": "x" is listed twice"#),
        (#"[{"key": "a", "type": "choice", "default": "x", "title": "A", "choices": [{"value": "x", "title": "X", "colour": 1}]}]"#,
         #"key "settings[0].choices[0]""#),
        (#"[{"key": "a", "type": "position", "default": "north pole", "title": "A"}]"#, #"key "settings[0].default": must be a latitude"#),
    ])
    func badManifest(json: String, expected: String) {
        #expect {
            try settings(json)
        } throws: { error in
            "\(error)".contains("/p/plugin.json") && "\(error)".contains(expected)
        }
    }
}
