import Foundation

/// A command-line argument that is not valid UTF-8.
///
/// Swift's `CommandLine.arguments` silently replaces such bytes with U+FFFD, so a deep link,
/// a database path or a plugin folder would quietly become another one. Trellis reads the raw
/// `argv` first and refuses the command instead, naming the argument and the first bad byte
/// (`Trellis.main` does, before anything else; the block is not compiled: `trellis` is an
/// executable, which the tests cannot import):
///
/// <!-- doc-examples: skip -->
/// ```swift
/// if let problem = InvalidArgumentEncoding.first() { Trellis.exit(withError: problem) }
/// ```
struct InvalidArgumentEncoding: Error, CustomStringConvertible {
    /// The argument's position in `argv` (1 is the first argument after the program name).
    let position: Int
    /// The offset of the first byte that is not UTF-8.
    let offset: Int
    /// That byte.
    let byte: UInt8
    /// The argument as Swift shows it, with the bad bytes replaced.
    let repaired: String

    var description: String {
        let shown = repaired.count > 120 ? String(repaired.prefix(120)).debugDescription + "…" : repaired.debugDescription
        let hex = String(byte, radix: 16, uppercase: true)
        return "argument \(position) is not valid UTF-8 (byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(offset)): \(shown)"
    }

    /// The first argument of `argv` (program name excluded) that is not valid UTF-8, if any.
    static func first(argc: Int32 = CommandLine.argc,
                      argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = CommandLine.unsafeArgv) -> InvalidArgumentEncoding? {
        for position in 1..<Int(max(argc, 1)) {
            guard let argument = argv[position] else { continue }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument)).bindMemory(to: UInt8.self)
            if let offset = firstInvalidOffset(in: bytes) {
                return InvalidArgumentEncoding(position: position, offset: offset, byte: bytes[offset],
                                               repaired: String(decoding: bytes, as: UTF8.self))
            }
        }
        return nil
    }

    /// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
