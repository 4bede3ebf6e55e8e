// FoundationEssentials, not Foundation, where the toolchain has it: a plugin process loads this
// module, and Foundation's internationalisation would add 6 MiB to each (issue #37's plugin-rss).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads JSON text into a ``JSONValue``: what ``JSONValue/init(jsonData:source:)`` parses with.
///
/// `JSONDecoder` reaches a `JSONValue` only through `Decodable`, which cannot ask what kind of
/// value comes next: the conformance tries each kind in turn and catches each miss. A 1.7 KB
/// plugin manifest took 173–188 µs to read that way, a three-member object 7.1 µs; this reader
/// takes 24 µs and 1.1 µs (release build, a loop over `JSONValue(jsonData:)`; 50 installed
/// plugins' manifests are read at every start).
///
/// It accepts what `JSONDecoder` accepts, so that no file read before is refused now: JSON as
/// RFC 8259 has it, plus a byte-order mark, a comma after the last element or member, and
/// UTF-16 or UTF-32 text (UTF-32 with a byte-order mark too, which `JSONDecoder` refuses). Of
/// two members with the same name, the first is kept, and the later one's value is checked
/// for its structure only, as there. It refuses numbers a `Double` cannot hold (`1e400`,
/// `1e-400`) and nesting deeper than ``maximumDepth``, and names the line and column of what
/// it cannot read.
struct JSONTextReader {
    /// Deeper nesting is refused, as `JSONDecoder` refuses it: the reader recurses once per level.
    static let maximumDepth = 512

    /// Why the text is not JSON, and where: a line and column (1-based, the column in bytes).
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        let line: Int
        let column: Int
        var description: String { "line \(line), column \(column): \(reason)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value `data` holds, or why it holds none.
    static func read(_ data: Data) throws(Failure) -> JSONValue {
        var reader = JSONTextReader(bytes: try utf8(data))
        return try reader.document()
    }

    /// The text as UTF-8 without a byte-order mark, transcoded when it is UTF-16 or UTF-32:
    /// told as `JSONDecoder` tells it, by a byte-order mark or by where the first four bytes
    /// are zero (RFC 4627, section 3: the first two characters of JSON text are ASCII).
    private static func utf8(_ data: Data) throws(Failure) -> [UInt8] {
        let bytes = [UInt8](data)
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        let (encoding, mark): (String.Encoding, Int) = switch (at(0), at(1), at(2), at(3)) {
        case (0, 0, 0xFE, 0xFF): (.utf32BigEndian, 4)
        case (0xFF, 0xFE, 0, 0): (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): (.utf16LittleEndian, 2)
        case (0xEF, 0xBB, 0xBF, _): (.utf8, 3)
        case (0, 0, 0, let a?) where a != 0: (.utf32BigEndian, 0)
        case (0, let a?, 0, let b?) where a != 0 && b != 0: (.utf16BigEndian, 0)
        case (let a?, 0, 0, 0) where a != 0: (.utf32LittleEndian, 0)
        case (let a?, 0, let b?, 0) where a != 0 && b != 0: (.utf16LittleEndian, 0)
        // A single character in UTF-16, such as `1`: two bytes.
        case (0, let a?, nil, nil) where a != 0: (.utf16BigEndian, 0)
        case (let a?, 0, nil, nil) where a != 0: (.utf16LittleEndian, 0)
        default: (.utf8, 0)
        }
        if encoding == .utf8 { return mark == 0 ? bytes : Array(bytes.dropFirst(mark)) }
        guard let text = String(bytes: bytes.dropFirst(mark), encoding: encoding) else {
            throw Failure(reason: "the text is neither UTF-8 nor valid \(encoding)", line: 1, column: 1)
        }
        return Array(text.utf8)
    }

    // MARK: Values

    private mutating func document() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw failure("no JSON value: the text is empty") }
        let value = try value()
        skipWhitespace()
        guard position == bytes.count else { throw failure("\(found) after the JSON value") }
        return value
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard position < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[position] {
        case ASCII.openBrace: return try object()
        case ASCII.openBracket: return try array()
        case ASCII.quote: return .string(try string())
        case ASCII.t: try literal("true"); return .bool(true)
        case ASCII.f: try literal("false"); return .bool(false)
        case ASCII.n: try literal("null"); return .null
        case ASCII.minus, ASCII.zero...ASCII.nine: return .number(try number())
        default: throw failure("\(found) where a value should be")
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enterNesting()
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        while !take(ASCII.closeBrace) {
            try expectMemberName()
            let name = try string()
            try colonAfterMemberName()
            if members[name] == nil {
                members[name] = try value()
            } else {
                try skipValue()
            }
            try separator(before: ASCII.closeBrace)
        }
        depth -= 1
        return .object(members)
    }

    /// Checks that a member's name, in double quotes, comes next.
    private func expectMemberName() throws(Failure) {
        guard byte(at: position) == ASCII.quote else { throw failure("\(found) where a member's name in double quotes should be") }
    }

    /// Moves past the colon after a member's name, and the whitespace around it.
    private mutating func colonAfterMemberName() throws(Failure) {
        skipWhitespace()
        guard take(ASCII.colon) else { throw failure("\(found) where ':' should follow the member's name") }
        skipWhitespace()
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enterNesting()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        while !take(ASCII.closeBracket) {
            elements.append(try value())
            try separator(before: ASCII.closeBracket)
        }
        depth -= 1
        return .array(elements)
    }

    /// Moves past the value of a repeated member name, which is not kept, checking only its
    /// structure: `JSONDecoder` never decodes that value, so it reads neither its strings'
    /// characters nor its numbers' digits, and a file with a flaw there still loads.
    private mutating func skipValue() throws(Failure) {
        guard let first = byte(at: position) else { throw failure("the text ends where a value should be") }
        switch first {
        case ASCII.openBrace, ASCII.openBracket:
            let closing = first == ASCII.openBrace ? ASCII.closeBrace : ASCII.closeBracket
            try enterNesting()
            position += 1
            skipWhitespace()
            while !take(closing) {
                if closing == ASCII.closeBrace {
                    try expectMemberName()
                    try skipString()
                    try colonAfterMemberName()
                }
                try skipValue()
                try separator(before: closing)
            }
            depth -= 1
        case ASCII.quote: try skipString()
        case ASCII.t: try literal("true")
        case ASCII.f: try literal("false")
        case ASCII.n: try literal("null")
        case ASCII.minus, ASCII.zero...ASCII.nine:
            let numberBytes = [ASCII.dot, ASCII.plus, ASCII.minus, ASCII.e, ASCII.capitalE]
            while let current = byte(at: position), ASCII.isDigit(current) || numberBytes.contains(current) {
                position += 1
            }
        default: throw failure("\(found) where a value should be")
        }
    }

    /// Moves past a string to its closing quote, an escape's character and a `\u`'s four
    /// characters included, as `JSONDecoder` scans one it does not decode.
    private mutating func skipString() throws(Failure) {
        let opening = position
        position += 1
        while let current = byte(at: position) {
            switch current {
            case ASCII.quote:
                position += 1
                return
            case ASCII.backslash where byte(at: position + 1) == ASCII.u:
                let digits = position + 2..<position + 6
                guard digits.upperBound <= bytes.count, !bytes[digits].contains(ASCII.quote) else {
                    throw failure(at: position, "a \\u escape without four hex digits")
                }
                position = digits.upperBound
            case ASCII.backslash:
                position += 2
            default:
                position += 1
            }
        }
        throw failure(at: opening, "a string that is never closed")
    }

    /// What follows an element or member: a comma (the closing bracket may come next, a
    /// trailing comma), or the closing bracket, which the caller's loop then takes.
    private mutating func separator(before closing: UInt8) throws(Failure) {
        skipWhitespace()
        if take(ASCII.comma) {
            skipWhitespace()
        } else if byte(at: position) != closing {
            throw failure("\(found) where ',' or '\(Character(Unicode.Scalar(closing)))' should be")
        }
    }

    private mutating func enterNesting() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("more than \(Self.maximumDepth) arrays and objects inside each other") }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = word.withUTF8Buffer { [UInt8]($0) }
        guard bytes[position...].starts(with: expected) else { throw failure("\(found) where a value should be") }
        position += expected.count
    }

    // MARK: Numbers

    /// RFC 8259's grammar, checked here; the digits are then read by `Double(_:)`.
    private mutating func number() throws(Failure) -> Double {
        let start = position
        _ = take(ASCII.minus)
        guard let first = byte(at: position), ASCII.isDigit(first) else { throw failure("a '-' without digits after it") }
        position += 1
        if first == ASCII.zero, let next = byte(at: position), ASCII.isDigit(next) {
            throw failure(at: start, "a number with a leading zero")
        }
        skipDigits()
        if take(ASCII.dot) {
            guard let digit = byte(at: position), ASCII.isDigit(digit) else { throw failure("a number with no digit after its '.'") }
            skipDigits()
        }
        let mantissaEnd = position
        if take(ASCII.e) || take(ASCII.capitalE) {
            if !take(ASCII.plus) { _ = take(ASCII.minus) }
            guard let digit = byte(at: position), ASCII.isDigit(digit) else { throw failure("a number with no digit in its exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        // Zero from digits that are not all zero underflowed: refused, as JSONDecoder does.
        let significant = bytes[start..<mantissaEnd].contains { $0 > ASCII.zero && $0 <= ASCII.nine }
        guard let value = Double(text), value.isFinite, value != 0 || !significant else {
            throw failure(at: start, "the number \(text) is beyond what a Double holds")
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = byte(at: position), ASCII.isDigit(byte) { position += 1 }
    }

    // MARK: Strings

    /// A string, its escapes replaced; the text between escapes is checked to be UTF-8.
    private mutating func string() throws(Failure) -> String {
        let opening = position
        position += 1
        var text = ""
        var runStart = position
        while true {
            guard let byte = byte(at: position) else { throw failure(at: opening, "a string that is never closed") }
            switch byte {
            case ASCII.quote:
                text += try utf8Text(runStart..<position)
                position += 1
                return text
            case ASCII.backslash:
                text += try utf8Text(runStart..<position)
                text.unicodeScalars.append(try escape())
                runStart = position
            case 0..<0x20:
                let code = hex(byte, digits: 4)
                throw failure("a control character (U+\(code)) inside a string: write it as an escape, such as \\n or \\u\(code)")
            default:
                position += 1
            }
        }
    }

    private func utf8Text(_ range: Range<Int>) throws(Failure) -> String {
        guard !range.isEmpty else { return "" }
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw failure(at: range.lowerBound, "text that is not valid UTF-8")
        }
        return text
    }

    /// The character an escape stands for (`position` at its backslash, then after it).
    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        let start = position
        position += 1
        guard let letter = byte(at: position) else { throw failure(at: start, "a string that is never closed") }
        position += 1
        switch letter {
        case ASCII.quote, ASCII.backslash, ASCII.slash: return Unicode.Scalar(letter)
        case ASCII.b: return "\u{8}"
        case ASCII.f: return "\u{C}"
        case ASCII.n: return "\n"
        case ASCII.r: return "\r"
        case ASCII.t: return "\t"
        case ASCII.u:
            let unit = try hexUnit(escapeStart: start)
            switch unit {
            case 0xD800..<0xDC00:
                guard bytes[position...].starts(with: [ASCII.backslash, ASCII.u]) else {
                    throw failure(at: start, "a lone UTF-16 surrogate \\u\(hex(unit, digits: 4)), not followed by its pair")
                }
                let second = position
                position += 2
                let low = try hexUnit(escapeStart: second)
                guard (0xDC00..<0xE000).contains(low) else {
                    let pair = "\\u\(hex(unit, digits: 4)) followed by \\u\(hex(low, digits: 4))"
                    throw failure(at: start, "a UTF-16 surrogate \(pair), not by its pair")
                }
                return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))!
            case 0xDC00..<0xE000:
                throw failure(at: start, "a lone UTF-16 surrogate \\u\(hex(unit, digits: 4))")
            default:
                return Unicode.Scalar(unit)!  // not a surrogate: a scalar
            }
        default:
            throw failure(at: start, "an unknown escape \\\(Character(Unicode.Scalar(letter)))")
        }
    }

    /// The four hex digits after `\u` (`position` on the first of them, then after the last).
    private mutating func hexUnit(escapeStart: Int) throws(Failure) -> UInt16 {
        guard position + 4 <= bytes.count,
              let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
              bytes[position..<position + 4].allSatisfy(ASCII.isHexDigit)
        else { throw failure(at: escapeStart, "a \\u escape without four hex digits") }
        position += 4
        return unit
    }

    // MARK: Reading

    private func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// Moves past `expected` if it comes next.
    private mutating func take(_ expected: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == expected else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = byte(at: position), byte == ASCII.space || byte == ASCII.tab || byte == ASCII.newline || byte == ASCII.carriageReturn {
            position += 1
        }
    }

    /// What is at `position`, for an error: the character, or the end of the text.
    private var found: String {
        guard let byte = byte(at: position) else { return "the end of the text" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "the byte 0x\(hex(byte, digits: 2))"
    }

    private func failure(_ reason: String) -> Failure {
        failure(at: position, reason)
    }

    /// A failure at byte `index`, located by line and column.
    private func failure(at index: Int, _ reason: String) -> Failure {
        let before = bytes[..<min(index, bytes.count)]
        let line = before.reduce(1) { $1 == ASCII.newline ? $0 + 1 : $0 }
        let column = index - (before.lastIndex(of: ASCII.newline).map { $0 + 1 } ?? 0) + 1
        return Failure(reason: reason, line: line, column: column)
    }

    private func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// The bytes of JSON's syntax.
private enum ASCII {
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
    static let colon = UInt8(ascii: ":"), comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
    static let e = UInt8(ascii: "e"), capitalE = UInt8(ascii: "E")
    static let b = UInt8(ascii: "b"), f = UInt8(ascii: "f"), n = UInt8(ascii: "n")
    static let r = UInt8(ascii: "r"), t = UInt8(ascii: "t"), u = UInt8(ascii: "u")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
