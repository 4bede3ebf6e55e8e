import TrellisCore

/// The settings of every plugin (their manifests' `"settings"`), under a heading per plugin,
/// each with the control its type asks for: a check box, a number within its range, a choice
/// among its values, text or a path. A change applies at once, as GNOME's preferences do: it is
/// checked, stored and told to the plugin (``PluginHost/setSetting(_:of:to:)``); a value that
/// does not fit is not stored, and the page says why above the fields, keeping what was typed.
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
                fields.append(Form.Field(id: "\(manifest.id)/\(setting.key)", label: text(setting.title), style: Self.style(setting.kind),
                                         value: Self.text(values[setting.key] ?? setting.defaultValue),
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
        do {
            try host.setSetting(key, of: plugin, to: Self.value(text, for: setting.kind))
            message = nil
        } catch {
            message = tr("%@ — %@: %@", Localization.translate(host.report(for: plugin)?.manifest?.name ?? plugin, plugin: plugin),
                         Localization.translate(setting.title, plugin: plugin), error.reason)
        }
    }

    static func style(_ kind: PluginSetting.Kind) -> Form.Field.Style {
        switch kind {
        case .bool: .toggle
        case .int(let range): .number(range)
        case .choice(let choices): .choice(choices)
        case .string, .path: .singleLine
        }
    }

    /// A value as the form shows it.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .bool(let flag): flag ? "true" : "false"
        case .number: value.intValue.map(String.init) ?? value.jsonString
        case .string(let text): text
        default: value.jsonString
        }
    }

    /// What the form's text stands for in a setting of `kind` (checked by the host).
    static func value(_ text: String, for kind: PluginSetting.Kind) -> JSONValue {
        switch kind {
        case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .int: Int(text.trimmingCharacters(in: .whitespaces)).map { .number(Double($0)) } ?? .string(text)
        case .string, .choice, .path: .string(text)
        }
    }
}
