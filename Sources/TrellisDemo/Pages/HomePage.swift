import TrellisCore

/// `/`: the sections of the demo (the shell's ``Shell/sections``), each row opening its
/// section. Beside the sidebar, which names the same sections, each row also says what its
/// section holds (``ShellSection/summary``).
final class HomePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Trellis"
        let sections = shell.sections
        content = .table(TableContainer(
            source: ArraySource(sections),
            cells: SectionCells(),
            callbacks: StandardCallbacks(route: { item in sections[item.id.intValue ?? 0].path },
                                         navigate: { [weak shell] path in try? shell?.navigate(to: path) })))
    }
}

/// A section's row: its title, then its summary if it has one.
private struct SectionCells: CellProvider {
    func cell(for item: TableItem, context: CellContext) -> Cell {
        guard let section = item.value(as: ShellSection.self) else { return Cell(columns: [String(describing: item.value)]) }
        return Cell(columns: [section.title] + (section.summary.map { [$0] } ?? []), isSelected: context.isSelected)
    }
}
