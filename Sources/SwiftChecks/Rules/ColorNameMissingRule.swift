import AuditModel
import ColorAssets
import SwiftSyntax

/// `Color("Brnad")`: a name no asset catalog of the repository defines. The colour cannot be
/// resolved, so nothing about its contrast can be known, and at run time it is not the colour
/// anyone designed.
struct ColorNameMissingRule: SourceRule {
    let description = RuleDescription(
        id: "color-name-missing",
        title: "Colour name that no asset catalog defines",
        category: .colorAsset,
        kind: .advisory,
        severity: .warning,
        rationale: """
            A colour loaded by name from the main bundle must exist in one of the app's asset \
            catalogs. When it does not (a typo, a renamed or deleted set), SwiftUI logs an error and \
            `UIColor(named:)` returns nil, so the view falls back to a colour no one checked for \
            contrast in any appearance.
            """,
        citations: [Citation("SwiftUI › Color(_:bundle:)",
                             "Use this initializer to load a color from a color set stored in an Asset Catalog. The system determines which color within the set to use based on the environment at render time.")],
        fix: "Correct the name to an existing colour set, or add the colour set (with light, dark and increased-contrast variants) to the asset catalog.",
        limitations: """
            Only judged when the repository has asset catalogs. Names built at run time \
            (`Color("avatar\\(index)")`) and colours from other bundles (`bundle:`/`in:`) are not judged.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").foregroundStyle(Color(↓"Brnad")) }
                }
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
            RuleExample("""
                import UIKit
                let tint = UIColor(named: ↓"Accent")
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                let a = Color("Brand")
                let b = UIColor(named: "Brand")
                let c = Color("Partner", bundle: partnerBundle)
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
            // Without any asset catalog in the repository, nothing can be said.
            RuleExample("""
                import SwiftUI
                let a = Color("Brand")
                """),
        ]
    )

    static let brandSet = """
        { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
          "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } } ] }
        """

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let catalog = file.context.colors
        guard !catalog.sets.isEmpty || !catalog.errors.isEmpty else { return }
        for use in file.colorNameLiterals where catalog.color(named: use.name) == nil {
            // A set that exists but failed to parse is color-set-unreadable's finding.
            if catalog.errors.contains(where: { $0.path.hasSuffix("/\(use.name).colorset/Contents.json") }) { continue }
            sink.report(use.call, at: use.literal, "`\(use.call.calleeName ?? "Color")` names colour set \"\(use.name)\", which no asset catalog in the repository defines")
        }
    }
}
