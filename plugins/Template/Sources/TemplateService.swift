import TrellisPluginSDK

/// A minimal service to start a plugin from: while running it answers every `template:ping`
/// with `template:pong`, whose data is the ping's data under `"ping"` and the `greeting` start
/// option under `"greeting"`.
///
/// Rename it, list its name in `plugin.json` ("services", and "autostart" to start it when the
/// plugin loads), and put the work in `start` and `stop`.
final class TemplateService: PluginService {
    static let name = "template"
    static let ping = "template:ping"
    static let pong = "template:pong"

    private let bus: PluginBus

    init(host: TrellisHost) {
        bus = host.bus
    }

    func start(options: JSONValue) throws {
        let greeting = options["greeting"] ?? .null
        bus.watch(Self.ping, owner: self) { service, event in
            service.bus.trigger(Self.pong, ["ping": event.data, "greeting": greeting])
        }
    }

    func stop(options: JSONValue) {
        bus.unwatch(owner: self)
    }
}
