/// A model file that cannot be used. Every message names the file and, where it applies,
/// the entity and the attribute, relationship or index at fault.
public enum ModelError: Error, CustomStringConvertible, Equatable {
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// The file is not JSON, or a top-level member is missing or has the wrong shape.
    case invalidModel(file: String, reason: String)
    case invalidEntity(file: String, entity: String, reason: String)
    case invalidAttribute(file: String, entity: String, attribute: String, reason: String)
    case invalidRelationship(file: String, entity: String, relationship: String, reason: String)
    case invalidIndex(file: String, entity: String, index: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "\(file): cannot read the model file: \(reason)"
        case .invalidModel(let file, let reason):
            return "\(file): invalid model: \(reason)"
        case .invalidEntity(let file, let entity, let reason):
            return "\(file): entity '\(entity)': \(reason)"
        case .invalidAttribute(let file, let entity, let attribute, let reason):
            return "\(file): entity '\(entity)', attribute '\(attribute)': \(reason)"
        case .invalidRelationship(let file, let entity, let relationship, let reason):
            return "\(file): entity '\(entity)', relationship '\(relationship)': \(reason)"
        case .invalidIndex(let file, let entity, let index, let reason):
            return "\(file): entity '\(entity)', index '\(index)': \(reason)"
        }
    }
}
