import Foundation

/// How a record's property values and attribute values convert into each other, for
/// `RecordDecoder` and `RecordEncoder`: the ``AttributeConvertible`` types as they are,
/// other integer widths through `Int`, `Float` through `Double`. Other types (an enum with
/// a raw value, a wrapper) code themselves through a single value of one of these.
enum RecordValue {
    /// `value` as a `T`, or `nil` when `T` is not one of the types above or the value does
    /// not fit it.
    static func read<T>(_ value: AttributeValue, as type: T.Type) -> T? {
        if let convertible = T.self as? any AttributeConvertible.Type {
            return convertible.init(attributeValue: value) as? T
        }
        if let integer = T.self as? any FixedWidthInteger.Type, let int = value.intValue {
            return integer.init(exactly: int) as? T
        }
        if T.self == Float.self, let double = value.doubleValue {
            return Float(double) as? T
        }
        return nil
    }

    /// The attribute value of `value`, or `nil` when its type is not one of the types above
    /// (or an integer too large for `Int`).
    static func attributeValue<T>(of value: T) -> AttributeValue? {
        if let convertible = value as? any AttributeConvertible {
            return convertible.attributeValue
        }
        if let integer = value as? any FixedWidthInteger {
            return Int(exactly: integer).map(AttributeValue.integer)
        }
        if let float = value as? Float {
            return .double(Double(float))
        }
        return nil
    }

    /// Whether `T` is read and written by the functions above (rather than coding itself).
    static func isDirect<T>(_ type: T.Type) -> Bool {
        T.self is any AttributeConvertible.Type || T.self is any FixedWidthInteger.Type || T.self == Float.self
    }
}
