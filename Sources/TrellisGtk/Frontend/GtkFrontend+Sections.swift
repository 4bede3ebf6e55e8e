import CGtk
import TrellisCore

/// The app's top-level sections (``Shell/sections``) in the window: the sidebar lists them
/// and highlights the one the page on top belongs to; a click on a row, or Enter on it, opens
/// that section with ``Shell/open(section:)``; the primary menu lists them too, with Alt+1 …
/// Alt+9. F9 and the header bar's toggle show or hide the sidebar (`win.toggle-sidebar`); F9
/// puts the focus on the current section when it shows the sidebar, and back on the page when
/// it hides it. An app that declares no sections has neither sidebar nor toggle.
extension GtkFrontend {
    /// Binds the sidebar to the shell's sections and adds `win.toggle-sidebar` (F9).
    func installSections() {
        window.sidebar.onActivate = { [weak self] index in
            guard let self, self.shell.sections.indices.contains(index) else { return }
            self.open(self.shell.sections[index])
            self.window.sidebarFolding.sectionChosen()
        }
        Actions.add("toggle-sidebar", to: window.window.object, scope: "win", application: application.pointer,
                    accelerators: ["F9"]) { [weak self] in
            guard let self, !self.window.sidebar.sections.isEmpty else { return }
            let sidebar = self.window.sidebar
            sidebar.isShown.toggle()
            if sidebar.isShown {
                sidebar.focusCurrentRow()
            } else {
                self.window.ensureFocus(on: self.currentView?.defaultFocus)
            }
        }
        showSections()
    }

    public func sectionsDidChange() {
        showSections()
    }

    /// Lists the shell's sections in the sidebar and, for each section not yet there, in the
    /// primary menu (`win.go-<path>`, Alt+N for the first nine).
    private func showSections() {
        let sections = shell.sections
        window.sidebar.show(sections)
        // An app without sections has neither sidebar nor toggle.
        gtk_widget_set_visible(window.sidebarButton.object.as(), sections.isEmpty ? 0 : 1)
        window.sidebarFolding.sectionsChanged()
        for (number, section) in sections.enumerated() {
            let slug = section.path.split(separator: "/").joined(separator: "-")
            let name = "go-" + (slug.isEmpty ? "root" : slug)
            guard g_action_map_lookup_action(window.window.object.as(), name) == nil else { continue }
            addMenuAction(name, label: section.title, section: .navigation,
                          accelerators: number < 9 ? ["<Alt>\(number + 1)"] : []) { [weak self] in
                self?.open(section)
            }
        }
        highlightCurrentSection()
    }

    /// Selects the sidebar row of the section the page on top belongs to (none for a page
    /// outside every section, such as a hub at `/`).
    func highlightCurrentSection() {
        let current = shell.currentSection
        window.sidebar.select(current.flatMap { shell.sections.firstIndex(of: $0) })
    }

    /// Opens `section`; a failure is shown on the page on top.
    private func open(_ section: ShellSection) {
        do throws(NavigationError) {
            try shell.open(section: section)
        } catch {
            shell.navigator.top?.message = error.description
        }
    }
}
