import AuditModel
import Foundation

/// The native targets of one Xcode project (`project.pbxproj`): what each builds for and which
/// files it compiles or bundles. A file's platforms are those of the targets that build it, so
/// an iPhone app's files are not judged for the watch app beside them in the same project.
///
/// Files are matched by their path, which the project gives through file references and the
/// groups holding them (a copy of `Main.storyboard` in another folder is not the one a target
/// bundles); a file whose reference has no path relative to the project (an absolute path, one
/// under the build folder) is matched by name. Xcode 16 synchronised folders give their targets
/// every file under the folder.
public struct XcodeTargets: Sendable, Equatable, Codable {
    public struct Target: Sendable, Equatable, Codable {
        public var name: String
        /// `com.apple.product-type.application`, `…bundle.unit-test`, `…app-extension`…
        public var productType: String
        /// From `SDKROOT` and `SUPPORTED_PLATFORMS` of its configurations (the project's where
        /// the target sets none); nil when neither says.
        public var platforms: PlatformSet?
        /// Paths, relative to the folder holding the `.xcodeproj`, of the files its sources and
        /// resources build phases list (each language's file of a localised storyboard).
        public var filePaths: Set<String>
        /// Names of the files listed whose path the groups do not give.
        public var fileNames: Set<String>
        /// Synchronised folders, relative to the folder holding the `.xcodeproj`.
        public var synchronizedFolders: [String]
        /// Products of Swift packages the target links (`productName` of its
        /// `packageProductDependencies`).
        public var packageProducts: [String] = []
        /// Each platform's oldest deployment target over its configurations (the project's
        /// setting where the target sets none); a platform some configuration leaves unset, or
        /// sets from an `.xcconfig` or a variable, is absent.
        public var deploymentTargets: DeploymentTargets? = nil
        /// Its build configurations' compilation-condition settings, as written.
        public var configurations: [ConditionSettings]? = nil

        public var isTestBundle: Bool {
            productType.hasSuffix(".unit-test") || productType.hasSuffix(".ui-testing")
        }
    }

    /// A build configuration's compilation-condition settings as written, before levels merge.
    public struct ConditionSettings: Sendable, Equatable, Codable {
        public var name: String
        /// `SWIFT_ACTIVE_COMPILATION_CONDITIONS`, `OTHER_SWIFT_FLAGS`.
        public var conditions: String?
        public var otherSwiftFlags: String?
        /// A variant of either for some SDK or architecture (`…[sdk=iphoneos*]`): not decided.
        public var hasConditionalVariant: Bool
        /// Its `.xcconfig`, relative to the folder holding the `.xcodeproj`; `""` when the
        /// project names one whose path it does not give.
        public var configurationFile: String?
    }

    public let targets: [Target]
    /// The project's own configurations, under every target's.
    public var projectConfigurations: [ConditionSettings] = []
    /// Folders of the local Swift packages the project references (`XCLocalSwiftPackageReference`),
    /// relative to the folder holding the `.xcodeproj`.
    public var localPackages: [String] = []
    /// File path, and name, → positions in `targets` of the targets listing it.
    private let byPath: [String: [Int]]
    private let byName: [String: [Int]]
    /// By path in lower case: Macs' file systems ignore case by default, so a group named
    /// `Extensions` finds the folder `extensions`, and so does Xcode.
    private let byFoldedPath: [String: [Int]]
    private let hasSynchronizedFolders: Bool
    /// Each target's synchronised folders with their trailing slash, as bytes: asked of every
    /// file of the snapshot, so not built again per question.
    private let synchronizedPrefixes: [[[UInt8]]]

    public init(targets: [Target]) {
        self.targets = targets
        var byPath: [String: [Int]] = [:], byName: [String: [Int]] = [:], byFoldedPath: [String: [Int]] = [:]
        for (position, target) in targets.enumerated() {
            for path in target.filePaths {
                byPath[path, default: []].append(position)
                byFoldedPath[path.lowercased(), default: []].append(position)
            }
            for name in target.fileNames { byName[name, default: []].append(position) }
        }
        self.byPath = byPath
        self.byName = byName
        self.byFoldedPath = byFoldedPath
        hasSynchronizedFolders = targets.contains { !$0.synchronizedFolders.isEmpty }
        synchronizedPrefixes = targets.map { $0.synchronizedFolders.map { Array(($0 + "/").utf8) } }
    }

    /// Whether some target builds a file whose name ends in one of `suffixes`: a project
    /// listing no storyboards (or no Swift files) says nothing about them.
    public func lists(_ suffixes: [String]) -> Bool {
        func matches(_ name: String) -> Bool { suffixes.contains(where: name.hasSuffix) }
        return targets.contains { $0.filePaths.contains(where: matches) || $0.fileNames.contains(where: matches) }
    }

    private enum CodingKeys: String, CodingKey { case targets, localPackages, projectConfigurations }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(targets: try container.decode([Target].self, forKey: .targets))
        localPackages = try container.decode([String].self, forKey: .localPackages)
        projectConfigurations = try container.decodeIfPresent([ConditionSettings].self, forKey: .projectConfigurations) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(targets, forKey: .targets)
        try container.encode(localPackages, forKey: .localPackages)
        try container.encode(projectConfigurations, forKey: .projectConfigurations)
    }

    /// Deeper than this, a project file is not one Xcode wrote (its object graph is three
    /// levels deep): it is not handed to the property-list parser, which recurses per level.
    static let nestingLimit = 32

    /// The targets of a project file, or nil when it is not a readable property list with
    /// `objects` (a damaged or hostile file decides nothing).
    public static func parse(_ bytes: [UInt8]) -> XcodeTargets? {
        guard nesting(of: bytes) <= nestingLimit,
              let root = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any],
              let objects = root["objects"] as? [String: Any] else { return nil }
        func object(_ id: Any?) -> [String: Any]? { (id as? String).flatMap { objects[$0] as? [String: Any] } }
        let paths = ReferencePaths(objects: objects, mainGroup: object(root["rootObject"])?["mainGroup"] as? String)
        // A configuration list's configurations, read once for platforms, deployment targets
        // and compilation conditions alike.
        func configurations(ofList id: Any?) -> [Configuration] {
            guard let list = object(id), let ids = list["buildConfigurations"] as? [Any] else { return [] }
            return ids.compactMap { id in
                object(id).map { configuration in
                    Configuration(name: configuration["name"] as? String ?? "",
                                  settings: configuration["buildSettings"] as? [String: Any] ?? [:],
                                  configurationFile: (configuration["baseConfigurationReference"] as? String).map { paths.path(of: $0) ?? "" })
                }
            }
        }
        let project = object(root["rootObject"])
        let projectLevel = configurations(ofList: project?["buildConfigurationList"])
        let projectPlatforms = platforms(in: projectLevel.map(\.settings))
        let projectConfigurations = Dictionary(projectLevel.map { ($0.name, $0.settings) }, uniquingKeysWith: { first, _ in first })
        var targets: [Target] = []
        for case let target as [String: Any] in objects.values where target["isa"] as? String == "PBXNativeTarget" {
            var filePaths = Set<String>(), names = Set<String>()
            for phase in (target["buildPhases"] as? [Any] ?? []).compactMap(object) {
                guard let isa = phase["isa"] as? String, isa == "PBXSourcesBuildPhase" || isa == "PBXResourcesBuildPhase" else { continue }
                for file in (phase["files"] as? [Any] ?? []).compactMap(object) {
                    guard let id = file["fileRef"] as? String, let reference = object(id) else { continue }
                    // A variant group (a localised storyboard) stands for each language's file.
                    let ids = reference["isa"] as? String == "PBXVariantGroup" ? (reference["children"] as? [Any] ?? []).compactMap { $0 as? String } : [id]
                    // A reference's (or an empty variant group's) file name, where no path is known.
                    func name(of object: [String: Any]?) -> String? {
                        (object?["path"] as? String ?? object?["name"] as? String)?.split(separator: "/").last.map(String.init)
                    }
                    for id in ids {
                        if let path = paths.path(of: id) {
                            filePaths.insert(path)
                        } else if let name = name(of: object(id)) {
                            names.insert(name)
                        }
                    }
                    if ids.isEmpty, let name = name(of: reference) { names.insert(name) }
                }
            }
            let folders = (target["fileSystemSynchronizedGroups"] as? [Any] ?? []).compactMap { object($0)?["path"] as? String }
            let products = (target["packageProductDependencies"] as? [Any] ?? []).compactMap { object($0)?["productName"] as? String }
            let targetLevel = configurations(ofList: target["buildConfigurationList"])
            targets.append(Target(name: target["name"] as? String ?? "", productType: target["productType"] as? String ?? "",
                                  platforms: platforms(in: targetLevel.map(\.settings)) ?? projectPlatforms,
                                  filePaths: filePaths, fileNames: names, synchronizedFolders: folders, packageProducts: products,
                                  deploymentTargets: deploymentTargets(targetLevel, project: projectConfigurations),
                                  configurations: targetLevel.map(\.conditionSettings)))
        }
        var parsed = XcodeTargets(targets: targets.sorted { $0.name < $1.name })
        parsed.projectConfigurations = projectLevel.map(\.conditionSettings)
        // Xcode 15 on: a local package reference; before, a folder dropped in as a `wrapper`
        // file reference (only a folder holding a Package.swift is taken for a package later).
        parsed.localPackages = objects.compactMap { id, value in
            guard let reference = value as? [String: Any] else { return nil }
            switch reference["isa"] as? String {
            case "XCLocalSwiftPackageReference"?: return reference["relativePath"] as? String
            case "PBXFileReference"? where reference["lastKnownFileType"] as? String == "wrapper": return paths.path(of: id)
            default: return nil
            }
        }.sorted()
        return parsed
    }

    /// The targets that build the file at `path`, relative to the folder holding the project.
    public func targets(building path: String) -> [Target] {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
        let byPath = byPath[path] ?? byFoldedPath[path.lowercased()] ?? [], byName = byName[name] ?? []
        var positions = byPath.count + byName.count <= 1 ? byPath + byName : Array(Set(byPath + byName))
        if hasSynchronizedFolders {
            let bytes = path.utf8
            for (position, prefixes) in synchronizedPrefixes.enumerated() where !positions.contains(position)
                && prefixes.contains(where: { bytes.starts(with: $0) }) {
                positions.append(position)
            }
        }
        return positions.sorted().map { targets[$0] }
    }


    /// Paths of file references through the groups that hold them.
    private struct ReferencePaths {
        let objects: [String: Any]
        let mainGroup: String?
        /// Object id → the group listing it among its children.
        let parents: [String: String]

        init(objects: [String: Any], mainGroup: String?) {
            self.objects = objects
            self.mainGroup = mainGroup
            var parents: [String: String] = [:]
            for (id, value) in objects {
                guard let group = value as? [String: Any], let children = group["children"] as? [Any] else { continue }
                for case let child as String in children { parents[child] = id }
            }
            self.parents = parents
        }

        /// The path of `id` relative to the folder holding the project: each `<group>`-relative
        /// step's `path` joined up to the main group or a `SOURCE_ROOT` step. Nil for an absolute
        /// path, one under the build products or the SDK, a reference no group holds, a cycle, or
        /// one that leaves the folder.
        func path(of id: String) -> String? {
            var components: [Substring] = []
            var current: String? = id, seen = Set<String>()
            while let step = current {
                guard seen.insert(step).inserted, let object = objects[step] as? [String: Any] else { return nil }
                let tree = object["sourceTree"] as? String ?? "<group>"
                if let path = object["path"] as? String {
                    components.insert(contentsOf: path.split(separator: "/", omittingEmptySubsequences: true), at: 0)
                }
                switch tree {
                case "<group>":
                    current = parents[step]
                    guard current != nil || step == mainGroup else { return nil }
                case "SOURCE_ROOT": current = nil
                default: return nil
                }
            }
            var normalized: [Substring] = []
            for component in components {
                switch component {
                case ".": continue
                case "..":
                    guard normalized.popLast() != nil else { return nil }
                default: normalized.append(component)
                }
            }
            return normalized.isEmpty ? nil : normalized.joined(separator: "/")
        }
    }

    private struct Configuration {
        var name: String
        var settings: [String: Any]
        /// Its `.xcconfig` file (`""` where the project does not give its path), whose settings
        /// come between the target's and the project's.
        var configurationFile: String?
        var hasConfigurationFile: Bool { configurationFile != nil }

        /// The compilation-condition settings as written (values written as a list count by
        /// their words).
        var conditionSettings: ConditionSettings {
            let keys = ConfigurationFileSettings.keys
            func text(_ key: String) -> String? {
                if let value = settings[key] as? String { return value }
                return (settings[key] as? [Any]).map { $0.compactMap { $0 as? String }.joined(separator: " ") }
            }
            return ConditionSettings(name: name, conditions: text(keys[0]), otherSwiftFlags: text(keys[1]),
                                     hasConditionalVariant: settings.keys.contains { key in keys.contains { key.hasPrefix($0 + "[") } },
                                     configurationFile: configurationFile)
        }
    }

    private static func deploymentTargets(_ configurations: [Configuration], project: [String: [String: Any]]) -> DeploymentTargets? {
        guard !configurations.isEmpty else { return nil }
        var minimum: [Platform: [Int]] = [:]
        for (key, platform) in DeploymentTargets.settingKeys {
            var oldest: [Int]?
            for configuration in configurations {
                // The project's setting holds only where no configuration file could override it.
                let inherited = configuration.hasConfigurationFile ? nil : project[configuration.name]?[key] as? String
                guard let text = configuration.settings[key] as? String ?? inherited,
                      let version = DeploymentTargets.version(text) else { oldest = nil; break }
                if oldest.map({ DeploymentTargets.isOlder(version, than: $0) }) ?? true { oldest = version }
            }
            minimum[platform] = oldest
        }
        return DeploymentTargets(minimum)
    }

    private static func platforms(in configurations: [[String: Any]]) -> PlatformSet? {
        var found = PlatformSet()
        for settings in configurations {
            for key in ["SDKROOT", "SUPPORTED_PLATFORMS"] {
                guard let value = settings[key] as? String else { continue }
                for word in value.split(separator: " ") {
                    if let platform = Platform(spelling: String(word)) { found.insert(PlatformSet(platform)) }
                }
            }
        }
        return found.isEmpty ? nil : found
    }

    /// The deepest nesting of `{}` and `()` outside quoted strings.
    static func nesting(of bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0, index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
            case UInt8(ascii: "{"), UInt8(ascii: "("):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: ")"):
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return deepest
    }
}
