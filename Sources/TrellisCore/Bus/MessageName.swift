/// A message name as the bus compares it: by its UTF-8 bytes, as wildcard patterns are
/// (``MessagePattern``). `"caf\u{E9}"` and `"cafe\u{301}"` are two messages, as they are two
/// `Notification.Name`s on Apple platforms; `String`'s own `==`, which compares canonical
/// equivalence, would make them one.
struct MessageName: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: MessageName, rhs: MessageName) -> Bool {
        // Byte-equal names are equal strings, so `String`'s fast comparison rejects first;
        // the bytes are compared through spans (`utf8.elementsEqual` took a fifth of a trigger).
        guard lhs.text == rhs.text else { return false }
        let left = lhs.text.utf8.span
        let right = rhs.text.utf8.span
        guard left.count == right.count else { return false }
        for index in left.indices where left[index] != right[index] { return false }
        return true
    }

    /// `String`'s hash: names with the same bytes are equal strings, so they hash alike;
    /// names equal only canonically share a hash and stay two keys.
    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}
