import Foundation

public enum ReferenceDataError: Error, CustomStringConvertible {
    case missing(String)
    case malformed(file: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let file):
            "reference table \(file) is not in the installed bundle; reinstall a11y-audit"
        case .malformed(let file, let reason):
            "reference table \(file) is malformed: \(reason)"
        }
    }
}

/// Apple's published tables, loaded from the JSON copied verbatim from `shared/reference/`.
/// Rules read their thresholds here, never from literals of their own.
public struct ReferenceData: Sendable {
    /// Recommended minimum text size per platform (HIG › Typography, "Ensuring legibility").
    public let minimumTextSize: [Platform: Double]
    /// Recommended default text size per platform.
    public let defaultTextSize: [Platform: Double]
    /// Hit region of a button: 44x44 pt general rule, 60x60 on visionOS (HIG › Buttons).
    public let buttonHitRegion: [Platform: Double]
    /// Default and minimum control sizes (HIG › Accessibility, Mobility).
    public let defaultControlSize: [Platform: Double]
    public let minimumControlSize: [Platform: Double]
    /// iOS text-style point sizes per content size category name ("Large (default)", "AX5", …),
    /// keyed by UIKit style name (title1, caption1, …).
    public let iosTextStyleSizes: [String: [String: Double]]
    /// iOS text styles by UIKit style name (the keys of `iosTextStyleSizes`' rows): their
    /// SwiftUI and UIKit names and default weight, from the same table.
    public let iosTextStyles: [String: TextStyle]
    /// macOS built-in text styles, fixed sizes (macOS has no Dynamic Type).
    public let macosTextStyleSizes: [String: Double]
    /// Padding around controls (HIG › Accessibility, Mobility): about 12 pt with a bezel, 24 pt without.
    public let controlPaddingBezeled: Double?
    public let controlPaddingPlain: Double?

    /// The one shared copy, loaded on first use.
    public static let shared: ReferenceData = {
        switch loaded {
        case .success(let data): return data
        // The tables ship inside the binary's resource bundle; without them no rule can
        // give a number, so this is an installation fault, not an input error.
        case .failure(let error): fatalError("\(error)")
        }
    }()

    /// Read once: `check()` at start-up and `shared` are the same load.
    private static let loaded = Result { try ReferenceData.load() }

    /// Throws what is wrong with the bundled tables, so a broken installation is an error
    /// message rather than a stop in the middle of a scan.
    public static func check() throws { _ = try loaded.get() }

    public static func load() throws -> ReferenceData {
        let textSizes = try object(named: "text-sizes")
        let controlSizes = try object(named: "control-sizes")
        let dynamicType = try object(named: "dynamic-type")

        var minimumText: [Platform: Double] = [:]
        var defaultText: [Platform: Double] = [:]
        let textPlatforms = try dictionary(textSizes["platforms"], "text-sizes", "platforms")
        for platform in Platform.allCases {
            let row = try dictionary(textPlatforms[platform.referenceKey], "text-sizes", platform.referenceKey)
            minimumText[platform] = try number(row["minimum"], "text-sizes", "\(platform.referenceKey).minimum")
            defaultText[platform] = try number(row["default"], "text-sizes", "\(platform.referenceKey).default")
        }

        var defaultControl: [Platform: Double] = [:]
        var minimumControl: [Platform: Double] = [:]
        let controlPlatforms = try dictionary(controlSizes["platforms"], "control-sizes", "platforms")
        for platform in Platform.allCases {
            let row = try dictionary(controlPlatforms[platform.referenceKey], "control-sizes", platform.referenceKey)
            let defaults = try dictionary(row["default"], "control-sizes", "default")
            let minimums = try dictionary(row["minimum"], "control-sizes", "minimum")
            defaultControl[platform] = try number(defaults["width"], "control-sizes", "default.width")
            minimumControl[platform] = try number(minimums["width"], "control-sizes", "minimum.width")
        }
        let hitRegion = try dictionary(controlSizes["button_hit_region"], "control-sizes", "button_hit_region")
        let general = try number(try dictionary(hitRegion["general"], "control-sizes", "general")["width"],
                                 "control-sizes", "general.width")
        let vision = try number(try dictionary(hitRegion["visionos"], "control-sizes", "visionos")["width"],
                                "control-sizes", "visionos.width")
        var buttonHit: [Platform: Double] = [:]
        for platform in Platform.allCases { buttonHit[platform] = platform == .visionOS ? vision : general }

        let spacing = try dictionary(controlSizes["spacing_guidance"], "control-sizes", "spacing_guidance")
        let paddingBezeled = try number(spacing["padding_bezeled_pt"], "control-sizes", "padding_bezeled_pt")
        let paddingPlain = try number(spacing["padding_unbezeled_pt"], "control-sizes", "padding_unbezeled_pt")

        var styleSizes: [String: [String: Double]] = [:]
        let ios = try dictionary(dynamicType["ios_ipados"], "dynamic-type", "ios_ipados")
        let sizes = try dictionary(ios["sizes"], "dynamic-type", "ios_ipados.sizes")
        for (category, value) in sizes {
            let styles = try dictionary(try dictionary(value, "dynamic-type", category)["styles"], "dynamic-type", category)
            var row: [String: Double] = [:]
            for (style, spec) in styles {
                row[style] = try number(try dictionary(spec, "dynamic-type", style)["size"], "dynamic-type", "\(category).\(style).size")
            }
            styleSizes[category] = row
        }

        var textStyles: [String: TextStyle] = [:]
        for (style, spec) in try dictionary(ios["styles"], "dynamic-type", "ios_ipados.styles") {
            let row = try dictionary(spec, "dynamic-type", style)
            func name(_ key: String) throws -> String {
                guard let text = row[key] as? String, let last = text.split(separator: ".").last else {
                    throw ReferenceDataError.malformed(file: "dynamic-type", reason: "ios_ipados.styles.\(style).\(key) is not a dotted name")
                }
                return String(last)
            }
            guard let weight = row["weight"] as? String, !weight.isEmpty else {
                throw ReferenceDataError.malformed(file: "dynamic-type", reason: "ios_ipados.styles.\(style).weight is not a weight name")
            }
            textStyles[style] = TextStyle(uiKitName: try name("uikit"), swiftUIName: try name("swiftui"), weight: weight.lowercased())
        }

        var macSizes: [String: Double] = [:]
        let mac = try dictionary(try dictionary(dynamicType["macos"], "dynamic-type", "macos")["styles"], "dynamic-type", "macos.styles")
        for (style, spec) in mac {
            macSizes[style] = try number(try dictionary(spec, "dynamic-type", style)["size"], "dynamic-type", "macos.\(style).size")
        }

        return ReferenceData(minimumTextSize: minimumText, defaultTextSize: defaultText,
                             buttonHitRegion: buttonHit, defaultControlSize: defaultControl,
                             minimumControlSize: minimumControl, iosTextStyleSizes: styleSizes,
                             iosTextStyles: textStyles, macosTextStyleSizes: macSizes, controlPaddingBezeled: paddingBezeled,
                             controlPaddingPlain: paddingPlain)
    }

    /// The raw bytes of a bundled table, for tests that compare against `shared/reference/`.
    public static func rawTable(named name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Reference") else {
            throw ReferenceDataError.missing("\(name).json")
        }
        return try Data(contentsOf: url)
    }

    private static func object(named name: String) throws -> [String: Any] {
        let data = try rawTable(named: name)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ReferenceDataError.malformed(file: name, reason: "top level is not an object")
        }
        return object
    }

    private static func dictionary(_ value: Any?, _ file: String, _ key: String) throws -> [String: Any] {
        guard let value = value as? [String: Any] else {
            throw ReferenceDataError.malformed(file: file, reason: "\(key) is not an object")
        }
        return value
    }

    private static func number(_ value: Any?, _ file: String, _ key: String) throws -> Double {
        guard let value = value as? NSNumber else {
            throw ReferenceDataError.malformed(file: file, reason: "\(key) is not a number")
        }
        return value.doubleValue
    }
}

extension ReferenceData {
    /// A text style as Apple's Dynamic Type table names it.
    public struct TextStyle: Sendable, Hashable {
        /// `UIFont.TextStyle`'s case: `title1`, `caption1`, `body`.
        public let uiKitName: String
        /// `Font`'s: `title`, `caption`, `body`.
        public let swiftUIName: String
        /// The default weight, as Swift spells a `Font.Weight`/`UIFont.Weight`: `regular`, `semibold`.
        public let weight: String
    }

    /// The text styles whose default ("Large") size is `points`, by UIKit name, sorted.
    public func iosTextStyles(ofDefaultSize points: Double) -> [String] {
        (iosTextStyleSizes["Large (default)"] ?? [:]).filter { $0.value == points }.keys.sorted()
    }
}

extension Double {
    /// "11" rather than "11.0" in messages.
    /// "44", "20.5", "31.66" (not "31.66666666666667"): at most two decimals, cut rather than
    /// rounded so a size just short of a threshold never reads as meeting it.
    public var points: String {
        guard isFinite, abs(self) < 1e13 else { return String(self) }
        if rounded() == self { return String(Int(self)) }
        let cut = ((abs(self) * 100 + 1e-6).rounded(.down) / 100) * (self < 0 ? -1 : 1)
        return cut.rounded() == cut ? String(Int(cut)) : String(cut)
    }
}
