import TrellisCore

extension PluginHost {
    /// Every setting of plugin `id` with its value now (the user's, or the default); nil when
    /// no plugin has this id or its manifest could not be read.
    public func currentSettings(of id: String) -> [String: JSONValue]? {
        report(for: id)?.manifest.map { settingValues.values(of: $0) }
    }

    /// Sets setting `key` of plugin `id` to `value` after checking it against the manifest,
    /// stores it, and tells the plugin: `get_settings` answers the new values at once, and
    /// `<id>:settings` is triggered with `{"values": {...}, "changed": [key]}`. Returns every
    /// value afterwards. Any thread.
    @discardableResult
    public func setSetting(_ key: String, of id: String, to value: JSONValue) throws(SettingValueError) -> [String: JSONValue] {
        guard let manifest = report(for: id)?.manifest else {
            throw SettingValueError(key: key, reason: "there is no plugin \"\(id)\"")
        }
        let values = try settingValues.set(key, value, of: manifest)
        if let loaded = state.withLock({ $0.loaded[id] }) {
            loaded.context.settings.withLock { $0 = .object(values) }
            loaded.process?.process.sendSettings(.object(values))
        }
        logger.info("plugin \(id): setting \(key) = \(value)")
        if manifest.permissions.resources.files["setting:\(key)"] != nil { restartForNewGrants(id) }
        bus.trigger("\(id):settings", ["values": .object(values), "changed": [.string(key)]])
        return values
    }
}

extension PluginHost {
    /// Tells a plugin that has just loaded of the settings changed while it started: it was
    /// given the values of its launch, and ``setSetting(_:of:to:)`` tells loaded plugins only.
    /// (That call stores a value before it looks whether the plugin is loaded, so a change is
    /// told here, there, or both: never lost.)
    func deliverSettingsChanged(during loaded: PluginLoader.Loaded, _ manifest: PluginManifest) {
        let given = loaded.context.settings.withLock { $0 }
        let current = settingValues.values(of: manifest)
        let changed = current.keys.sorted().filter { given[$0] != current[$0] }
        guard !changed.isEmpty else { return }
        loaded.context.settings.withLock { $0 = .object(current) }
        loaded.process?.process.sendSettings(.object(current))
        bus.trigger("\(manifest.id):settings", ["values": .object(current), "changed": .array(changed.map { .string($0) })])
    }
}

extension PluginHost {
    /// The data of plugin `id`'s latest `<id>:status` event per item, in no order (see
    /// ``PluginStatusLines``).
    public func latestStatus(of id: String) -> [JSONValue] {
        guard let context = state.withLock({ $0.contexts[id] }) else { return [] }
        return Array(context.latestStatus.withLock { $0.values })
    }
}
