import Foundation
import PropertyBased
import TrellisCore

/// Random edits of a valid JSON document, the way a careless hand or a hostile one changes a
/// file: a value replaced by one of another type or by a hostile string, a member removed,
/// an element duplicated, an unknown member added, one value copied over another, a name
/// re-cased (so that two names differ only in case).
///
/// `words` are the strings that matter to the parser under test (its keys, type names,
/// names already in the document); edits draw from them so that they reach past the first
/// type check.
///
/// ```swift
/// let mutator = JSONMutator(words: ["id", "library", "../../lib.so"])
/// let manifests = mutator.generator(of: validManifest)
/// ```
struct JSONMutator: Sendable {
    let words: [String]

    /// One step from the root to a node.
    enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    /// Documents made from `base` by 1–4 random edits.
    func generator(of base: JSONValue) -> Generator<JSONValue, Shrink.None<JSONValue>> {
        Generator { rng in
            var document = base
            for _ in 0..<Int.random(in: 1...4, using: &rng) { document = edit(document, using: &rng) }
            return document
        }
    }

    /// `document` with one random edit.
    func edit(_ document: JSONValue, using rng: inout some RandomNumberGenerator) -> JSONValue {
        let paths = Self.paths(in: document)
        let target = paths.randomElement(using: &rng) ?? []
        var result = document
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            Self.set(&result, at: target, to: hostileValue(using: &rng))
        case 1:
            Self.remove(&result, at: target)
        case 2:
            guard !target.isEmpty, let value = Self.value(in: document, at: target) else { break }
            Self.insert(&result, into: Array(target.dropLast()), value, key: words.randomElement(using: &rng) ?? "x")
        case 3:
            let objects = paths.filter { Self.value(in: document, at: $0)?.objectValue != nil }
            guard let object = objects.randomElement(using: &rng) else { break }
            Self.insert(&result, into: object, hostileValue(using: &rng), key: words.randomElement(using: &rng) ?? "x")
        case 4:
            guard let source = paths.randomElement(using: &rng), let value = Self.value(in: document, at: source) else { break }
            Self.set(&result, at: target, to: value)
        default:
            guard let text = Self.value(in: document, at: target)?.stringValue else { break }
            let recased = [text.uppercased(), text.lowercased(), text.capitalized].randomElement(using: &rng) ?? text
            Self.set(&result, at: target, to: .string(recased))
        }
        return result
    }

    /// A value of any JSON type, often hostile: a word, a hostile string, a huge string, an
    /// out-of-range number, or a container of such.
    func hostileValue(using rng: inout some RandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...3: return .string(words.randomElement(using: &rng) ?? "")
        case 4: return .string(Hostile.names.randomElement(using: &rng) ?? "")
        case 5: return .string(String(repeating: "ж", count: Int.random(in: 1_000...40_000, using: &rng)))
        case 6: return .number([0, -1, 1.5, 1e300, -1e300, 9.0e15, 2_147_483_648, 0.1].randomElement(using: &rng) ?? 0)
        case 7: return [JSONValue.null, true, false].randomElement(using: &rng) ?? .null
        case 8: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in .string(words.randomElement(using: &rng) ?? "") })
        default: return .object([words.randomElement(using: &rng) ?? "x": .string(Hostile.names.randomElement(using: &rng) ?? "")])
        }
    }

    // MARK: Paths

    /// Every node's path, the root's (empty) included.
    static func paths(in value: JSONValue, prefix: [Step] = []) -> [[Step]] {
        switch value {
        case .array(let elements):
            return [prefix] + elements.indices.flatMap { paths(in: elements[$0], prefix: prefix + [.index($0)]) }
        case .object(let members):
            return [prefix] + members.keys.sorted().flatMap { paths(in: members[$0]!, prefix: prefix + [.key($0)]) }
        default:
            return [prefix]
        }
    }

    static func value(in document: JSONValue, at path: [Step]) -> JSONValue? {
        guard let step = path.first else { return document }
        let child: JSONValue?
        switch step {
        case .key(let key): child = document[key]
        case .index(let index): child = document[index]
        }
        return child.flatMap { value(in: $0, at: Array(path.dropFirst())) }
    }

    static func set(_ document: inout JSONValue, at path: [Step], to newValue: JSONValue) {
        update(&document, at: path) { $0 = newValue }
    }

    /// Removes the node at `path` from its parent (the root cannot be removed: it becomes null).
    static func remove(_ document: inout JSONValue, at path: [Step]) {
        guard let last = path.last else {
            document = .null
            return
        }
        update(&document, at: Array(path.dropLast())) { parent in
            switch (parent, last) {
            case (.object(var members), .key(let key)):
                members[key] = nil
                parent = .object(members)
            case (.array(var elements), .index(let index)) where elements.indices.contains(index):
                elements.remove(at: index)
                parent = .array(elements)
            default: break
            }
        }
    }

    /// Appends `value` to the array at `path`, or adds it under `key` to the object there.
    static func insert(_ document: inout JSONValue, into path: [Step], _ value: JSONValue, key: String) {
        update(&document, at: path) { container in
            switch container {
            case .array(var elements):
                elements.append(value)
                container = .array(elements)
            case .object(var members):
                members[key] = value
                container = .object(members)
            default: break
            }
        }
    }

    private static func update(_ node: inout JSONValue, at path: [Step], _ body: (inout JSONValue) -> Void) {
        guard let step = path.first else {
            body(&node)
            return
        }
        let rest = Array(path.dropFirst())
        switch (node, step) {
        case (.object(var members), .key(let key)):
            guard var child = members[key] else { return }
            update(&child, at: rest, body)
            members[key] = child
            node = .object(members)
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            update(&elements[index], at: rest, body)
            node = .array(elements)
        default:
            break
        }
    }
}
