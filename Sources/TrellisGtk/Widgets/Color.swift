/// A colour, each component from 0 to 1, as cairo and GDK take them.
///
/// ```swift
/// let blue = Color(red: 0.21, green: 0.52, blue: 0.89)
/// let faint = blue.withAlpha(0.3)
/// ```
public struct Color: Sendable, Equatable {
    /// The red component, 0…1.
    public var red: Double
    /// The green component, 0…1.
    public var green: Double
    /// The blue component, 0…1.
    public var blue: Double
    /// Opacity: 0 transparent, 1 opaque.
    public var alpha: Double

    /// A colour from its components (each 0…1).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The same colour with opacity `alpha`.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// GNOME's blue accent (#3584e4), the colour of a selection or a suggested button.
    public static let accentBlue = Color(red: 0x35 / 255, green: 0x84 / 255, blue: 0xE4 / 255)
}
