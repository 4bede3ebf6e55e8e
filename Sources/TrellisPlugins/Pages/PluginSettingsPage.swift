import TrellisCore

/// The settings of every plugin (their manifests' `"settings"`), under a heading per plugin,
/// each with the control its type asks for: a check box, a number within its range, a choice
/// among its values (shown by their titles), text, a position or a path. A change applies at
/// once, as GNOME's preferences do: it is checked, stored and told to the plugin
/// (``PluginHost/setSetting(_:of:to:)``); a value that does not fit is not stored, and the page
/// says why above the fields, marking the field at fault and keeping what was typed.
///
/// ```swift
/// try shell.route("/settings", to: PluginSettingsPage.self)   // the shell must provide its PluginHost
/// ```
@MainActor
public final class PluginSettingsPage: PageController {
    public required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Preferences")
        guard let host = shell.resolve(PluginHost.self) else {
            content = .text(tr("This window has no plugins."))
            return
        }
        let plugins = host.reports.compactMap(\.manifest).filter { !$0.settings.isEmpty }
        guard !plugins.isEmpty else {
            content = .text(tr("No plugin has settings."))
            return
        }
        var fields: [Form.Field] = []
        for manifest in plugins {
            let values = host.settingValues.values(of: manifest)
            let text = { (english: String) in Localization.translate(english, plugin: manifest.id) }
            fields.append(Form.Field(id: "plugin:\(manifest.id)", label: text(manifest.name), style: .heading))
            for setting in manifest.settings {
                fields.append(Form.Field(id: "\(manifest.id)/\(setting.key)", label: text(setting.title),
                                         style: Self.style(setting, translate: text),
                                         value: Self.text(values[setting.key] ?? setting.defaultValue, of: setting, translate: text),
                                         help: setting.description.isEmpty ? "" : text(setting.description)))
            }
        }
        let form = Form(fields: fields)
        form.onEdit = { [weak self] id, text in self?.edited(id, text, host: host) }
        content = .form(form)
    }

    private func edited(_ id: String, _ text: String, host: PluginHost) {
        guard let slash = id.firstIndex(of: "/") else { return }
        let plugin = String(id[..<slash]), key = String(id[id.index(after: slash)...])
        guard let setting = host.report(for: plugin)?.manifest?.settings.first(where: { $0.key == key }) else { return }
        let translate = { (english: String) in Localization.translate(english, plugin: plugin) }
        do {
            try host.setSetting(key, of: plugin, to: Self.value(text, of: setting, translate: translate))
            message = nil
        } catch {
            messageField = id
            message = tr("%@ — %@: %@", Localization.translate(host.report(for: plugin)?.manifest?.name ?? plugin, plugin: plugin),
                         Localization.translate(setting.title, plugin: plugin), error.reason)
        }
    }

    /// The field's style for `setting`: a choice lists its values' titles, translated.
    static func style(_ setting: PluginSetting, translate: (String) -> String) -> Form.Field.Style {
        switch setting.kind {
        case .bool: .toggle
        case .int(let range): .number(range)
        case .choice(let choices): .choice(choices.map { translate(setting.title(ofChoice: $0)) })
        case .string, .path, .position: .singleLine
        }
    }

    /// A value as the form shows it: a choice by its translated title.
    static func text(_ value: JSONValue, of setting: PluginSetting, translate: (String) -> String) -> String {
        switch value {
        case .bool(let flag): flag ? "true" : "false"
        case .number: value.intValue.map(String.init) ?? value.jsonString
        case .string(let text):
            if case .choice = setting.kind { translate(setting.title(ofChoice: text)) } else { text }
        default: value.jsonString
        }
    }

    /// What the form's text stands for in `setting` (checked by the host): a choice's title
    /// stands for its value.
    static func value(_ text: String, of setting: PluginSetting, translate: (String) -> String) -> JSONValue {
        switch setting.kind {
        case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .int: Int(text.trimmingCharacters(in: .whitespaces)).map { .number(Double($0)) } ?? .string(text)
        case .choice(let choices): .string(choices.first { translate(setting.title(ofChoice: $0)) == text } ?? text)
        case .string, .path, .position: .string(text)
        }
    }
}
