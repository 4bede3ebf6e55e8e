import TrellisCore

/// How the window shows the shell's notices (``NoticeBoard``): in the ``NoticeBar`` over the
/// page, whose button runs the notice's undo (or its action) and whose close button hides it; a
/// screen reader is told of each new notice (``Announcer``), as the focus stays where it was.
extension GtkFrontend {
    public func show(notice: Notice?) {
        window.showNotice(notice?.text, undoLabel: notice?.buttonLabel)
        if let notice {
            window.announce(notice.undoLabel.map { tr("%@. %@ with Ctrl+Z.", notice.text, $0) } ?? notice.text)
        }
    }

    /// Connects the notice bar's buttons to the shell's notices.
    func installNoticeDisplay() {
        window.onNoticeUndo = { [weak self] in self?.shell.notices.pressButton() }
        window.onNoticeClose = { [weak self] in self?.shell.notices.dismiss() }
    }
}
