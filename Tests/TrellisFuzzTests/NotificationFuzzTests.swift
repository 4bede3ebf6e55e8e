import Foundation
import PropertyBased
import Testing
import TrellisCore

/// Notification payloads (`trellis --notification FILE.json`): hostile text and shapes parse
/// or are refused with an error naming the file and, for a bad value, the key.
@Suite("Fuzz: notification payloads")
struct NotificationFuzzTests {
    @Test("mostly-JSON text is parsed or refused with an error naming the source")
    func text() async {
        await propertyCheck(count: 3000, input: Hostile.jsonText) { text in
            do {
                _ = try PushNotification(jsonData: Data(text.utf8), source: "push.json")
            } catch let error as NotificationPayloadError {
                #expect(error.description.hasPrefix("push.json: "), "\(error)")
            } catch {
                Issue.record("untyped error \(error)")
            }
        }
    }

    @Test("payloads of the right shape with hostile values are refused naming the key")
    func shapes() async {
        let values: [JSONValue] = [.null, true, -1, 0, 1, 2, 1.5, 1e300, "", "text", "/catalog/5", "/../etc", "/notes/%00",
                                   [], ["body": 3], ["body": "hi", "show-view": 5], ["body": "hi", "show-view": "/catalog"],
                                   ["unexpected": 1]]
        let keys = ["alert", "badge", "sound", "content-available", "category", "nonsense"]
        let payloads = Gen.element(of: keys).array(of: 0...5).map { chosen -> [String] in chosen.compactMap { $0 } }
        await propertyCheck(count: 3000, input: payloads, Gen.int(in: 0...1000)) { chosen, seed in
            var aps: [String: JSONValue] = [:]
            for (index, key) in chosen.enumerated() { aps[key] = values[(seed + index * 7) % values.count] }
            let json: JSONValue = ["aps": .object(aps)]
            do {
                let parsed = try PushNotification(json: json, source: "push.json")
                if let badge = parsed.badge { #expect(badge >= 0) }
            } catch let error as NotificationPayloadError {
                #expect(error.description.hasPrefix("push.json: "), "\(error)")
                if case .malformed = error { Issue.record("a JSON value was reported as malformed text: \(error)") }
            } catch {
                Issue.record("untyped error \(error)")
            }
        }
    }
}
