/// A hash table from message names to values, the bus's lookup on every `trigger`.
///
/// Names are compared by their UTF-8 bytes, as wildcard patterns are (``MessagePattern``):
/// `"caf\u{E9}"` and `"cafe\u{301}"` are two messages, as they are two `Notification.Name`s on
/// Apple platforms. That is what lets a lookup hash the bytes in a few word-sized steps
/// instead of running `String`'s Unicode-aware `Hasher` path, which was a quarter of the cost
/// of delivering an event to one watcher.
///
/// Open addressing with linear probing, at most half full, and backward-shift deletion (no
/// tombstones, so probes stay short after many removals). The hash is keyed by a random seed
/// per table, so names chosen by a plugin or a server cannot be crafted to collide.
struct NameTable<Value> {
    /// Each slot's hash, or 0 for an empty slot (stored hashes always have the top bit set; slots are chosen by the low bits).
    private var hashes: [UInt64]
    private var names: [String]
    /// Each slot's name as two words and a length when it is 16 bytes or shorter (most
    /// message names), so a lookup compares three integers instead of two strings.
    private var keys: [ShortKey]
    private var values: [Value?]
    private var mask: Int
    private let seed: UInt64
    /// The number of names stored.
    private(set) var count = 0

    init() {
        self.init(capacity: 16, seed: UInt64.random(in: UInt64.min...UInt64.max))
    }

    private init(capacity: Int, seed: UInt64) {
        hashes = Array(repeating: 0, count: capacity)
        names = Array(repeating: "", count: capacity)
        keys = Array(repeating: ShortKey.none, count: capacity)
        values = Array(repeating: nil, count: capacity)
        mask = capacity - 1
        self.seed = seed
    }

    var isEmpty: Bool { count == 0 }

    /// The value stored for `name`, or nil; setting nil removes the name.
    subscript(name: String) -> Value? {
        get {
            guard let slot = slot(of: name) else { return nil }
            return values[slot]
        }
        set {
            if let newValue {
                modify(name, default: newValue) { $0 = newValue }
            } else {
                removeValue(for: name)
            }
        }
    }

    /// Calls `body` with the value stored for `name`, borrowed (no copy); nil when absent.
    @inline(__always)
    func withValue<Result>(for name: String, _ body: (Value?) -> Result) -> Result? {
        guard let slot = slot(of: name) else { return nil }
        return values.withUnsafeBufferPointer { body($0[slot]) }
    }

    /// Runs `body` on the value stored for `name` in place (inserting `defaultValue` first
    /// if the name is absent), without copying it: appending to a stored array is O(1).
    mutating func modify(_ name: String, default defaultValue: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
        let digest = Self.withBytes(of: name) { Self.digest(of: $0, seed: seed) }
        let hash = digest.hash
        if let slot = slot(of: name, digest: digest) {
            body(&values[slot]!)
            return
        }
        if (count + 1) * 2 > hashes.count { grow() }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while hashes[slot] != 0 { slot = (slot + 1) & mask }
        var stored = name
        stored.makeContiguousUTF8()
        hashes[slot] = hash
        names[slot] = stored
        keys[slot] = digest.key
        values[slot] = defaultValue()
        count += 1
        body(&values[slot]!)
    }

    /// Removes `name` and returns its value, if it was there.
    @discardableResult
    mutating func removeValue(for name: String) -> Value? {
        guard var hole = slot(of: name) else { return nil }
        let removed = values[hole]
        // Backward-shift deletion: pull later entries of the probe run into the hole unless
        // their home slot lies cyclically after the hole (then they are already reachable).
        var next = (hole + 1) & mask
        while hashes[next] != 0 {
            let home = Int(truncatingIfNeeded: hashes[next]) & mask
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                hashes[hole] = hashes[next]
                names[hole] = names[next]
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        hashes[hole] = 0
        names[hole] = ""
        keys[hole] = .none
        values[hole] = nil
        count -= 1
        return removed
    }

    /// Removes every name.
    mutating func removeAll() {
        guard count > 0 else { return }
        for index in hashes.indices where hashes[index] != 0 {
            hashes[index] = 0
            names[index] = ""
            keys[index] = .none
            values[index] = nil
        }
        count = 0
    }

    /// Every stored value, in no particular order.
    var storedValues: [Value] {
        values.compactMap { $0 }
    }

    // MARK: Probing

    private func slot(of name: String) -> Int? {
        Self.withBytes(of: name) { query in slot(of: query, digest: Self.digest(of: query, seed: seed)) }
    }

    private func slot(of name: String, digest: Digest) -> Int? {
        Self.withBytes(of: name) { query in slot(of: query, digest: digest) }
    }

    @inline(__always)
    private func slot(of query: UnsafeBufferPointer<UInt8>, digest: Digest) -> Int? {
        var slot = Int(truncatingIfNeeded: digest.hash) & mask
        while true {
            let stored = hashes[slot]
            if stored == 0 { return nil }
            if stored == digest.hash {
                if digest.key.count >= 0 {
                    if keys[slot] == digest.key { return slot }
                } else if Self.withBytes(of: names[slot], { Self.equal($0, query) }) {
                    return slot
                }
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        var bigger = NameTable(capacity: hashes.count * 2, seed: seed)
        for index in hashes.indices where hashes[index] != 0 {
            var slot = Int(truncatingIfNeeded: hashes[index]) & bigger.mask
            while bigger.hashes[slot] != 0 { slot = (slot + 1) & bigger.mask }
            bigger.hashes[slot] = hashes[index]
            bigger.names[slot] = names[index]
            bigger.keys[slot] = keys[index]
            bigger.values[slot] = values[index]
        }
        bigger.count = count
        self = bigger
    }

    // MARK: Bytes

    /// A seeded 64-bit hash of the name's UTF-8 bytes, with the top bit set so that 0 can
    /// mark an empty slot. A name of up to 16 bytes (most message names) is read as two
    /// words and mixed with one 128-bit multiply, as wyhash does for short keys; longer names
    /// fold in eight bytes per step.
    static func hash(of name: String, seed: UInt64) -> UInt64 {
        withBytes(of: name) { digest(of: $0, seed: seed).hash }
    }

    /// A name of up to 16 bytes as two little-endian words (zero-padded) and its length;
    /// `count` -1 for a longer name.
    struct ShortKey: Equatable {
        var first: UInt64
        var second: UInt64
        var count: Int

        static var none: ShortKey { ShortKey(first: 0, second: 0, count: -1) }
    }

    /// A name's hash, and its short key.
    struct Digest {
        var hash: UInt64
        var key: ShortKey
    }

    @inline(__always)
    private static func digest(of bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> Digest {
        do {
            let raw = UnsafeRawBufferPointer(bytes)
            let count = raw.count
            var first: UInt64
            var second: UInt64
            var state = seed
            var offset = 0
            while count - offset > 16 {
                state = mix(
                    state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                    0xE703_7ED1_A0B4_28DB ^ raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                offset += 16
            }
            // The last (up to) sixteen bytes as two words. Whole words are loaded as words;
            // the partial word is gathered byte by byte, never by an overlapping wide load,
            // which on a small string just copied to the stack stalls on store forwarding.
            if count - offset >= 8 {
                first = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
                second = gather(raw, from: offset)
            } else {
                first = gather(raw, from: offset)
                second = 0
            }
            // One 128-bit multiply, its halves folded: the high half mixes every input bit
            // into the low bits that pick a slot.
            let hash = mix(
                first ^ state ^ 0xA076_1D64_78BD_642F,
                second ^ 0x8EBC_6AF0_9C88_C6E3 ^ UInt64(truncatingIfNeeded: count))
            let key = count <= 16 ? ShortKey(first: first, second: second, count: count) : .none
            return Digest(hash: hash | (1 << 63), key: key)
        }
    }

    /// The bytes from `start` to the end (at most eight), little-endian in one word.
    @inline(__always)
    private static func gather(_ raw: UnsafeRawBufferPointer, from start: Int) -> UInt64 {
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for index in start..<raw.count {
            word |= UInt64(raw[index]) << shift
            shift += 8
        }
        return word
    }

    /// The high and low halves of the 128-bit product, folded.
    @inline(__always)
    private static func mix(_ left: UInt64, _ right: UInt64) -> UInt64 {
        let product = left.multipliedFullWidth(by: right)
        return product.high ^ product.low
    }

    /// Whether two names have the same UTF-8 bytes.
    static func sameBytes(_ left: String, _ right: String) -> Bool {
        withBytes(of: left) { lhs in withBytes(of: right) { rhs in equal(lhs, rhs) } }
    }

    @inline(__always)
    private static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        let lhs = UnsafeRawBufferPointer(left)
        let rhs = UnsafeRawBufferPointer(right)
        var offset = 0
        while offset + 8 <= lhs.count {
            guard lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < lhs.count {
            guard lhs[offset] == rhs[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The name's UTF-8 bytes: in place for a native string, copied to the stack for a small
    /// one (up to 15 bytes, most message names).
    @inline(__always)
    private static func withBytes<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var copy = string
        return copy.withUTF8(body)
    }
}

extension NameTable: Sendable where Value: Sendable {}
