import Testing
@testable import TrellisCore

/// Routes contributed in a plugin's manifest: read without the plugin's code, each error naming
/// the file and the key.
@Suite("Plugin routes")
struct PluginRouteTests {
    static func manifest(routes: String, activation: String = #"["onStartup"]"#) -> String {
        #"{"id": "weather", "name": "Weather", "version": "1", "abiVersion": 2, "library": "libw.so", "routes": \#(routes), "activation": \#(activation)}"#
    }

    @Test("routes are read with their title, content and visibility; onRoute: names one of them")
    func parsed() throws {
        let text = Self.manifest(routes: #"[{"pattern": "/weather", "title": "Weather", "content": "table", "public": true}, {"pattern": "/weather/:city", "title": "City", "content": "form"}]"#,
                                 activation: #"["onRoute:/weather"]"#)
        let manifest = try PluginManifest(json: try JSONValue(jsonString: text), file: "plugin.json")
        #expect(manifest.routes == [PluginRoute(pattern: try RoutePattern("/weather"), title: "Weather", content: .table, isPublic: true),
                                    PluginRoute(pattern: try RoutePattern("/weather/:city"), title: "City", content: .form)])
        #expect(manifest.activation == [.onRoute("/weather")])
        #expect(try PluginManifest(json: manifest.json, file: "again") == manifest)
    }

    @Test("bad routes are refused naming the file and the key", arguments: [
        (#"{"pattern": "/x"}"#, #"key "routes""#),
        (#"[{"title": "T", "content": "text"}]"#, #"key "routes[0].pattern""#),
        (#"[{"pattern": "x", "title": "T", "content": "text"}]"#, #"key "routes[0].pattern": invalid route pattern"#),
        (#"[{"pattern": "/a", "title": "T", "content": "chart"}]"#, #"key "routes[0].content": "chart" is not one of table, form, text"#),
        (#"[{"pattern": "/a", "title": "T", "content": "text", "public": "yes"}]"#, #"key "routes[0].public""#),
        (#"[{"pattern": "/a", "title": "T", "content": "text", "icon": "x"}]"#, #"key "routes[0].icon": unknown key"#),
        (#"[{"pattern": "/a/:x", "title": "T", "content": "text"}, {"pattern": "/a/:y", "title": "U", "content": "text"}]"#,
         #"key "routes[1].pattern": "/a/:y" is listed twice"#),
        (#"[{"pattern": "/a", "content": "text"}]"#, #"key "routes[0].title""#),
    ])
    func refused(routes: String, expected: String) {
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: Self.manifest(routes: routes)), file: "/p/plugin.json")
        } throws: { error in
            "\(error)".contains("/p/plugin.json") && "\(error)".contains(expected)
        }
    }

    @Test("patterns that match the same paths are found whatever their parameters are called")
    func samePaths() throws {
        #expect(try RoutePattern("/a/:x").matchesSamePaths(as: RoutePattern("/a/:y")))
        #expect(try !RoutePattern("/a/:x").matchesSamePaths(as: RoutePattern("/a/b")))
        #expect(try !RoutePattern("/a/*x").matchesSamePaths(as: RoutePattern("/a/:x")))
    }
}
