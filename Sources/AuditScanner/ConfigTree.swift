import AuditModel
import Foundation
import SwiftChecks

/// The configuration in effect for each file of a scan: the root's, refined by every
/// `.a11y-audit.json` in a folder between the root and the file (nearest last).
public struct ConfigTree: Sendable {
    public let root: AuditConfig
    /// The effective configuration of each folder that has a file of its own, by folder
    /// relative to the root (`""` is the root).
    public let levels: [String: AuditConfig]

    /// Only the root's configuration.
    public init(root: AuditConfig) {
        self.root = root
        levels = ["": root]
    }

    /// The root's configuration and the nested files of `input`, shallow to deep. A nested file
    /// in a folder the configuration above excludes or treats as vendored (a pod's own) is not
    /// read: its folder is not scanned. `platforms`, when given (`--platform`), wins at every level.
    public init(root: AuditConfig, input: ScanInput, platforms: PlatformSet? = nil,
                limit: Int = ProjectFileLimits().limit(for: .config)) throws {
        var root = root
        if let platforms { root.platforms = platforms }
        self.root = root
        var levels = ["": root]
        let suffix = "/" + AuditConfig.fileName
        // An archive's files over their limit were never held; their sizes give the same error.
        let nested = (input.files + input.oversized.map(\.placeholder)).filter { $0.path.hasSuffix(suffix) }
            .map { (file: $0, folder: String($0.path.dropLast(suffix.count))) }
            .sorted { ($0.folder.split(separator: "/").count, $0.folder) < ($1.folder.split(separator: "/").count, $1.folder) }
        let knownRules = Set(RuleCatalog.allRuleIDs)
        for (file, folder) in nested {
            let above = Self.level(for: file.path, in: levels)
            switch Scanner.skipReason(file.path, above) {
            case .excluded?, .vendored?: continue
            case .test?, .debugScreen?, .example?, nil: break
            }
            guard file.size <= limit else {
                throw ScanError.unreadable(path: file.path, reason: "it is \(file.size) bytes, over the \(limit)-byte limit for configuration files")
            }
            do {
                let config = try NestedAuditConfig(data: Data(try file.bytes()), folder: folder, knownRules: knownRules)
                var refined = above.refined(by: config)
                if let platforms { refined.platforms = platforms }
                levels[folder] = refined
            } catch let error as AuditConfigError {
                throw ScanError.config(error)
            }
        }
        self.levels = levels
    }

    /// The configuration in effect for the file at `path`.
    public func config(for path: String) -> AuditConfig {
        levels.count == 1 ? root : Self.level(for: path, in: levels)
    }

    /// The folder whose configuration governs `path`: the deepest with a file of its own.
    func folder(for path: String) -> String {
        guard levels.count > 1 else { return "" }
        var directory = ProjectIndex.directory(of: path)
        while !directory.isEmpty, levels[directory] == nil { directory = ProjectIndex.directory(of: directory) }
        return directory
    }

    private static func level(for path: String, in levels: [String: AuditConfig]) -> AuditConfig {
        var directory = ProjectIndex.directory(of: path)
        while true {
            if let config = levels[directory] { return config }
            // The root's level is always present: the walk ends there.
            directory = ProjectIndex.directory(of: directory)
        }
    }
}

/// The checkers and the cache of each configuration level, built once per scan, so each file
/// is checked under the configuration in effect for it.
struct LevelCheckers: Sendable {
    struct Checkers: Sendable {
        let config: AuditConfig
        let source: SourceChecker
        let document: DocumentChecker
        /// Keyed by the level's configuration too: a file moved under another level is checked anew.
        let cache: ScanCache?
    }

    let tree: ConfigTree
    private let rootCheckers: Checkers
    private let byFolder: [String: Checkers]

    init(_ tree: ConfigTree, storage: (any ScanCacheStorage)?) {
        self.tree = tree
        func checkers(_ config: AuditConfig) -> Checkers {
            Checkers(config: config, source: SourceChecker(config: config), document: DocumentChecker(config: config),
                     cache: storage.map { ScanCache(storage: $0, configDigest: config.digest) })
        }
        rootCheckers = checkers(tree.root)
        byFolder = tree.levels.filter { !$0.key.isEmpty }.mapValues(checkers)
    }

    func checkers(for path: String) -> Checkers {
        byFolder.isEmpty ? rootCheckers : byFolder[tree.folder(for: path)] ?? rootCheckers
    }

    /// The catalog rules of every level over the whole catalog, each level keeping the
    /// findings in its own files (a colour set's `Contents.json`).
    func catalogFindings(_ facts: CatalogFacts) -> [Finding] {
        let levels = [("", rootCheckers)] + byFolder.map { ($0.key, $0.value) }
        guard levels.count > 1 else { return CatalogChecker(config: tree.root).check(facts) }
        return levels.flatMap { folder, checkers in
            CatalogChecker(config: checkers.config).check(facts).filter { tree.folder(for: $0.location.file) == folder }
        }
    }
}

extension ConfigTree {
    /// A whole-scan limit: only the root's file sets it.
    var maxFileBytes: Int { root.maxFileBytes }
}

extension Scanner {
    /// Why `path` is out of scope under the configuration in effect for it.
    static func skipReason(_ path: String, _ configs: ConfigTree) -> SkipReason? {
        skipReason(path, configs.config(for: path))
    }
}
