import AuditModel
import SwiftSyntax

/// A tap that flips a Boolean (`isFavorite.toggle()`, `isOn = !isOn`) on a view that does not
/// say it is a toggle: a favourite star or checkmark built from an image.
struct CustomToggleMissingTraitRule: SourceRule {
    let description = RuleDescription(
        id: "custom-toggle-missing-trait",
        title: "Custom toggle does not expose toggle behaviour or state",
        kind: .recommendation, certainty: .review,
        rationale: """
            A star, heart or checkmark that flips a value when tapped is a toggle. Drawn from an \
            image and a tap gesture it is, to VoiceOver, a picture: nothing says it can be \
            switched, and the new state is not spoken after it is. A real `Toggle` says both; a \
            custom one needs the toggle trait and a value. A view that only adds `.isButton` is \
            announced as a button but its on/off state is still silent, so it is reported too, \
            unless the state is given with `.isSelected` or `.accessibilityValue`. A `Button` \
            whose action toggles is a control already and is not reported. This rule takes every \
            single tap that flips a value; tap-gesture-missing-trait does not report those again.
            """,
        citations: [
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "For binary custom controls such as favorite/star buttons, prefer a real Toggle; otherwise expose toggle behavior with .accessibilityAddTraits(.isToggle) and a current state value without putting the control type in the label."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Every custom control MUST have correct traits via .accessibilityAddTraits (never direct assignment)."),
        ],
        fix: """
            Use `Toggle(isOn:)` (a custom `ToggleStyle` keeps the look), or add \
            `.accessibilityAddTraits(.isToggle)` with `.accessibilityValue(isOn ? "On" : "Off")`; \
            `.accessibilityRepresentation { Toggle(…) }` also works. In UIKit insert \
            `.toggleButton` (iOS 17) or `.button` plus `.selected` while on; in AppKit return the \
            `.checkBox` role, or `.button` with an `accessibilityValue()`.
            """,
        limitations: """
            A toggle is recognised only when the tap's closure (or, in UIKit/AppKit, the \
            `#selector` method in the same type) calls `x.toggle()` or assigns `x = !x`; a call to \
            `toggleFavorite()` defined elsewhere is not followed. Traits are looked for in the \
            gesture's own modifier chain (SwiftUI) or anywhere in the type (UIKit, AppKit).
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct FavoriteButton: View {
                    @State private var isFavorite = false
                    var body: some View {
                        Image(systemName: isFavorite ? "heart.fill" : "heart")
                            .↓onTapGesture { isFavorite.toggle() }
                            .accessibilityLabel("Favorite")
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct TaskRow: View {
                    @Binding var isDone: Bool
                    var body: some View {
                        HStack { Image(systemName: isDone ? "checkmark.circle.fill" : "circle"); Text("Buy milk") }
                            .↓onTapGesture { withAnimation { isDone = !isDone } }
                            .accessibilityAddTraits(.isButton)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Star: View {
                    @ObservedObject var item: Item
                    @State private var isOn = false
                    var body: some View {
                        VStack {
                            Image(systemName: "star")
                                .↓onTapGesture { item.isStarred.toggle() }
                                .accessibilityAction { item.isStarred.toggle() }
                            Circle().gesture(↓TapGesture().onEnded { isOn.toggle() })
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class FavoriteView: UIImageView {
                    var isFavorite = false
                    func setUp() {
                        isUserInteractionEnabled = true
                        addGestureRecognizer(↓UITapGestureRecognizer(target: self, action: #selector(toggleFavorite)))
                        accessibilityTraits.insert(.button)
                    }
                    @objc private func toggleFavorite() { isFavorite.toggle() }
                }
                """),
            RuleExample("""
                import AppKit
                final class StarView: NSView {
                    var isStarred = false
                    func setUp() { addGestureRecognizer(↓NSClickGestureRecognizer(target: self, action: #selector(flip(_:)))) }
                    @objc func flip(_ sender: Any) { isStarred = !isStarred }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct ProductRow: View {
                    @State private var isFavorite = false
                    let product: Product
                    var body: some View {
                        HStack {
                            Image(systemName: isFavorite ? "heart.fill" : "heart")
                            Text(product.name)
                        }
                        .onTapGesture { isFavorite.toggle() }
                        .accessibilityElement()
                        .accessibilityLabel("Favorite \\(product.name)")
                        .accessibilityValue(isFavorite ? "On" : "Off")
                        .accessibilityAddTraits(.isToggle)
                        .accessibilityAction { isFavorite.toggle() }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Settings: View {
                    @State private var isOn = false
                    @State private var isFavorite = false
                    var body: some View {
                        VStack {
                            Toggle("Notifications", isOn: $isOn)
                            Button { isFavorite.toggle() } label: { Image(systemName: isFavorite ? "heart.fill" : "heart") }
                                .accessibilityLabel("Favorite")
                            Image(systemName: isFavorite ? "star.fill" : "star")
                                .onTapGesture { isFavorite.toggle() }
                                .accessibilityAddTraits(isFavorite ? [.isButton, .isSelected] : .isButton)
                            Text("Wi-Fi")
                                .onTapGesture { isOn = !isOn }
                                .accessibilityAddTraits(.isButton)
                                .accessibilityValue(isOn ? "On" : "Off")
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Misc: View {
                    var body: some View {
                        VStack {
                            Image("a").onTapGesture { showDetail = !isCompact }
                                .accessibilityAddTraits(.isButton)
                            Image("b").onTapGesture { favorites.toggle(item.id) }
                                .accessibilityAddTraits(.isButton)
                            Capsule().onTapGesture { isOn.toggle() }
                                .accessibilityRepresentation { Toggle("Airplane Mode", isOn: $isOn) }
                            Image("c").onTapGesture(count: 2) { isZoomed.toggle() }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class FavoriteView: UIImageView {
                    var isFavorite = false {
                        didSet {
                            if isFavorite { accessibilityTraits.insert(.selected) } else { accessibilityTraits.remove(.selected) }
                        }
                    }
                    func setUp() {
                        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(toggleFavorite)))
                        accessibilityTraits.insert(.button)
                    }
                    @objc private func toggleFavorite() { isFavorite.toggle() }
                }
                final class SwitchView: UIView {
                    var isOn = false
                    func setUp() {
                        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(flip)))
                        accessibilityTraits.insert(.toggleButton)
                    }
                    @objc private func flip() { isOn.toggle() }
                }
                """),
            RuleExample("""
                import AppKit
                final class FavoriteToggleView: NSView {
                    var isFavorite = false
                    func setUp() { addGestureRecognizer(NSClickGestureRecognizer(target: self, action: #selector(flip))) }
                    @objc func flip() { isFavorite.toggle() }
                    override func isAccessibilityElement() -> Bool { true }
                    override func accessibilityRole() -> NSAccessibility.Role? { .button }
                    override func accessibilityValue() -> Any? { isFavorite ? "On" : "Off" }
                }
                """),
        ]
    )

    static let toggleUIKitTraits: Set<String> = ["toggleButton", "checkBox", "radioButton"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: SwiftUIGestureUse.attachingModifiers.union(RecognizerUse.tapTypes)) {
            if let use = SwiftUIGestureUse(call, index: file.index) {
                checkSwiftUI(use, file, &sink)
            } else if let recognizer = RecognizerUse(call, types: RecognizerUse.tapTypes, file) {
                checkRecognizer(recognizer, file, &sink)
            }
        }
    }

    private func checkSwiftUI(_ use: SwiftUIGestureUse, _ file: SourceFile, _ sink: inout FindingSink) {
        guard use.kind == .singleTap,
              let value = TapAction.toggledValue(in: TapAction.ranges(of: use.actions), file) else { return }
        let chain = ModifierChain(containing: ExprSyntax(use.modifier))
        if use.control(in: chain) != nil || chain.isHiddenFromAccessibility || chain.has("accessibilityRepresentation") {
            return
        }
        let traits = chain.addedTraits
        if traits.contains("isToggle") { return }
        let statesItself = traits.contains("isSelected") || chain.has("accessibilityValue")
        if traits.contains("isButton") && statesItself { return }
        let heard = traits.contains("isButton")
            ? "VoiceOver announces a button but never its on/off state"
            : "VoiceOver hears neither a toggle nor its on/off state"
        sink.report(use.modifier, at: use.anchor, """
            \(use.name) flips `\(value)` on \(chain.root.shortViewDescription), making it a custom toggle, and \(heard); \
            use a `Toggle`, or add `.accessibilityAddTraits(.isToggle)` and an `.accessibilityValue`
            """)
    }

    private func checkRecognizer(_ recognizer: RecognizerUse, _ file: SourceFile, _ sink: inout FindingSink) {
        guard recognizer.isSingleTap, let value = recognizer.actionToggles(file) else { return }
        let scope = recognizer.call.enclosingTypeDecl
        let object = ObjectAccessibility(scope: scope, file)
        if !object.traits.isDisjoint(with: Self.toggleUIKitTraits) { return }
        if object.traits.contains("button") && (object.traits.contains("selected") || object.value) { return }
        let owner = scope.map { "`\($0.declaredTypeName)`" } ?? "this file"
        let missing = recognizer.type.hasPrefix("NS")
            ? "returns no `.checkBox` role (nor `.button` with an `accessibilityValue()`)"
            : "adds no `.toggleButton` trait (nor `.button` with `.selected` or an `accessibilityValue`)"
        sink.report(recognizer.call, """
            `\(recognizer.type)` calls `\(recognizer.actionName ?? "its action")`, which flips `\(value)`, making the \
            view a custom toggle, and \(owner) \(missing), so VoiceOver hears neither a toggle nor its state
            """)
    }
}
