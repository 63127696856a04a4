import AuditModel
import Foundation

/// The native targets of one Xcode project (`project.pbxproj`): what each builds for and which
/// files it compiles or bundles. A file's platforms are those of the targets that build it, so
/// an iPhone app's files are not judged for the watch app beside them in the same project.
///
/// Files are matched by name (`Row.swift`), as the project's sources build phase lists them
/// through file references whose folders come from groups; two targets' files of one name
/// share their platforms. Xcode 16 synchronised folders give their targets every file under
/// the folder.
public struct XcodeTargets: Sendable, Equatable, Codable {
    public struct Target: Sendable, Equatable, Codable {
        public var name: String
        /// `com.apple.product-type.application`, `…bundle.unit-test`, `…app-extension`…
        public var productType: String
        /// From `SDKROOT` and `SUPPORTED_PLATFORMS` of its configurations (the project's where
        /// the target sets none); nil when neither says.
        public var platforms: PlatformSet?
        /// Names of the files its sources and resources build phases list.
        public var fileNames: Set<String>
        /// Synchronised folders, relative to the folder holding the `.xcodeproj`.
        public var synchronizedFolders: [String]

        public var isTestBundle: Bool {
            productType.hasSuffix(".unit-test") || productType.hasSuffix(".ui-testing")
        }
    }

    public let targets: [Target]
    /// File name → positions in `targets` of the targets listing it.
    private let byName: [String: [Int]]

    public init(targets: [Target]) {
        self.targets = targets
        var byName: [String: [Int]] = [:]
        for (position, target) in targets.enumerated() {
            for name in target.fileNames { byName[name, default: []].append(position) }
        }
        self.byName = byName
    }

    private enum CodingKeys: String, CodingKey { case targets }

    public init(from decoder: any Decoder) throws {
        self.init(targets: try decoder.container(keyedBy: CodingKeys.self).decode([Target].self, forKey: .targets))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(targets, forKey: .targets)
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
        func settings(ofList id: Any?) -> [[String: Any]] {
            guard let list = object(id), let ids = list["buildConfigurations"] as? [Any] else { return [] }
            return ids.compactMap { object($0)?["buildSettings"] as? [String: Any] }
        }
        let project = object(root["rootObject"])
        let projectPlatforms = platforms(in: settings(ofList: project?["buildConfigurationList"]))
        var targets: [Target] = []
        for case let target as [String: Any] in objects.values where target["isa"] as? String == "PBXNativeTarget" {
            var names = Set<String>()
            for phase in (target["buildPhases"] as? [Any] ?? []).compactMap(object) {
                guard let isa = phase["isa"] as? String, isa == "PBXSourcesBuildPhase" || isa == "PBXResourcesBuildPhase" else { continue }
                for file in (phase["files"] as? [Any] ?? []).compactMap(object) {
                    guard let reference = object(file["fileRef"]) else { continue }
                    // A variant group (a localised storyboard) names its file; so does a reference.
                    if let name = (reference["path"] as? String ?? reference["name"] as? String)?.split(separator: "/").last {
                        names.insert(String(name))
                    }
                }
            }
            let folders = (target["fileSystemSynchronizedGroups"] as? [Any] ?? []).compactMap { object($0)?["path"] as? String }
            targets.append(Target(name: target["name"] as? String ?? "", productType: target["productType"] as? String ?? "",
                                  platforms: platforms(in: settings(ofList: target["buildConfigurationList"])) ?? projectPlatforms,
                                  fileNames: names, synchronizedFolders: folders))
        }
        return XcodeTargets(targets: targets.sorted { $0.name < $1.name })
    }

    /// The targets that build the file at `path`, relative to the folder holding the project.
    public func targets(building path: String) -> [Target] {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var positions = Set(byName[name] ?? [])
        for (position, target) in targets.enumerated() where target.synchronizedFolders.contains(where: { path.hasPrefix($0 + "/") }) {
            positions.insert(position)
        }
        return positions.sorted().map { targets[$0] }
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
