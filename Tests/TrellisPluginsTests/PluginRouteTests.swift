import Testing
@testable import TrellisPlugins
import TrellisCore

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

    @Test("a route outside the plugin's own /<id> needs a contribute grant (exact, or a splat below it); without one it is not the plugin's own",
          arguments: [
            (#"[{"pattern": "/news", "title": "N", "content": "text"}]"#, nil, false),
            (#"[{"pattern": "/news", "title": "N", "content": "text"}]"#, #"{}"#, false),
            (#"[{"pattern": "/news", "title": "N", "content": "text"}]"#, #"{"contribute": ["/news"]}"#, true),
            (#"[{"pattern": "/news/:id", "title": "N", "content": "text"}]"#, #"{"contribute": ["/news/:item"]}"#, true),
            (#"[{"pattern": "/news/:id/comments", "title": "N", "content": "text"}]"#, #"{"contribute": ["/news/*rest"]}"#, true),
            (#"[{"pattern": "/news", "title": "N", "content": "text"}]"#, #"{"contribute": ["/news/*rest"]}"#, false),
            (#"[{"pattern": "/newsroom", "title": "N", "content": "text"}]"#, #"{"contribute": ["/news"]}"#, false),
            (#"[{"pattern": "/weather/today/:hour", "title": "W", "content": "text"}]"#, #"{}"#, true),
            (#"[{"pattern": "/weatherman", "title": "W", "content": "text"}]"#, #"{}"#, false),
          ] as [(String, String?, Bool)])
    func contributeGrant(routes: String, permissions: String?, accepted: Bool) throws {
        var text = Self.manifest(routes: routes)
        if let permissions { text = text.replacingOccurrences(of: #""routes":"#, with: #""permissions": \#(permissions), "routes":"#) }
        let manifest = try PluginManifest(json: try JSONValue(jsonString: text), file: "/p/plugin.json")
        let route = try #require(manifest.routes.first)
        #expect(manifest.permissions.allowsContributing(route.pattern, pluginID: "weather") == accepted)
        // Only a route it may contribute is the plugin's own to open without a navigate grant.
        #expect(manifest.permissions.ownRoutes == (accepted ? [route.pattern.text] : []))
        // Said of a plugin that contributes a page or has a grant.
        if permissions != nil && (accepted || permissions?.contains("contribute") == true) {
            #expect(manifest.permissions.summary(pluginID: "weather").contains("contribute: /weather and below"), "\(manifest.permissions.summary(pluginID: "weather"))")
        }
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
