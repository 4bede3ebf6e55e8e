/// The model of a page that draws its content itself (a chart, a map, an image): what
/// ``CustomContent`` shows. Each front end renders it its own way — the window through a
/// renderer the app registers for the model's type (TrellisGtk's `GtkContentRenderer`), the
/// headless front end as ``textLines``.
///
/// ```swift
/// final class Temperatures: CustomContentModel {
///     var readings: [Double] = [12.5, 14, 13.5]
///     var textLines: [String] { readings.map { "\($0) °C" } }
/// }
/// ```
@MainActor
public protocol CustomContentModel: AnyObject {
    /// The content as lines of text: what the headless front end shows, what the window shows
    /// when no renderer is registered for the model, and what a screen reader reads as the
    /// description of the drawn widget.
    var textLines: [String] { get }
    /// What a screen reader reads as the description of the drawn widget: by default the
    /// text lines; a model whose lines draw (bars of "▇") says it in words instead.
    var accessibleDescription: String { get }
}

extension CustomContentModel {
    public var accessibleDescription: String { textLines.joined(separator: "\n") }
}

/// Content a page draws itself (``PageContent/custom(_:)``): an app's model, and the
/// announcement that it changed, which every front end follows (the window updates its
/// widget, the headless rendering its lines).
///
/// ```swift
/// let temperatures = Temperatures()
/// let custom = CustomContent(temperatures)
/// content = .custom(custom)
/// temperatures.readings.append(15)
/// custom.modelChanged()          // the window redraws, headless shows four lines
/// ```
@MainActor
public final class CustomContent {
    /// The app's model: a front end finds its renderer by the model's type.
    public let model: any CustomContentModel
    private let observers = ObserverList<Void>()

    /// Content showing `model`.
    public init(_ model: any CustomContentModel) {
        self.model = model
    }

    /// What the content shows as text (the model's ``CustomContentModel/textLines``).
    public var textLines: [String] { model.textLines }

    /// Tells the front ends that the model changed, so they render it again.
    public func modelChanged() {
        observers.announce(())
    }

    /// Calls `handler` after each ``modelChanged()`` while the returned token lives (what a
    /// front end does to keep its rendering up to date).
    public func onModelChanged(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        observers.observe { _ in handler() }
    }
}
