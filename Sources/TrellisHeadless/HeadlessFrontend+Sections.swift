import TrellisCore

extension HeadlessFrontend {
    /// The shell's sections as text, one line each: the title and path, the current section
    /// (the one the page on top belongs to) marked with `>` — what the window's sidebar shows.
    ///
    /// ```text
    /// > Notes  /notes
    ///   People  /people
    /// ```
    public func renderSections() -> String {
        let current = shell.currentSection
        return shell.sections.map { section in
            "\(section == current ? ">" : " ") \(section.title)  \(section.path)"
        }.joined(separator: "\n")
    }
}
