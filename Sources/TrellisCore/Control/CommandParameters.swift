import Foundation

/// How a ``Command`` becomes a request's parameters and back: `JSONEncoder` and
/// `JSONDecoder` over ``JSONValue``, one parameter per stored property, with the decoder's
/// errors turned into ones that name the command and the parameter.
enum CommandParameters {
    /// The parameters `command` encodes as.
    /// - Throws: ``ControlError/unencodableCommand(command:reason:)``.
    static func encode<Value: Command>(_ command: Value) throws(ControlError) -> [String: JSONValue] {
        let encoded: JSONValue
        do {
            encoded = try JSONValue(jsonData: JSONEncoder().encode(command), source: "command '\(Value.name)'")
        } catch {
            throw .unencodableCommand(command: Value.name, reason: String(describing: error))
        }
        guard let parameters = encoded.objectValue else {
            throw .unencodableCommand(command: Value.name,
                                      reason: "it encodes as \(ParameterPath.excerpt(encoded)), not as an object of parameters")
        }
        return parameters
    }

    /// `parameters` read as `type`, for a request of `command`.
    /// - Throws: ``ControlError/malformedParameters(command:parameter:reason:)``.
    static func decode<Value: Command>(_ type: Value.Type, from parameters: [String: JSONValue],
                                       command: String) throws(ControlError) -> Value {
        let json = JSONValue.object(parameters)
        do {
            return try JSONDecoder().decode(type, from: json.jsonData())
        } catch let error as DecodingError {
            throw malformed(error, as: type, in: json, command: command)
        } catch {
            throw .malformedParameters(command: command, parameter: "", reason: "do not read as \(Value.self): \(error)")
        }
    }

    private static func malformed<Value>(_ error: DecodingError, as type: Value.Type, in json: JSONValue,
                                         command: String) -> ControlError {
        let path: ParameterPath
        let reason: String
        switch error {
        case .typeMismatch(let expected, let context):
            path = ParameterPath(context.codingPath, in: json)
            reason = "should be \(expected), but it is \(path.found)"
        case .valueNotFound(let expected, let context):
            path = ParameterPath(context.codingPath, in: json)
            reason = "should be \(expected), but it is \(path.found)"
        case .keyNotFound(let key, let context):
            path = ParameterPath(context.codingPath + [key], in: json)
            reason = "is missing"
        case .dataCorrupted(let context):
            path = ParameterPath(context.codingPath, in: json)
            reason = "is \(path.found): \(context.debugDescription)"
        @unknown default:
            return .malformedParameters(command: command, parameter: "", reason: "do not read as \(Value.self): \(error)")
        }
        return .malformedParameters(command: command, parameter: path.name, reason: reason)
    }
}

/// Where a decoding error happened in a request's parameters: the parameter's name as a
/// path (`deleted.title`, `tags[2]`) and the value found there, for error messages.
private struct ParameterPath {
    /// The path from the parameters to the value; empty for the parameters as a whole.
    let name: String
    /// The value at the path, shortened, or "missing".
    let found: String

    init(_ codingPath: [any CodingKey], in json: JSONValue) {
        var name = ""
        var value: JSONValue? = json
        for key in codingPath {
            if case .array(let elements)? = value, let index = key.intValue {
                name += "[\(index)]"
                value = elements.indices.contains(index) ? elements[index] : nil
            } else {
                name += name.isEmpty ? key.stringValue : ".\(key.stringValue)"
                value = value?[key.stringValue]
            }
        }
        self.name = name
        found = value.map(Self.excerpt) ?? "missing"
    }

    /// A value as JSON, cut to 40 characters: an error message quotes it, and a value may be
    /// a pasted megabyte.
    static func excerpt(_ value: JSONValue) -> String {
        let text = value.jsonString
        return text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }
}
