import CGtk

/// The C signature a Swift handler is written for: what its thunk takes after the instance
/// (and before the user data), and what it returns. Before a handler is connected, the
/// signature is compared with GObject's own description of the signal (`g_signal_query`), so
/// a thunk that does not fit its signal is refused instead of reading a `GParamSpec *` as its
/// closure (the crash of a drop-down on Preferences, where `notify::selected` was connected to
/// a thunk without the `GParamSpec *` argument).
///
/// gtk4-rs generates such typed connections from GObject introspection; Trellis writes one
/// connection helper per signature (``GObjectReference/connect(_:after:_:)`` and its
/// siblings) and lets GObject check each use.
struct SignalSignature: Equatable, CustomStringConvertible {
    /// One argument of the handler, as its C thunk receives it.
    enum Argument: Equatable, CustomStringConvertible {
        /// A `guint` (`GtkListView::activate`'s position).
        case unsignedInteger
        /// A `gint` (`GtkDialog::response`'s response id).
        case integer
        /// An enumeration, passed as an `int` (`GtkSorter::changed`'s `GtkSorterChange`).
        case enumeration
        /// A pointer to an instance of this GType or of a subtype (`GtkListItem *`).
        case object(GType)
        /// A `GParamSpec *`: the first argument of every `notify::` handler.
        case paramSpec
        /// A `GVariant *`, possibly `NULL` (`GSimpleAction::activate`'s parameter).
        case variant

        var description: String {
            switch self {
            case .unsignedInteger: "guint"
            case .integer: "gint"
            case .enumeration: "an enum"
            case .object(let type): "\(FundamentalType.name(of: type)) *"
            case .paramSpec: "GParamSpec *"
            case .variant: "GVariant *"
            }
        }

        /// Whether a signal parameter of GType `type` reaches the thunk as this argument.
        func accepts(_ type: GType) -> Bool {
            let fundamental = g_type_fundamental(type)
            switch self {
            case .unsignedInteger: return fundamental == FundamentalType.uint
            case .integer: return fundamental == FundamentalType.int
            case .enumeration: return fundamental == FundamentalType.enumeration
            case .object(let expected): return g_type_is_a(type, expected) != 0
            case .paramSpec: return fundamental == FundamentalType.param
            case .variant: return fundamental == FundamentalType.variant
            }
        }
    }

    /// The arguments after the instance, in order.
    let arguments: [Argument]

    /// `void (*)(GObject *, gpointer)`: no argument.
    static let none = SignalSignature(arguments: [])

    var description: String {
        "(" + (["instance"] + arguments.map(\.description) + ["user data"]).joined(separator: ", ") + ") -> void"
    }

    /// Why a handler of this signature cannot be connected to `detailedSignal` on `instance`,
    /// or nil when it fits: the signal exists on the instance's type, takes exactly these
    /// arguments and returns nothing, and, for `notify::property`, the property exists.
    @MainActor
    func mismatch(connecting detailedSignal: String, to instance: GObjectPointer) -> String? {
        // Safe: callers pass a live GObject, whose memory starts with its GTypeInstance.
        let type = instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
        let typeName = String(cString: g_type_name(type))
        var signalID: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(detailedSignal, type, &signalID, &detail, 0) != 0 else {
            return "\(typeName) has no signal \"\(detailedSignal)\""
        }
        var query = GSignalQuery()
        g_signal_query(signalID, &query)
        let signalName = String(cString: query.signal_name)
        if signalName == "notify", let separator = detailedSignal.range(of: "::") {
            let property = String(detailedSignal[separator.upperBound...])
            // Safe: the instance's class is a GObjectClass for as long as the instance lives.
            let objectClass = instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
                .withMemoryRebound(to: GObjectClass.self, capacity: 1) { $0 }
            if g_object_class_find_property(objectClass, property) == nil {
                return "\(typeName) has no property \"\(property)\" to notify"
            }
        }
        // The parameter types GLib gives may carry G_SIGNAL_TYPE_STATIC_SCOPE (bit 0).
        let parameters = (0..<Int(query.n_params)).map { query.param_types[$0] & ~GType(1) }
        let returnType = query.return_type & ~GType(1)
        let fits = parameters.count == arguments.count
            && zip(arguments, parameters).allSatisfy { $0.accepts($1) }
            && returnType == FundamentalType.none
        guard !fits else { return nil }
        let actual = (["instance"] + parameters.map { String(cString: g_type_name($0)) } + ["user data"]).joined(separator: ", ")
        return "\(typeName)::\(signalName) is (\(actual)) -> \(String(cString: g_type_name(returnType))), "
            + "but the handler was written for \(description)"
    }
}

/// The fundamental GTypes the signature check compares with: `G_TYPE_MAKE_FUNDAMENTAL (n)`,
/// macros Swift cannot see, are `n << 2` (gtype.h).
enum FundamentalType {
    static let none = GType(1 << 2)
    static let boolean = GType(5 << 2)
    static let int = GType(6 << 2)
    static let uint = GType(7 << 2)
    static let enumeration = GType(12 << 2)
    static let string = GType(16 << 2)
    static let param = GType(19 << 2)
    static let object = GType(20 << 2)
    static let variant = GType(21 << 2)

    /// The registered name of `type` ("GtkListItem"), or its number when it has none.
    static func name(of type: GType) -> String {
        g_type_name(type).map { String(cString: $0) } ?? "GType \(type)"
    }
}
