import CGtk
import Foundation

/// The contrast of text as drawn, read from a screenshot: in the rectangle a label occupies,
/// the background is the most frequent colour and the text the colour that differs most from
/// it (the core of a glyph's stroke, where anti-aliasing leaves the full colour); their
/// contrast ratio is WCAG's, (L1 + 0.05) / (L2 + 0.05) of the relative luminances.
struct TextContrast {
    /// An sRGB colour, 8 bits a channel.
    struct Colour: Hashable, CustomStringConvertible {
        let red: UInt8, green: UInt8, blue: UInt8

        /// WCAG 2's relative luminance.
        var luminance: Double {
            func linear(_ value: UInt8) -> Double {
                let c = Double(value) / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        }

        var description: String { String(format: "#%02x%02x%02x", red, green, blue) }

        /// The contrast ratio with `other` (1 to 21).
        func contrast(with other: Colour) -> Double {
            let (a, b) = (luminance, other.luminance)
            return (max(a, b) + 0.05) / (min(a, b) + 0.05)
        }
    }

    private let width: Int, height: Int, rowStride: Int, channels: Int
    private let pixels: [UInt8]

    /// Reads the PNG at `path` (through GdkPixbuf).
    init(png path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw Failure.unreadable(path: path, reason: reason)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        width = Int(gdk_pixbuf_get_width(pixbuf))
        height = Int(gdk_pixbuf_get_height(pixbuf))
        rowStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        // Safe: the pixbuf's pixels are `length` bytes, read (copied) while it lives.
        pixels = Array(UnsafeBufferPointer(start: gdk_pixbuf_read_pixels(pixbuf), count: length))
    }

    /// The text and background colours in the rectangle, and their contrast ratio; nil when
    /// the rectangle holds a single colour (or none of the image).
    func measure(x: Double, y: Double, width w: Double, height h: Double) -> (ratio: Double, text: Colour, background: Colour)? {
        let counts = colourCounts(x: x, y: y, width: w, height: h)
        guard let background = counts.max(by: { $0.value < $1.value })?.key,
              let text = counts.keys.max(by: { background.contrast(with: $0) < background.contrast(with: $1) }),
              text != background else { return nil }
        return (background.contrast(with: text), text, background)
    }

    /// The most frequent colour in the rectangle (its background, where no text reaches); nil
    /// when the rectangle holds none of the image.
    func background(x: Double, y: Double, width w: Double, height h: Double) -> Colour? {
        colourCounts(x: x, y: y, width: w, height: h).max(by: { $0.value < $1.value })?.key
    }

    /// How many pixels are within `tolerance` of `colour` in each channel: in the rectangle
    /// `[x, y, width, height]`, else in the whole image.
    func pixelCount(near colour: Colour, tolerance: Int = 8, within rectangle: [Double]? = nil) -> Int {
        let area = rectangle ?? [0, 0, Double(width), Double(height)]
        return colourCounts(x: area[0], y: area[1], width: area[2], height: area[3]).filter { pixel, _ in
            abs(Int(pixel.red) - Int(colour.red)) <= tolerance && abs(Int(pixel.green) - Int(colour.green)) <= tolerance
                && abs(Int(pixel.blue) - Int(colour.blue)) <= tolerance
        }.values.reduce(0, +)
    }

    /// How many pixels of each colour the rectangle holds.
    private func colourCounts(x: Double, y: Double, width w: Double, height h: Double) -> [Colour: Int] {
        let left = max(0, Int(x.rounded(.down))), top = max(0, Int(y.rounded(.down)))
        let right = min(width, Int((x + w).rounded(.up))), bottom = min(height, Int((y + h).rounded(.up)))
        guard right > left, bottom > top else { return [:] }
        var counts: [Colour: Int] = [:]
        for row in top..<bottom {
            for column in left..<right {
                let at = row * rowStride + column * channels
                counts[Colour(red: pixels[at], green: pixels[at + 1], blue: pixels[at + 2]), default: 0] += 1
            }
        }
        return counts
    }

    enum Failure: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
            }
        }
    }
}
