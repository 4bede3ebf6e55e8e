import TrellisStore

/// A person of the demo's People page (the Person entity of the Core Data chapter): the
/// samples the store is seeded with on first run.
public struct Person: ManagedRecord, Codable, Sendable, Hashable {
    /// The entity people are stored as.
    public static let entityName = "Person"
    /// The person's object in the store; `nil` for a sample not inserted yet.
    public var id: ObjectID?
    /// The first name.
    public var firstName: String
    /// The surname, which the People page sorts by.
    public var lastName: String
    /// The age in years, when known (the model's `age` is optional).
    public var age: Int?

    /// A person not in the store yet.
    public init(firstName: String, lastName: String, age: Int?) {
        self.firstName = firstName
        self.lastName = lastName
        self.age = age
    }

    /// The people a new store starts with.
    public static let samples = [
        Person(firstName: "Анна", lastName: "Ахматова", age: 76),
        Person(firstName: "Ada", lastName: "Lovelace", age: 36),
        Person(firstName: "Фёдор", lastName: "Достоевский", age: 59),
        Person(firstName: "Grace", lastName: "Hopper", age: 85),
        Person(firstName: "Лев", lastName: "Толстой", age: 82),
    ]
}
