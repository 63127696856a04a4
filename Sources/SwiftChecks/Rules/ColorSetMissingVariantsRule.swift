import AuditModel
import ColorAssets

/// A custom colour without its dark variant or its increased-contrast variants: Dark Mode and
/// Increase Contrast then show a colour chosen for another setting.
struct ColorSetMissingVariantsRule: CatalogRule {
    let description = RuleDescription(
        id: "color-set-missing-variants",
        title: "Custom colour without dark or increased-contrast variants",
        category: .colorAsset,
        kind: .recommendation, certainty: .review,
        rationale: """
            Apple asks for four variants of every custom colour: light, dark, and an increased \
            contrast option for each. A set without them falls back to another variant, so Dark Mode \
            or Increase Contrast shows a colour nobody checked for that setting. Sets whose colours \
            are all system colours are skipped: those adapt on their own.
            """,
        citations: [
            Citation("HIG › Color",
                     "If you define a custom color, make sure to supply light and dark variants, and an increased contrast option for each variant that provides a significantly higher amount of visual differentiation."),
            Citation("HIG › Accessibility",
                     "If your app doesn't provide this minimum contrast by default, ensure it at least provides a higher contrast color scheme when the system setting Increase Contrast is turned on."),
        ],
        fix: """
            In the asset catalog, select the colour set, set Appearances to "Any, Dark" and tick \
            "High Contrast", then choose a colour for each of the four wells.
            """,
        limitations: """
            A set an app only ever shows in one appearance (a forced `.preferredColorScheme`) is \
            still reported; Apple asks for both appearances anyway for Liquid Glass adaptivity.
            """,
        triggering: [
            RuleExample("""
                { "colors" : [
                ↓    { "idiom" : "universal", "color" : { "color-space" : "srgb",
                      "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Brand.colorset/Contents.json", assets: ColorSetMissingVariantsRule.uses("Brand")),
            RuleExample("""
                { "colors" : [
                ↓    { "idiom" : "universal", "color" : { "color-space" : "srgb",
                      "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } },
                    { "idiom" : "universal", "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
                      "color" : { "color-space" : "srgb",
                      "components" : { "red" : "0.5", "green" : "0.7", "blue" : "1.0", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Accent.colorset/Contents.json", assets: ColorSetMissingVariantsRule.uses("Accent")),
            // The dark slot is a system colour (it adapts itself); the light one is fixed and has no
            // increased-contrast variant.
            RuleExample("""
                { "colors" : [
                ↓    { "idiom" : "universal", "color" : { "color-space" : "gray-gamma-22", "components" : { "white" : "0.900", "alpha" : "1" } } },
                    { "idiom" : "universal", "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
                      "color" : { "platform" : "osx", "reference" : "quaternaryLabelColor" } } ] }
                """, file: "Assets.xcassets/Separator.colorset/Contents.json", assets: ColorSetMissingVariantsRule.uses("Separator")),
        ],
        nonTriggering: [
            // Named only by a SwiftGen accessor nobody reads, or by nothing: it never renders
            // (color-set-unused points a person at it).
            RuleExample("""
                { "colors" : [
                    { "idiom" : "universal", "color" : { "color-space" : "srgb",
                      "components" : { "red" : "1.0", "green" : "0.75", "blue" : "0.0", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Colors/alert.yellow.colorset/Contents.json"),
            RuleExample("""
                { "colors" : [
                    { "idiom" : "universal", "color" : { "color-space" : "srgb",
                      "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } },
                    { "idiom" : "universal", "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
                      "color" : { "color-space" : "srgb", "components" : { "red" : "0.5", "green" : "0.7", "blue" : "1.0", "alpha" : "1" } } },
                    { "idiom" : "universal", "appearances" : [ { "appearance" : "contrast", "value" : "high" } ],
                      "color" : { "color-space" : "srgb", "components" : { "red" : "0.0", "green" : "0.2", "blue" : "0.6", "alpha" : "1" } } },
                    { "idiom" : "universal", "appearances" : [ { "appearance" : "luminosity", "value" : "dark" },
                      { "appearance" : "contrast", "value" : "high" } ],
                      "color" : { "color-space" : "srgb", "components" : { "red" : "0.7", "green" : "0.85", "blue" : "1.0", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Brand.colorset/Contents.json"),
            // System colours adapt by themselves; an unset accent colour has nothing to check.
            RuleExample("""
                { "colors" : [ { "idiom" : "universal", "color" : { "platform" : "ios", "reference" : "systemBlueColor" } } ] }
                """, file: "Assets.xcassets/Link.colorset/Contents.json"),
            RuleExample("""
                { "colors" : [ { "idiom" : "universal" } ], "info" : { "author" : "xcode", "version" : 1 } }
                """, file: "Assets.xcassets/AccentColor.colorset/Contents.json"),
        ]
    )

    /// A Swift file that shows the colour set `name`, for an example to be in use.
    static func uses(_ name: String) -> [String: String] {
        ["Sources/Theme.swift": "import SwiftUI\nlet swatch = Color(\"\(name)\")\n"]
    }

    func check(_ facts: CatalogFacts, _ sink: inout CatalogFindingSink) {
        let catalog = facts.catalog
        // A set nothing names never renders: color-set-unused points a person at it instead.
        for set in catalog.sets where !set.values.isEmpty && facts.usedNames.contains(set.name) {
            // An appearance that falls back to a system colour adapts by itself (Dark Mode and
            // Increase Contrast included): only fallbacks to a fixed colour are missing.
            let missing = set.missing.filter { appearance in
                if case .system? = set.values[appearance] { return false }
                return true
            }
            guard !missing.isEmpty else { continue }
            let provided = Appearance.allCases.filter(set.provided.contains).map(\.displayName)
            sink.report(path: set.path, line: set.lines[.light] ?? set.entries.first?.line,
                        "colour set \"\(set.name)\" defines \(provided.isEmpty ? "no variant of its own" : provided.joined(separator: ", ")) only; missing: \(missing.map(\.displayName).joined(separator: ", "))",
                        snippet: "\(set.name) missing \(missing.map(\.rawValue).joined(separator: ","))")
        }
    }
}
