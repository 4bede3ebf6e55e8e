/// Values readable by key name, as Foundation's key-value coding: what
/// ``KeyValueCellProvider`` reads from store objects and other records.
///
/// ```swift
/// struct Person: KeyValueCoding {
///     var firstName: String
///     var age: Int
///     func value(forKey key: String) -> JSONValue? {
///         switch key {
///         case "firstName": return .string(firstName)
///         case "age": return .number(Double(age))
///         default: return nil
///         }
///     }
/// }
/// ```
public protocol KeyValueCoding {
    /// The value for `key`, or `nil` when the value has no such key.
    func value(forKey key: String) -> JSONValue?
}
