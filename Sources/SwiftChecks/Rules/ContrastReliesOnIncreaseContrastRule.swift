import AuditModel
import ColorAssets
import SwiftSyntax

/// A pair below WCAG's minimum by default that reaches it only when Increase Contrast is on:
/// Apple's stated fallback, but most people who need the contrast never turn the setting on.
struct ContrastReliesOnIncreaseContrastRule: SourceRule {
    let description = RuleDescription(
        id: "contrast-relies-on-increase-contrast",
        title: "Contrast reaches the minimum only with Increase Contrast",
        category: .colorAsset,
        kind: .recommendation, certainty: .review,
        rationale: """
            Apple asks apps to meet the contrast minimum by default, and at least to provide a \
            higher-contrast scheme when Increase Contrast is on. This pair does the second but not \
            the first: it is the lower-severity case of insufficient-contrast, judged the same way \
            (four appearances, WCAG 2.x with Apple's table beside it).
            """,
        citations: [
            Citation("HIG › Accessibility",
                     "If your app doesn't provide this minimum contrast by default, ensure it at least provides a higher contrast color scheme when the system setting Increase Contrast is turned on."),
            Citation("HIG › Accessibility, Vision",
                     "Accessibility Inspector uses the following values from WCAG Level AA as guidance in determining whether your app's colors have an acceptable contrast."),
        ],
        fix: "Make the default variant reach the ratio too, for example by moving it towards the increased-contrast variant.",
        limitations: "As insufficient-contrast: only colours written in the file or its asset catalogs are judged.",
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Hint: View {
                    var body: some View { Text("Swipe to see more").foregroundStyle(↓Color("Muted")) }
                }
                """, assets: ["Assets.xcassets/Muted.colorset/Contents.json": ContrastReliesOnIncreaseContrastRule.mutedSet]),
        ],
        nonTriggering: [
            // Fails in both standard and increased contrast: insufficient-contrast's finding, not this one.
            RuleExample("""
                import SwiftUI
                let sale = Text("Sale").foregroundStyle(Color(red: 0.6, green: 0.6, blue: 0.6)).background(Color.white)
                """),
            RuleExample("""
                import SwiftUI
                let fine = Text("Fine").foregroundStyle(Color("Strong"))
                """, assets: ["Assets.xcassets/Strong.colorset/Contents.json": ContrastReliesOnIncreaseContrastRule.strongSet]),
        ]
    )

    static func set(light: String, dark: String, lightHigh: String, darkHigh: String) -> String {
        func entry(_ gray: String, _ appearances: String) -> String {
            """
            { "idiom" : "universal", \(appearances)"color" : { "color-space" : "srgb", "components" : { "red" : "\(gray)", "green" : "\(gray)", "blue" : "\(gray)", "alpha" : "1" } } }
            """
        }
        let dark_ = #""appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ], "#
        let high = #""appearances" : [ { "appearance" : "contrast", "value" : "high" } ], "#
        let darkHigh_ = #""appearances" : [ { "appearance" : "luminosity", "value" : "dark" }, { "appearance" : "contrast", "value" : "high" } ], "#
        return "{ \"colors\" : [ " + [entry(light, ""), entry(dark, dark_), entry(lightHigh, high), entry(darkHigh, darkHigh_)]
            .joined(separator: ", ") + " ] }"
    }

    /// Light grey that fails on white by default; its increased-contrast variants pass.
    static let mutedSet = set(light: "0.600", dark: "0.667", lightHigh: "0.333", darkHigh: "0.867")
    static let strongSet = set(light: "0.200", dark: "0.867", lightHigh: "0.100", darkHigh: "0.933")

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        // Reported for each rescued luminosity, even when the other fails outright (that one is
        // insufficient-contrast's finding).
        for evaluation in file.contrastEvaluations {
            let rescued = evaluation.rescuedByIncreasedContrast
            guard let worst = rescued.min(by: { $0.ratio < $1.ratio }) else { continue }
            let increased = evaluation.readings.filter { reading in
                reading.appearance.isIncreasedContrast && rescued.contains { $0.appearance.isDark == reading.appearance.isDark }
            }
            sink.report(evaluation.pair.element, at: evaluation.pair.node, """
                \(evaluation.describe(rescued + increased, in: file)). \(evaluation.verdicts(worst)). It passes only with \
                Increase Contrast on
                """)
        }
    }
}
