import Foundation

/// A `.a11y-audit.json` in a folder below the root: it refines the configuration in effect
/// above it, for the files under its folder. Only what it sets changes; see `AuditConfig.refined`.
public struct NestedAuditConfig: Sendable, Equatable {
    /// The folder holding the file, relative to the root (never empty).
    public let folder: String
    /// The file, as errors name it.
    public let file: String
    /// What the file sets, with defaults for the rest (only `keys` are read).
    let values: AuditConfig
    let keys: Set<AuditConfig.Key>

    public init(data: Data, folder: String, knownRules: Set<String>) throws {
        self.folder = folder
        file = folder + "/" + AuditConfig.fileName
        (values, keys) = try AuditConfig.parse(data: data, file: file, knownRules: knownRules)
        // Sorted, so the same file always names the same key.
        if let key = keys.filter(\.isRootOnly).min(by: { $0.rawValue < $1.rawValue }) {
            throw AuditConfigError.rootOnlyKey(file: file, key: key)
        }
    }
}

extension AuditConfig {
    /// This configuration with `nested` laid over it, for the files under `nested.folder`. Per
    /// key, the nearer file wins:
    /// - `disable` adds to the rules turned off above; `enable` replaces the list of the only
    ///   rules that run (`[]` lifts the list) and turns its rules back on. Within one file,
    ///   `disable` wins over `enable`, as at the root.
    /// - `severity` overrides per rule; the rules it does not name keep the severity above.
    /// - `exclude` and `include` add patterns, read relative to the nested file's folder.
    /// - `platforms`, `skipVendored` and `includeNonShipping` replace the value above.
    public func refined(by nested: NestedAuditConfig) -> AuditConfig {
        var merged = self
        let values = nested.values
        // Every key, so a key added to `Key` must say how it merges.
        for key in Key.allCases where nested.keys.contains(key) {
            switch key {
            case .enable:
                merged.onlyEnabled = values.onlyEnabled
                merged.disabled.subtract(values.onlyEnabled)
            case .disable: break  // after `enable`, below, so that it wins
            case .severity: merged.severityOverrides.merge(values.severityOverrides) { $1 }
            case .exclude: merged.exclude += values.exclude.map { Self.rebase($0, into: nested.folder) }
            case .include: merged.include += values.include.map { Self.rebase($0, into: nested.folder) }
            case .platforms: merged.platforms = values.platforms
            case .skipVendored: merged.skipVendored = values.skipVendored
            case .includeNonShipping: merged.includeNonShipping = values.includeNonShipping
            case .maxFileBytes, .baseline: break  // refused when the file was read
            }
        }
        if nested.keys.contains(.disable) { merged.disabled.formUnion(values.disabled) }
        return merged
    }

    /// A glob of a nested file, relative to its `folder`, as a glob relative to the root that
    /// matches the same paths and only below the folder. A pattern without `/` matches one
    /// component anywhere (and what is under it): anywhere below the folder, then.
    static func rebase(_ pattern: String, into folder: String) -> String {
        var text = Substring(pattern)
        if text.hasPrefix("/") { text = text.dropFirst() }
        return text.contains("/") ? "\(folder)/\(text)" : "\(folder)/**/\(text)/**"
    }
}
