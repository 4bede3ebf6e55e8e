import Foundation
import Testing
import TrellisCore

/// Reading push-notification payloads: every key of `aps`, in both forms of `alert`.
@Suite("Push notification payloads")
struct PushNotificationParsingTests {
    private func parse(_ json: String) throws(NotificationPayloadError) -> PushNotification {
        try PushNotification(jsonData: Data(json.utf8), source: "push.json")
    }

    @Test("an alert given as a string is shown, with no path to open")
    func stringAlert() throws {
        let notification = try parse(#"{"aps": {"alert": "Новая заметка"}}"#)
        #expect(notification.alert == .init(body: "Новая заметка", showView: .show))
        #expect(notification.showsAlert)
        #expect(notification.destination == nil)
        #expect(notification.badge == nil && notification.sound == nil && !notification.contentAvailable)
    }

    @Test("an alert object's show-view is true, false or a route path to open")
    func alertObject() throws {
        #expect(try parse(#"{"aps": {"alert": {"body": "a"}}}"#).alert?.showView == .show)
        #expect(try parse(#"{"aps": {"alert": {"body": "a", "show-view": true}}}"#).alert?.showView == .show)
        let hidden = try parse(#"{"aps": {"alert": {"body": "a", "show-view": false}}}"#)
        #expect(hidden.alert?.showView == .hide)
        #expect(!hidden.showsAlert)
        let opening = try parse(#"{"aps": {"alert": {"body": "a", "show-view": "/catalog/5"}}}"#)
        #expect(opening.destination == "/catalog/5")
        #expect(opening.showsAlert)
    }

    @Test("badge, sound and content-available are read; keys next to aps are the app's own")
    func otherKeys() throws {
        let notification = try parse(#"{"aps": {"badge": 3, "sound": "bell.oga", "content-available": 1}, "note": 7}"#)
        #expect(notification.badge == 3)
        #expect(notification.sound == "bell.oga")
        #expect(notification.contentAvailable)
        #expect(notification.custom == ["note": 7])
        #expect(notification.alert == nil && !notification.showsAlert)
        #expect(try parse(#"{"aps": {"content-available": 0, "badge": 0}}"#).contentAvailable == false)
    }

    @Test("a payload survives its JSON form unchanged (what a second instance receives)")
    func roundTrip() throws {
        for text in [#"{"aps": {"alert": {"body": "a", "show-view": "/people"}, "badge": 2, "sound": "x", "content-available": 1}, "k": [1]}"#,
                     #"{"aps": {"alert": {"body": "b", "show-view": false}}}"#, #"{"aps": {"alert": "c"}}"#, #"{"aps": {}}"#] {
            let notification = try parse(text)
            #expect(try PushNotification(json: notification.json, source: "again") == notification)
        }
    }

    static let malformed: [(json: String, key: String?, message: String)] = [
        (#"{"aps": "#, nil, "not valid JSON"),
        (#"[1, 2]"#, "the payload", "the payload must be an object, not an array"),
        (#"{"alert": "hi"}"#, "aps", "aps is missing"),
        (#"{"aps": 3}"#, "aps", "aps must be an object, not the number 3"),
        (#"{"aps": {"bagde": 3}}"#, "aps.bagde", "unknown key aps.bagde (allowed: alert, badge, sound, content-available)"),
        (#"{"aps": {"alert": 12}}"#, "aps.alert", "aps.alert must be a string or an object {body, show-view}, not the number 12"),
        (#"{"aps": {"alert": {"show-view": true}}}"#, "aps.alert.body", "aps.alert.body is missing"),
        (#"{"aps": {"alert": {"body": null}}}"#, "aps.alert.body", "aps.alert.body must be a string, not null"),
        (#"{"aps": {"alert": {"body": "a", "title": "b"}}}"#, "aps.alert.title", "unknown key aps.alert.title"),
        (#"{"aps": {"alert": {"body": "a", "show-view": 1}}}"#, "aps.alert.show-view", "true, false or a route path, not the number 1"),
        (#"{"aps": {"alert": {"body": "a", "show-view": "catalog"}}}"#, "aps.alert.show-view", "a route path starting with /, not \"catalog\""),
        (#"{"aps": {"badge": "3"}}"#, "aps.badge", "aps.badge must be an integer, not the string \"3\""),
        (#"{"aps": {"badge": -1}}"#, "aps.badge", "aps.badge must be an integer from 0 to 999999, not -1"),
        (#"{"aps": {"badge": 2.5}}"#, "aps.badge", "not 2.5"),
        (#"{"aps": {"badge": 1e9}}"#, "aps.badge", "from 0 to 999999"),
        (#"{"aps": {"sound": false}}"#, "aps.sound", "aps.sound must be a string, not the boolean false"),
        (#"{"aps": {"content-available": 2}}"#, "aps.content-available", "aps.content-available must be 0 or 1, not 2"),
        (#"{"aps": {"content-available": true}}"#, "aps.content-available", "must be the number 0 or 1, not the boolean true"),
    ]

    @Test("a malformed payload is refused with a message naming the file and the key",
          arguments: malformed)
    func refused(_ example: (json: String, key: String?, message: String)) throws {
        let error = try #require(throws: NotificationPayloadError.self) { try parse(example.json) }
        #expect(error.key == example.key)
        #expect(error.description.hasPrefix("push.json: "), "\(error)")
        #expect(error.description.contains(example.message), "\(error)")
    }

    @Test("a missing file and a folder are reported with their path")
    func unreadableFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("absent.json")
        #expect(throws: NotificationPayloadError.unreadable(source: missing.path, reason: "no such file")) {
            try PushNotification(contentsOf: missing)
        }
        #expect(throws: NotificationPayloadError.unreadable(source: folder.path, reason: "it is a folder, not a file")) {
            try PushNotification(contentsOf: folder)
        }
        let file = folder.appendingPathComponent("push.json")
        try Data(#"{"aps": {"badge": 5}}"#.utf8).write(to: file)
        #expect(try PushNotification(contentsOf: file).badge == 5)
    }
}
