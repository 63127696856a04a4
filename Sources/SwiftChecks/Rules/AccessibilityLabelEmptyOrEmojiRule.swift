import AuditModel
import SwiftSyntax

/// A label that is empty, only whitespace, or only emoji and symbols: `""`, `" "`, `"❤️"`, `"★★★☆☆"`.
struct AccessibilityLabelEmptyOrEmojiRule: SourceRule {
    let description = RuleDescription(
        id: "accessibility-label-empty-or-emoji",
        title: "Accessibility label is empty or only emoji/symbols",
        kind: .recommendation, certainty: .review,
        rationale: """
            An empty label (`.accessibilityLabel("")`, `accessibilityLabel = ""`) removes the \
            element's label: VoiceOver has nothing to say for it, and an empty string is not \
            the way to hide an element. A label made only of emoji or symbols has no words: \
            VoiceOver reads the characters' names ("red heart", "black star black star…"), \
            which rarely say what the control does, and Voice Control users cannot speak it to \
            target the control. A SwiftUI control's title (`Button("❤️") { … }`) and a UIKit \
            button title are its label when no other label is set, so they are checked too.
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Every interactive element MUST have a speakable accessibility label (no emoji-only, no symbol-only)."),
            Citation("HIG › VoiceOver",
                     "Exclude purely decorative images from VoiceOver. It's unnecessary to describe images that are decorative and don't convey useful or actionable information."),
        ],
        fix: """
            Give the element words: `Button("❤️") { … }.accessibilityLabel("Favorite")`, \
            `.accessibilityLabel("3 of 5 stars")`. To hide a decorative element, use \
            `.accessibilityHidden(true)` / `Image(decorative:)` (UIKit: \
            `isAccessibilityElement = false`) rather than an empty label.
            """,
        limitations: """
            Only literal labels are judged; an interpolated label is assumed to produce words. \
            A literal that is a key the project's strings tables define is not checked (SwiftUI \
            reads the translation). A UIKit `setTitle(_:for:)` title is skipped when the enclosing \
            type sets `accessibilityLabel` anywhere, since that label may replace it; a checker \
            reading one file cannot tell which button it applies to. Emoji-only text that is not \
            a control's label (a `Text("🎉")` in a message) is not reported.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Image(systemName: "heart").accessibilityLabel(↓"")
                        Image(systemName: "star").accessibilityLabel(↓Text("  "))
                        Image("rating").accessibilityLabel(↓"★★★☆☆")
                        Button(↓"❤️") { favorite() }
                        Link(↓"👉", destination: URL(string: "https://example.com")!)
                    }
                    func favorite() {}
                }
                """),
            RuleExample("""
                import UIKit
                func configure(_ like: UIButton, _ more: UIButton) {
                    like.accessibilityLabel = ↓"👍"
                    more.accessibilityLabel = ↓"…"
                    like.accessibilityLabel = ↓"\\u{2764}\\u{FE0F}"
                }
                """),
            RuleExample("""
                import UIKit
                final class Reactions: UIView {
                    let add = UIButton()
                    func configure() {
                        add.setTitle(↓"+", for: .normal)
                    }
                }
                """),
            RuleExample("""
                import AppKit
                func configure(_ button: NSButton) {
                    button.setAccessibilityLabel(↓"")
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    let count: Int
                    var body: some View {
                        Button("❤️") { favorite() }.accessibilityLabel("Favorite")
                        Image("rating").accessibilityLabel("3 of 5 stars")
                        Image("badge").accessibilityLabel("\\(count)")
                        Text("🎉 Done")
                        Text("1").accessibilityLabel("1")
                        Button("Favorite ❤️") { favorite() }
                        Image("divider").accessibilityHidden(true)
                        Image(decorative: "divider")
                    }
                    func favorite() {}
                }
                """),
            RuleExample("""
                import UIKit
                func configure(_ a: UIView, _ b: UIView) {
                    a.accessibilityLabel = "Like"
                    a.accessibilityLabel = "日本語"
                    b.accessibilityLabel = nil
                    b.isAccessibilityElement = false
                }
                """),
            // The title is replaced by an explicit label set in the same type.
            RuleExample("""
                import UIKit
                final class Reactions: UIView {
                    let add = UIButton()
                    func configure() {
                        add.setTitle("+", for: .normal)
                        add.accessibilityLabel = "Add reaction"
                    }
                }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let labels = AccessibilityLabels.explicit(in: file) + AccessibilityLabels.controlTitles(in: file)
        for label in labels where !label.hasInterpolation {
            if label.isTranslated(in: file) { continue }
            let trimmed = AccessibilityLabels.trimmed(label.text)
            if trimmed.isEmpty {
                let what = label.text.isEmpty ? "empty" : "only whitespace"
                sink.report(label.node, "\(label.subject) is \(what): the element is left with no label for VoiceOver to read; to hide a decorative element use `.accessibilityHidden(true)` or `Image(decorative:)` instead")
            } else if !trimmed.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                sink.report(label.node, "\(label.subject) is \"\(label.display)\", only emoji/symbols with no letters or digits: VoiceOver reads the characters' names and Voice Control users cannot say it")
            }
        }
    }
}
