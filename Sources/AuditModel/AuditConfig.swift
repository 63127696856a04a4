import Foundation

public enum AuditConfigError: Error, CustomStringConvertible, Equatable {
    case malformed(file: String, reason: String)
    case unknownKey(file: String, key: String)
    case unknownRule(file: String, ruleID: String, key: String)
    case badValue(file: String, key: String, value: String, expected: String)
    /// A key that governs the whole scan, set in a `.a11y-audit.json` below the root.
    case rootOnlyKey(file: String, key: AuditConfig.Key)

    public var description: String {
        switch self {
        case .malformed(let file, let reason):
            "\(file): not valid JSON (\(InputExcerpt.of(reason, limit: 200)))"
        case .unknownKey(let file, let key):
            "\(file): unknown key \"\(InputExcerpt.of(key))\"; allowed: \(AuditConfig.allowedKeys.sorted().joined(separator: ", "))"
        case .unknownRule(let file, let ruleID, let key):
            "\(file): \"\(InputExcerpt.of(key))\" names unknown rule \"\(InputExcerpt.of(ruleID))\"; `a11y-audit rules` lists the catalog"
        case .badValue(let file, let key, let value, let expected):
            "\(file): \"\(InputExcerpt.of(key))\" has \(InputExcerpt.of(value)); expected \(expected)"
        case .rootOnlyKey(let file, let key):
            "\(file): \"\(key.rawValue)\" applies to the whole scan and is read only from the root's \(AuditConfig.fileName); "
                + "move it there or remove it (a nested file may set \(AuditConfig.Key.nestable.map(\.rawValue).joined(separator: ", ")))"
        }
    }
}

/// The repository's `.a11y-audit.json`. Every key is optional; unknown keys are errors so a
/// typo never silently turns a rule off.
public struct AuditConfig: Sendable, Equatable {
    public static let fileName = ".a11y-audit.json"

    /// The keys a configuration file may hold.
    public enum Key: String, CaseIterable, Sendable {
        case disable, enable, severity, exclude, include, platforms, maxFileBytes, skipVendored, includeNonShipping, baseline

        /// Read before any file is (`maxFileBytes` bounds what an archive's reader holds) or
        /// applied to the whole report (`baseline`): one value per scan, the root's.
        public var isRootOnly: Bool {
            switch self {
            case .maxFileBytes, .baseline: true
            case .disable, .enable, .severity, .exclude, .include, .platforms, .skipVendored, .includeNonShipping: false
            }
        }

        /// What a `.a11y-audit.json` below the root may set.
        public static var nestable: [Key] { allCases.filter { !$0.isRootOnly } }
    }

    static var allowedKeys: Set<String> { Set(Key.allCases.map(\.rawValue)) }

    /// Rule ids turned off.
    public var disabled: Set<String> = []
    /// Rule ids turned on only for these (empty: all enabled rules).
    public var onlyEnabled: Set<String> = []
    public var severityOverrides: [String: Severity] = [:]
    /// Glob patterns (relative to the root) of paths not to scan.
    public var exclude: [String] = []
    /// Glob patterns that override the vendored/generated defaults and `exclude`.
    public var include: [String] = []
    /// Platforms of the whole repository, overriding the project files' answer.
    public var platforms: PlatformSet?
    public var maxFileBytes: Int = 2_000_000
    public var skipVendored: Bool = true
    /// Test targets, `#if DEBUG` code and previews are not shipped UI: skipped (and counted)
    /// unless this is true.
    public var includeNonShipping: Bool = false
    /// The baseline file (`scan --write-baseline`), relative to the scanned root: findings it
    /// holds are left out of `scan` reports. Not part of `digest`: it filters whole reports
    /// after the per-file results the cache keeps.
    public var baseline: String?

    public init() {}

    /// Parses and validates a config; `knownRules` are the catalog's ids.
    public init(data: Data, file: String, knownRules: Set<String>) throws {
        self = try Self.parse(data: data, file: file, knownRules: knownRules).config
    }

    /// The config a file describes (defaults for what it leaves out) and the keys it sets, which
    /// a nested file needs to say what it changes of its parent's.
    static func parse(data: Data, file: String, knownRules: Set<String>) throws -> (config: AuditConfig, keys: Set<Key>) {
        var config = AuditConfig()
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw AuditConfigError.malformed(file: file, reason: (error as NSError).localizedDescription)
        }
        guard let root = object as? [String: Any] else {
            throw AuditConfigError.malformed(file: file, reason: "the top level must be an object")
        }
        var keys = Set<Key>()
        for name in root.keys {
            guard let key = Key(rawValue: name) else { throw AuditConfigError.unknownKey(file: file, key: name) }
            keys.insert(key)
        }
        func strings(_ key: String) throws -> [String] {
            guard let value = root[key] else { return [] }
            guard let list = value as? [String] else {
                throw AuditConfigError.badValue(file: file, key: key, value: "\(value)", expected: "a list of strings")
            }
            return list
        }
        func rules(_ key: String) throws -> Set<String> {
            let ids = try strings(key)
            for id in ids where !knownRules.contains(id) {
                throw AuditConfigError.unknownRule(file: file, ruleID: id, key: key)
            }
            return Set(ids)
        }
        config.disabled = try rules("disable")
        config.onlyEnabled = try rules("enable")
        config.exclude = try strings("exclude")
        config.include = try strings("include")
        if let severities = root["severity"] {
            guard let map = severities as? [String: String] else {
                throw AuditConfigError.badValue(file: file, key: "severity", value: "\(severities)",
                                                expected: "an object of rule id to \"error\", \"warning\" or \"note\"")
            }
            for (id, level) in map {
                guard knownRules.contains(id) else { throw AuditConfigError.unknownRule(file: file, ruleID: id, key: "severity") }
                guard let severity = Severity(rawValue: level) else {
                    throw AuditConfigError.badValue(file: file, key: "severity.\(id)", value: "\"\(level)\"",
                                                    expected: "\"error\", \"warning\" or \"note\"")
                }
                config.severityOverrides[id] = severity
            }
        }
        if root["platforms"] != nil {
            var set = PlatformSet()
            for name in try strings("platforms") {
                guard let platform = Platform(spelling: name) else {
                    throw AuditConfigError.badValue(file: file, key: "platforms", value: "\"\(name)\"",
                                                    expected: "ios, macos, tvos, visionos or watchos")
                }
                set.insert(PlatformSet(platform))
            }
            guard !set.isEmpty else {
                throw AuditConfigError.badValue(file: file, key: "platforms", value: "[]",
                                                expected: "at least one of ios, macos, tvos, visionos, watchos (omit the key to detect them)")
            }
            config.platforms = set
        }
        if let limit = root["maxFileBytes"] {
            guard !Self.isJSONBoolean(limit), let number = limit as? Int, number > 0 else {
                throw AuditConfigError.badValue(file: file, key: "maxFileBytes", value: "\(limit)", expected: "a positive integer")
            }
            config.maxFileBytes = number
        }
        if let vendored = root["skipVendored"] {
            guard Self.isJSONBoolean(vendored), let flag = vendored as? Bool else {
                throw AuditConfigError.badValue(file: file, key: "skipVendored", value: "\(vendored)", expected: "true or false")
            }
            config.skipVendored = flag
        }
        if let nonShipping = root["includeNonShipping"] {
            guard Self.isJSONBoolean(nonShipping), let flag = nonShipping as? Bool else {
                throw AuditConfigError.badValue(file: file, key: "includeNonShipping", value: "\(nonShipping)", expected: "true or false")
            }
            config.includeNonShipping = flag
        }
        if let path = root["baseline"] {
            // Inside the repository: the file travels with the code it describes, and a
            // repository's config cannot make the scan read files outside it.
            guard let text = path as? String, !text.isEmpty, !text.hasPrefix("/"),
                  !text.split(separator: "/").contains("..") else {
                throw AuditConfigError.badValue(file: file, key: "baseline", value: "\(path)",
                                                expected: "a path inside the repository, relative to its root (\".a11y-audit-baseline.json\")")
            }
            config.baseline = text
        }
        return (config, keys)
    }

    /// Foundation bridges JSON `true` and `1` to NSNumbers that both cast to Bool and Int; only
    /// the boolean's class tells them apart.
    public static func isJSONBoolean(_ value: Any) -> Bool {
        type(of: value as AnyObject) == type(of: NSNumber(value: true))
    }

    public func isEnabled(_ ruleID: String) -> Bool {
        !disabled.contains(ruleID) && (onlyEnabled.isEmpty || onlyEnabled.contains(ruleID))
    }

    /// A stable digest of everything that changes a file's findings, for the cache key.
    public var digest: String {
        let parts: [String] = [
            disabled.sorted().joined(separator: ","), onlyEnabled.sorted().joined(separator: ","),
            severityOverrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: ","),
            String(platforms?.rawValue ?? 255), includeNonShipping ? "non-shipping" : "",
        ]
        return Digest.sha256Hex(parts.joined(separator: "|"))
    }
}
