/// An Apple platform as Apple's tables distinguish them. iPadOS shares iOS's rows in every
/// table we use (`ios_ipados` in the reference data), so it is one case here.
public enum Platform: String, CaseIterable, Codable, Sendable, Comparable {
    case iOS = "ios"
    case macOS = "macos"
    case tvOS = "tvos"
    case visionOS = "visionos"
    case watchOS = "watchos"

    /// This platform's bit in a `PlatformSet`; also its sort order.
    var bit: UInt8 {
        switch self {
        case .iOS: 0
        case .macOS: 1
        case .tvOS: 2
        case .visionOS: 3
        case .watchOS: 4
        }
    }

    /// The key under which `../shared/reference/*.json` files this platform.
    public var referenceKey: String { self == .iOS ? "ios_ipados" : rawValue }

    public var displayName: String {
        switch self {
        case .iOS: "iOS/iPadOS"
        case .macOS: "macOS"
        case .tvOS: "tvOS"
        case .visionOS: "visionOS"
        case .watchOS: "watchOS"
        }
    }

    /// "Dynamic Type is a system-level feature in iOS, iPadOS, tvOS, visionOS, and watchOS."
    /// and "macOS doesn't support Dynamic Type." (HIG › Typography)
    public var hasDynamicType: Bool { self != .macOS }

    /// Parses the spellings used by `#if os(...)`, SwiftPM `platforms:`, Xcode's SDKROOT and
    /// the config file.
    public init?(spelling: String) {
        switch spelling.lowercased() {
        case "ios", "ipados", "iphoneos", "iphonesimulator", "maccatalyst": self = .iOS
        case "macos", "osx", "macosx": self = .macOS
        case "tvos", "appletvos", "appletvsimulator": self = .tvOS
        case "visionos", "xros", "xrsimulator", "xros-simulator": self = .visionOS
        case "watchos", "watchsimulator": self = .watchOS
        default: return nil
        }
    }

    public static func < (lhs: Platform, rhs: Platform) -> Bool {
        lhs.bit < rhs.bit
    }
}

/// A set of platforms some code can run on.
public struct PlatformSet: OptionSet, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(_ platform: Platform) {
        self.init(rawValue: 1 << platform.bit)
    }

    public init<S: Sequence>(_ platforms: S) where S.Element == Platform {
        self.init(rawValue: 0)
        for platform in platforms { insert(PlatformSet(platform)) }
    }

    public static let all = PlatformSet(Platform.allCases)
    /// Where UIKit can be imported: iOS, iPadOS (and Mac Catalyst, which reads iOS's numbers),
    /// tvOS, visionOS, and watchOS (a subset of UIKit).
    public static let uiKit = PlatformSet([.iOS, .tvOS, .visionOS, .watchOS])

    public var platforms: [Platform] { Platform.allCases.filter { contains(PlatformSet($0)) } }
    public func contains(_ platform: Platform) -> Bool { contains(PlatformSet(platform)) }
    public var hasDynamicType: Bool { platforms.contains { $0.hasDynamicType } }

    public var description: String {
        self == .all ? "all platforms" : platforms.map(\.displayName).joined(separator: ", ")
    }

    /// Written as names (`["ios", "macos"]`), as the config and SARIF spell them; read as names
    /// or as the bit mask reports of earlier versions wrote.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(platforms.map(\.rawValue))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let mask = try? container.decode(UInt8.self) {
            self.init(rawValue: mask & PlatformSet.all.rawValue)
            return
        }
        let names = try container.decode([String].self)
        var set = PlatformSet(rawValue: 0)
        for name in names {
            guard let platform = Platform(rawValue: name) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown platform \"\(name)\"; expected one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            set.insert(PlatformSet(platform))
        }
        self = set
    }
}
