import Foundation

/// A message of the bus with a type of its own: its name spelt once, its data a `Codable`
/// value that watchers read typed, checked where it is read.
///
/// ```swift
/// struct NoteSaved: BusMessage {
///     static let name = "note:saved"
///     var id: Int
/// }
///
/// bus.watch(NoteSaved.self, owner: self) { _, saved in print("saved", saved.id) }
/// bus.trigger(NoteSaved(id: 7))
/// ```
///
/// On the bus a typed message is an ordinary event: its name, its value encoded as JSON. Plugins,
/// which watch and trigger by name across their C boundary, see the same events, and a watcher of
/// a pattern (`note:*`) receives typed messages too.
public protocol BusMessage: Codable, Sendable {
    /// The message's name on the bus, such as `"note:saved"`.
    static var name: String { get }
}

/// Why an event's data is not the typed message its name says.
public struct BusMessageError: Error, CustomStringConvertible, Sendable {
    /// The event's name.
    public let message: String
    /// What did not decode.
    public let reason: String

    public var description: String { "\(message): its data is not what the message carries: \(reason)" }
}

extension BusMessage {
    /// This message's data as the bus carries it: its JSON value.
    public var busData: JSONValue {
        // A Codable value of the app's own: encoding fails only for non-finite numbers, which
        // JSON has no words for (`JSONValue` encodes those as null itself).
        (try? JSONValue(jsonData: JSONEncoder().encode(self))) ?? .null
    }
}

extension Event {
    /// The event's data read as `Message`; throws when it does not decode (an event of another
    /// name, or one triggered by name with other data).
    public func decode<Message: BusMessage>(_ type: Message.Type) throws(BusMessageError) -> Message {
        guard message == Message.name else {
            throw BusMessageError(message: message, reason: "it is not \(Message.name)")
        }
        do {
            return try JSONDecoder().decode(Message.self, from: data.jsonData())
        } catch {
            throw BusMessageError(message: message, reason: "\(error)")
        }
    }
}

extension EventBus {
    /// Triggers `message` under its type's name, its value as the event's data (see
    /// ``trigger(_:_:from:)``).
    public func trigger<Message: BusMessage>(_ message: Message, from sender: AnyObject? = nil) {
        trigger(Message.name, message.busData, from: sender)
    }

    /// Watches the messages of type `Message`, each read as that type, until `owner` is
    /// deallocated (see ``watch(_:from:owner:_:)``). An event of that name whose data does not
    /// decode (triggered by name, by a plugin say) is logged and not delivered.
    @discardableResult
    public func watch<Message: BusMessage, Owner: AnyObject & Sendable>(
        _ type: Message.Type, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @Sendable (Owner, Message) -> Void
    ) -> WatchID {
        watch(Message.name, from: sender, owner: owner) { [weak self] owner, event in
            guard let message = self?.decoded(event, as: Message.self) else { return }
            handler(owner, message)
        }
    }

    /// ``watch(_:from:owner:_:)-(Message.Type,_,_,_)`` with a handler that runs on the main
    /// actor, after `trigger` returns.
    @discardableResult
    public func watchOnMainActor<Message: BusMessage, Owner: AnyObject & Sendable>(
        _ type: Message.Type, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @MainActor @Sendable (Owner, Message) -> Void
    ) -> WatchID {
        watchOnMainActor(Message.name, from: sender, owner: owner) { [weak self] owner, event in
            guard let message = self?.decoded(event, as: Message.self) else { return }
            handler(owner, message)
        }
    }

    /// ``watchOnMainActor(_:from:owner:_:)-(Message.Type,_,_,_)`` for an owner that lives on the
    /// main actor and is not `Sendable` — a page, a window controller: the seeds'
    /// `$watch(message, block)` on an ordinary class.
    @MainActor
    @discardableResult
    public func watchOnMainActor<Message: BusMessage, Owner: AnyObject>(
        _ type: Message.Type, from sender: AnyObject? = nil, owner: Owner,
        _ handler: @escaping @MainActor (Owner, Message) -> Void
    ) -> WatchID {
        watchOnMainActor(Message.name, from: sender, owner: owner) { [weak self] owner, event in
            guard let message = self?.decoded(event, as: Message.self) else { return }
            handler(owner, message)
        }
    }

    /// `event` read as `Message`, or nil after logging why not.
    private func decoded<Message: BusMessage>(_ event: Event, as type: Message.Type) -> Message? {
        do {
            return try event.decode(Message.self)
        } catch {
            logger.warning("\(error)")
            return nil
        }
    }
}
