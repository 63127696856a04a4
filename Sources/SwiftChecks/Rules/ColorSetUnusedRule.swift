import AuditModel
import ColorAssets

/// A colour set nothing uses: dead weight in every review of the app's colours, and often the
/// accessible variant someone made and then forgot to switch to.
struct ColorSetUnusedRule: CatalogRule {
    let description = RuleDescription(
        id: "color-set-unused",
        title: "Colour set that nothing uses",
        category: .colorAsset,
        kind: .advisory, certainty: .review,
        rationale: """
            A colour set that no Swift file, storyboard, xib or build setting names is either dead \
            or used in a way this audit cannot see. Either way its contrast is checked by nobody in \
            context; removing dead sets keeps the catalog honest.
            """,
        citations: [Citation("HIG › Color",
                             "If you define a custom color, make sure to supply light and dark variants, and an increased contrast option for each variant that provides a significantly higher amount of visual differentiation.")],
        fix: "Delete the colour set, or, if it is used by name built at run time, suppress the rule for it in `.a11y-audit.json`.",
        limitations: """
            Names built at run time (`Color("avatar\\(index)")`), colours used by other targets' \
            bundles, and names in files the scan skips are not seen, so a set reported here may \
            still be used. "AccentColor" counts as used (Xcode's default global accent colour).
            """,
        triggering: [
            RuleExample("""
                ↓{ "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
                  "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Legacy.colorset/Contents.json",
                assets: ["App/View.swift": "import SwiftUI\nlet brand = Color(\"Brand\")\n"]),
        ],
        nonTriggering: [
            RuleExample("""
                { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
                  "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Brand.colorset/Contents.json",
                assets: ["App/View.swift": "import SwiftUI\nlet brand = Color(\"Brand\")\n"]),
            RuleExample("""
                { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
                  "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/BrandPrimary.colorset/Contents.json",
                assets: ["App/View.swift": "import SwiftUI\nlet brand = Color(.brandPrimary)\n"]),
        ]
    )

    func check(_ facts: CatalogFacts, _ sink: inout CatalogFindingSink) {
        for set in facts.catalog.sets where !facts.usedNames.contains(set.name) && set.name != "AccentColor" {
            sink.report(path: set.path, line: set.entries.first?.line ?? 1,
                        "colour set \"\(set.name)\" is not named by any Swift file, storyboard, xib or build setting in the repository",
                        snippet: "\(set.name) unused")
        }
    }
}
