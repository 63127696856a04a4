import AuditModel

/// The oldest OS version each platform's build of some code supports (Xcode's
/// `IPHONEOS_DEPLOYMENT_TARGET` and friends). A platform is absent where no setting says, or
/// where one of the targets building the code does not say: nothing is then known about it.
public struct DeploymentTargets: Sendable, Equatable, Hashable, Codable {
    /// Platform → version components (`[17, 4]` for 17.4).
    public private(set) var minimum: [Platform: [Int]] = [:]

    public init(_ minimum: [Platform: [Int]] = [:]) { self.minimum = minimum }

    public static let unknown = DeploymentTargets()

    /// Build settings naming each platform's deployment target.
    public static let settingKeys: [(key: String, platform: Platform)] = [
        ("IPHONEOS_DEPLOYMENT_TARGET", .iOS), ("MACOSX_DEPLOYMENT_TARGET", .macOS), ("TVOS_DEPLOYMENT_TARGET", .tvOS),
        ("WATCHOS_DEPLOYMENT_TARGET", .watchOS), ("XROS_DEPLOYMENT_TARGET", .visionOS),
    ]

    /// `17`, `17.4`, `10.15.1`; nil for anything else (a `$(VARIABLE)`, a word).
    public static func version(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 3 else { return nil }
        var components: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 4, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(part) else { return nil }
            components.append(value)
        }
        return components
    }

    /// Whether every build for `platform` runs on `version` or later.
    public func guarantees(_ platform: Platform, _ version: [Int]) -> Bool {
        guard let oldest = minimum[platform] else { return false }
        return !Self.isOlder(oldest, than: version)
    }

    static func isOlder(_ lhs: [Int], than rhs: [Int]) -> Bool {
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0, right = index < rhs.count ? rhs[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    /// What holds for code several builds compile: each platform's oldest version, known only
    /// where every build for that platform states one. `builds`: each build's platforms and targets.
    public static func combining(_ builds: [(platforms: PlatformSet?, targets: DeploymentTargets?)]) -> DeploymentTargets {
        var combined: [Platform: [Int]] = [:], unknown = Set<Platform>()
        for build in builds {
            for platform in (build.platforms ?? .all).platforms {
                guard let version = build.targets?.minimum[platform] else { unknown.insert(platform); continue }
                if let current = combined[platform], !isOlder(version, than: current) { continue }
                combined[platform] = version
            }
        }
        for platform in unknown { combined[platform] = nil }
        return DeploymentTargets(combined)
    }

    /// Stable text for cache keys.
    public var digest: String {
        minimum.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)\($0.value.map(String.init).joined(separator: "."))" }
            .joined(separator: ",")
    }
}
