/// Compiles a ``FetchPredicate`` to an SQL condition whose values are all `?` arguments.
/// Keys are checked against the entity and quoted; values are checked against the key's
/// type.
struct PredicateSQL {
    let entity: EntityDescription

    func compile(_ predicate: FetchPredicate, into arguments: inout [AttributeValue]) throws -> String {
        switch predicate {
        case .equal(let key, let value):
            let column = try self.column(key)
            if value.isNull { return "\(column) IS NULL" }
            arguments.append(try conform(value, to: key))
            return "\(column) = ?"
        case .notEqual(let key, let value):
            let column = try self.column(key)
            if value.isNull { return "\(column) IS NOT NULL" }
            arguments.append(try conform(value, to: key))
            return "\(column) IS NOT ?"
        case .less(let key, let value): return try comparison(key, "<", value, &arguments)
        case .lessOrEqual(let key, let value): return try comparison(key, "<=", value, &arguments)
        case .greater(let key, let value): return try comparison(key, ">", value, &arguments)
        case .greaterOrEqual(let key, let value): return try comparison(key, ">=", value, &arguments)
        case .oneOf(let key, let values):
            let column = try self.column(key)
            guard !values.isEmpty else { return "0" }
            for value in values { arguments.append(try conform(value, to: key)) }
            return "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))"
        case .contains(let key, let text, let caseInsensitive):
            let column = try textColumn(key)
            arguments.append(.string(text))
            return caseInsensitive ? "trellis_contains(\(column), ?)" : "instr(\(column), ?) > 0"
        case .beginsWith(let key, let text, let caseInsensitive):
            let column = try textColumn(key)
            arguments.append(.string(text))
            return caseInsensitive ? "trellis_begins(\(column), ?)" : "instr(\(column), ?) = 1"
        case .and(let operands):
            guard !operands.isEmpty else { return "1" }
            return "(" + (try operands.map { try compile($0, into: &arguments) }).joined(separator: " AND ") + ")"
        case .or(let operands):
            guard !operands.isEmpty else { return "0" }
            return "(" + (try operands.map { try compile($0, into: &arguments) }).joined(separator: " OR ") + ")"
        case .not(let operand):
            // A NULL comparison is unknown, and NOT unknown is unknown: coalesce to false.
            return "NOT coalesce(\(try compile(operand, into: &arguments)), 0)"
        }
    }

    private func comparison(_ key: String, _ symbol: String, _ value: AttributeValue,
                            _ arguments: inout [AttributeValue]) throws -> String
    {
        let column = try self.column(key)
        guard !value.isNull else {
            throw ContextError.predicateTypeMismatch(entity: entity.name, key: key, expected: try type(of: key),
                                                     found: "nil, which cannot be ordered")
        }
        arguments.append(try conform(value, to: key))
        return "\(column) \(symbol) ?"
    }

    private func type(of key: String) throws -> AttributeType {
        guard let type = entity.type(ofKey: key) else { throw ContextError.unknownKey(entity: entity.name, key: key) }
        return type
    }

    private func column(_ key: String) throws -> String {
        _ = try type(of: key)
        return SchemaSQL.quote(key)
    }

    private func textColumn(_ key: String) throws -> String {
        let type = try type(of: key)
        guard type == .string else {
            throw ContextError.predicateTypeMismatch(entity: entity.name, key: key, expected: .string,
                                                     found: "a text search on a \(type.rawValue) key")
        }
        return SchemaSQL.quote(key)
    }

    private func conform(_ value: AttributeValue, to key: String) throws -> AttributeValue {
        let type = try type(of: key)
        // Numbers compare numerically in SQLite, whatever their storage class.
        if type == .integer, case .double = value { return value }
        guard let conformed = value.conformed(to: type) else {
            throw ContextError.predicateTypeMismatch(entity: entity.name, key: key, expected: type, found: value.kindName)
        }
        return conformed
    }
}
