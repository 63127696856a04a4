import AuditModel
import SwiftSyntax

/// `.accessibilityHidden(true)` on a control, or `isAccessibilityElement = false` on a UIKit
/// control: the control disappears for VoiceOver, Switch Control and Voice Control users.
struct AccessibilityHiddenControlRule: SourceRule {
    static let controls: Set<String> = [
        "Button", "Toggle", "Link", "NavigationLink", "Slider", "Stepper", "Picker", "Menu", "TextField",
        "SecureField", "TextEditor", "DatePicker", "ColorPicker", "ShareLink",
    ]
    static let uiKitControlHints = ["button", "switch", "slider", "stepper", "segmented", "textfield", "field", "toggle"]

    let description = RuleDescription(
        id: "accessibility-hidden-control",
        title: "Interactive control hidden from assistive technologies",
        kind: .requirement, certainty: .review,
        rationale: """
            Hiding is for decorative content. A button, toggle, link or field hidden with \
            `.accessibilityHidden(true)` (or `isAccessibilityElement = false` in UIKit) cannot be \
            reached with VoiceOver, Switch Control or Voice Control at all, which is worse than a \
            missing label.
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality."),
            Citation("HIG › VoiceOver",
                     "Exclude purely decorative images from VoiceOver. It's unnecessary to describe images that are decorative and don't convey useful or actionable information."),
        ],
        fix: """
            Remove the hiding and give the control a label (`.accessibilityLabel("Share")`). If a \
            parent already exposes the same action, combine instead: \
            `.accessibilityElement(children: .combine)` on the parent, or an \
            `.accessibilityAction(named:)` on the element that remains.
            """,
        limitations: """
            UIKit controls are recognised by type names in the file (`UIButton`, `UISwitch`, …) or by \
            names such as `closeButton`; a control hidden through a variable whose name says nothing \
            is missed. A control duplicated by an accessible element elsewhere is still reported: \
            suppress it with a comment that says where the accessible copy is.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        ↓Button("Play") { }
                            .accessibilityHidden(true)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                let toggle = ↓Toggle("Wi-Fi", isOn: .constant(true)).accessibility(hidden: true)
                """),
            RuleExample("""
                import UIKit
                final class Bar: UIView {
                    let closeButton = UIButton(type: .close)
                    func setUp() {
                        ↓closeButton.isAccessibilityElement = false
                    }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct MessageRow: View {
                    var body: some View {
                        HStack {
                            Text("Lunch on Friday?")
                            Button("Archive") { }
                                .accessibilityHidden(true)
                        }
                        .accessibilityElement(children: .combine)
                        .accessibilityAction(named: "Archive") { }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        HStack {
                            Image(systemName: "star").accessibilityHidden(true)
                            Button("Play") { }
                            Button("Pause") { }.accessibilityHidden(false)
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class Card: UIView {
                    let divider = UIImageView()
                    func setUp() {
                        divider.isAccessibilityElement = false
                        isAccessibilityElement = true
                    }
                }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: Self.controls) {
            guard let name = call.calleeName, Self.controls.contains(name), !call.isMemberCallWithBase else { continue }
            let chain = ModifierChain(containing: ExprSyntax(call))
            guard chain.root.id == ExprSyntax(call).id, chain.isHiddenFromAccessibility else { continue }
            // Apple's custom-actions pattern: the row is one element that offers the hidden
            // control's action with `.accessibilityAction(named:)`.
            let offeredByContainer = call.enclosingViewCalls.contains { container in
                let outer = ModifierChain(containing: ExprSyntax(container))
                return outer.has("accessibilityAction") || outer.has("accessibilityActions")
            }
            if offeredByContainer { continue }
            sink.report(call, "`\(name)` is hidden from VoiceOver, Switch Control and Voice Control with `.accessibilityHidden(true)`; people using them cannot reach it")
        }
        for assignment in file.index.assignments where assignment.targetProperty == "isAccessibilityElement" {
            guard assignment.value.first?.booleanValue == false else { continue }
            let object = assignment.targetObject
            guard !object.isEmpty, isControl(object, in: file) else { continue }
            sink.report(assignment.target, "`\(object)` looks like a control and is removed from the accessibility tree with `isAccessibilityElement = false`")
        }
    }

    private func isControl(_ object: String, in file: SourceFile) -> Bool {
        let lowered = object.lowercased()
        if Self.uiKitControlHints.contains(where: { lowered.hasSuffix($0) }) { return true }
        // `let play = UIButton(...)`: the binding's initializer names a control type.
        return (file.index.bindings[object] ?? []).contains { value in
            guard let call = value.as(FunctionCallExprSyntax.self), let type = call.calleeName else { return false }
            return ["UIButton", "UISwitch", "UISlider", "UIStepper", "UISegmentedControl", "UITextField", "NSButton"].contains(type)
        }
    }
}
