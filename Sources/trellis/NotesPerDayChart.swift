import TrellisCore
import TrellisDemo
import TrellisGtk

/// Draws ``NotesPerDay`` in the window: a bar per day (the last ``shownDays`` days with
/// notes), its count over it and its date under it, in a `GtkDrawingArea`.
struct NotesPerDayChart: GtkContentRenderer {
    /// The most days drawn; the text (and the screen reader's description) has every day.
    static let shownDays = 14

    func makeWidget(for model: NotesPerDay) -> DrawingArea {
        let area = DrawingArea()
        // The smallest it is drawn (it grows with the window): it fits a 360 px window.
        area.setContentSize(width: 300, height: 240)
        area.expand(horizontally: true, vertically: true)
        area.setAccessibleLabel(tr("Notes per day"))
        // Weak: GTK keeps the draw function as long as the area, which the wrapper owns.
        area.setDrawFunction { [weak model, weak area] cairo, width, height in
            guard let model, let area else { return }
            Self.draw(model, in: cairo, width: Double(width), height: Double(height), ink: area.foregroundColor)
        }
        return area
    }

    func update(_ widget: DrawingArea, for model: NotesPerDay) {
        widget.queueDraw()
    }

    /// Draws the bars, counts and dates; `ink` is the theme's text colour.
    private static func draw(_ model: NotesPerDay, in cairo: borrowing CairoContext, width: Double, height: Double, ink: Color) {
        let margin = 24.0, labelHeight = 20.0
        let days = model.days.suffix(shownDays)
        cairo.setFontSize(12)
        guard !days.isEmpty else {
            let text = tr("No notes yet.")
            cairo.setColor(ink.withAlpha(0.6))
            cairo.showText(text, x: (width - cairo.textWidth(text)) / 2, y: height / 2)
            return
        }
        let baseline = height - margin - labelHeight
        cairo.setColor(ink.withAlpha(0.3))
        cairo.setLineWidth(1)
        cairo.move(toX: margin, y: baseline + 0.5)
        cairo.line(toX: width - margin, y: baseline + 0.5)
        cairo.stroke()

        // A slot per day, at most 80 px wide, the group centred: a few days do not huddle at the left.
        let slot = min(80, (width - 2 * margin) / Double(days.count))
        let start = (width - slot * Double(days.count)) / 2
        let tallest = baseline - margin - labelHeight
        let largest = Double(model.largestCount)
        for (index, day) in days.enumerated() {
            let x = start + Double(index) * slot
            let barHeight = max(2, tallest * Double(day.count) / largest)
            cairo.setColor(.accentBlue)
            cairo.rectangle(x: x + slot * 0.15, y: baseline - barHeight, width: slot * 0.7, height: barHeight)
            cairo.fill()
            cairo.setColor(ink)
            let count = String(day.count)
            cairo.showText(count, x: x + (slot - cairo.textWidth(count)) / 2, y: baseline - barHeight - 6)
            let date = String(day.date.dropFirst(5))  // "11-20": the month and day
            cairo.setColor(ink.withAlpha(0.7))
            cairo.showText(date, x: x + (slot - cairo.textWidth(date)) / 2, y: baseline + labelHeight - 4)
        }
    }
}
