import AuditModel

/// Reported by the checker itself after every rule has run: a suppression that suppressed
/// nothing hides nothing today and will hide a real finding tomorrow.
struct UnusedSuppressionRule: SourceRule {
    static let id = "unused-suppression"
    let description = RuleDescription(
        id: UnusedSuppressionRule.id,
        title: "Suppression comment that suppresses nothing",
        kind: .advisory,
        severity: .warning,
        rationale: """
            An `a11y-audit:disable` comment that matches no finding is stale (the problem was \
            fixed, or the code moved) or wrong (a misspelt rule id). Left in place it silently \
            hides the next real finding on that line.
            """,
        citations: [Citation("a11y-audit › Suppressions",
                             "A suppression that suppresses nothing is itself reported (DESIGN.md, Rules).")],
        fix: "Delete the comment, or correct the rule id (`a11y-audit rules` lists them).",
        limitations: "None: this is decided from the scan itself.",
        triggering: [
            RuleExample("""
                import SwiftUI
                // a11y-audit:disable fixed-font-size
                let a = Font.system(size: 18)
                ↓// a11y-audit:disable fixed-font-size
                let b = Font.system(size: 19)
                // a11y-audit:enable fixed-font-size
                """),
            RuleExample("""
                import SwiftUI
                ↓// a11y-audit:disable:next fixed-font-size
                let font = Font.body
                """),
            RuleExample("""
                import SwiftUI
                let font = Font.body ↓// a11y-audit:disable:this no-such-rule
                """),
        ],
        nonTriggering: [
            // `disable:next` covers the whole statement on the next line, continuation lines included;
            // the marker inside a string literal is text, not a directive.
            RuleExample("""
                import SwiftUI
                struct Price: View {
                    var body: some View {
                        // a11y-audit:disable:next fixed-font-size
                        Text("42 €")
                            .font(.system(size: 40))
                        Text("// a11y-audit:disable all")
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                // a11y-audit:disable:next fixed-font-size
                let font = Font.system(size: 17)
                // a11y-audit:disable fixed-font-size
                let a = Font.system(size: 18)
                let b = Font.system(size: 19)
                // a11y-audit:enable fixed-font-size
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {}
}
