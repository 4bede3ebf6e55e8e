import TrellisCore

/// How the window shows the shell's notices (``NoticeBoard``): in the ``NoticeBar`` over the
/// page, whose button runs the notice's undo (or its action) and whose close button hides it.
extension GtkFrontend {
    public func show(notice: Notice?) {
        window.noticeBar.show(notice?.text, undoLabel: notice?.buttonLabel)
    }

    /// Connects the notice bar's buttons to the shell's notices.
    func installNoticeDisplay() {
        window.noticeBar.onUndo = { [weak self] in self?.shell.notices.pressButton() }
        window.noticeBar.onClose = { [weak self] in self?.shell.notices.dismiss() }
    }
}
