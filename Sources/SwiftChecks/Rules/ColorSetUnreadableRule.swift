import AuditModel
import ColorAssets

/// A colour set (or a folder's Contents.json above one) that cannot be read: its colours cannot
/// be checked, and Xcode may not build it either.
struct ColorSetUnreadableRule: CatalogRule {
    let description = RuleDescription(
        id: "color-set-unreadable",
        title: "Colour set that cannot be read",
        category: .colorAsset,
        kind: .advisory,
        severity: .warning,
        rationale: """
            A colour set whose Contents.json is malformed has no colours this audit can resolve, so \
            every contrast check that uses it is skipped. The finding says which file, which line \
            and why, so it can be repaired.
            """,
        citations: [Citation("SwiftUI › Color(_:bundle:)",
                             "Use this initializer to load a color from a color set stored in an Asset Catalog. The system determines which color within the set to use based on the environment at render time.")],
        fix: "Repair the JSON as the message says, or recreate the colour set in Xcode's asset catalog editor.",
        limitations: """
            Only Contents.json files inside `.xcassets` folders are read. A comma after the last \
            item of a list or object is read past, so the colours are still checked, and handed to \
            review: strict JSON readers refuse it, and whether a given Xcode version does is not \
            something the file settles.
            """,
        triggering: [
            RuleExample("""
                { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
                ↓  "components" : { "red" : "lots", "green" : "0.5", "blue" : "0.5", "alpha" : "1" } } } ] }
                """, file: "Assets.xcassets/Brand.colorset/Contents.json"),
            RuleExample("""
                ↓{ "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb" } ] }
                """, file: "Assets.xcassets/Broken.colorset/Contents.json"),
        ],
        nonTriggering: [
            RuleExample("""
                { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
                  "components" : { "red" : "0x1F", "green" : "0x6F", "blue" : "0xEB", "alpha" : "1.000" } } } ],
                  "info" : { "author" : "xcode", "version" : 1 } }
                """, file: "Assets.xcassets/Brand.colorset/Contents.json"),
        ],
        needsReview: [
            // A generator or a hand edit left a comma after the last entry: the colour is read.
            RuleExample("""
                { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
                ↓ "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1.000" } } },
                  ], "info" : { "author" : "xcode", "version" : 1 } }
                """, file: "Assets.xcassets/Accent.colorset/Contents.json"),
        ]
    )

    func check(_ facts: CatalogFacts, _ sink: inout CatalogFindingSink) {
        let catalog = facts.catalog
        for error in catalog.errors {
            sink.report(path: error.path, line: error.line, error.message, snippet: "\(error.reason)")
        }
        for flaw in catalog.tolerated {
            sink.report(path: flaw.path, line: flaw.line, flaw.message, snippet: "\(flaw.reason)", certainty: .review)
        }
    }
}
