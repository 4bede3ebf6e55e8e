import TrellisCore

/// Builds and updates the widget that shows a page's custom content in the window — the idea
/// of swift-cross-ui's `GtkWidgetRepresentable`: make the widget once, update it each time the
/// model changes (`CustomContent.modelChanged()`). Register one per model type with
/// ``GtkFrontend/register(_:)``, before navigating to a page that shows such a model.
///
/// ```swift
/// struct TemperatureChart: GtkContentRenderer {
///     func makeWidget(for model: Temperatures) -> DrawingArea {
///         let area = DrawingArea()
///         area.setAccessibleLabel("Temperatures")
///         area.setDrawFunction { cairo, width, height in
///             cairo.setColor(.accentBlue)
///             for (index, reading) in model.readings.enumerated() {
///                 cairo.rectangle(x: Double(index * 20), y: Double(height) - reading * 4, width: 16, height: reading * 4)
///             }
///             cairo.fill()
///         }
///         return area
///     }
///     func update(_ widget: DrawingArea, for model: Temperatures) { widget.queueDraw() }
/// }
/// frontend.register(TemperatureChart())
/// ```
///
/// The window also gives the widget the model's `CustomContentModel.textLines` as its
/// accessible description, so a screen reader reads what the drawing shows.
@MainActor
public protocol GtkContentRenderer {
    /// The model type this renderer shows (exactly this class, not its subclasses).
    associatedtype Model: CustomContentModel
    /// The widget it builds.
    associatedtype Output: Widget
    /// Builds the widget showing `model`.
    func makeWidget(for model: Model) -> Output
    /// Brings `widget` up to date after `model` changed.
    func update(_ widget: Output, for model: Model)
}

/// The renderers an app registered with a ``GtkFrontend``, by model type.
@MainActor
struct GtkContentRenderers {
    /// A widget showing one model, and how to update it.
    struct Rendered {
        let widget: Widget
        let update: @MainActor () -> Void
    }

    private var makers: [ObjectIdentifier: @MainActor (any CustomContentModel) -> Rendered?] = [:]

    /// Registers `renderer` for its model type, replacing an earlier one.
    mutating func register<Renderer: GtkContentRenderer>(_ renderer: Renderer) {
        makers[ObjectIdentifier(Renderer.Model.self)] = { model in
            guard let model = model as? Renderer.Model else { return nil }
            let widget = renderer.makeWidget(for: model)
            return Rendered(widget: widget, update: { [weak model] in
                guard let model else { return }
                renderer.update(widget, for: model)
            })
        }
    }

    /// The widget of the renderer registered for `model`'s type, if any.
    func render(_ model: any CustomContentModel) -> Rendered? {
        makers[ObjectIdentifier(type(of: model))]?(model)
    }
}
