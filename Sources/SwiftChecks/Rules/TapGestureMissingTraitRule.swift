import AuditModel
import SwiftSyntax

/// `.onTapGesture { … }` (or a single-tap recognizer) that turns a plain view into a control
/// without telling assistive technologies it is one.
struct TapGestureMissingTraitRule: SourceRule {
    let description = RuleDescription(
        id: "tap-gesture-missing-trait",
        title: "Tappable view is not announced as a button or link",
        kind: .recommendation, certainty: .review,
        rationale: """
            A tap gesture makes an image, text or stack act like a button, but only a control's \
            trait tells VoiceOver that it does something. Without `.isButton` (or `.isLink`), \
            VoiceOver reads the element as plain content: nothing says it can be activated, the \
            rotor does not list it with the controls, and Voice Control offers no name for it. A \
            single tap is the whole interaction, so the fix is the trait (or a real `Button`), not \
            a second way to do it. A single tap that flips a value is a custom toggle and is \
            reported by custom-toggle-missing-trait instead; double taps, long presses and other \
            gestures by gesture-without-alternative. A tap gesture on (or inside) a `Button`, \
            `Toggle`, `Link` or other control is not reported: the control already carries its \
            trait, even though the gesture itself is redundant there.
            """,
        citations: [
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Every custom control MUST have correct traits via .accessibilityAddTraits (never direct assignment)."),
            Citation("SwiftUI › accessibilityLabel(_:)",
                     "For example, don't use the label 'Play button' because a button already has a trait that identifies it as a button."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Custom controls expose role, value, action, and traversal order."),
        ],
        fix: """
            Prefer a `Button` (with `.buttonStyle(.plain)` to keep the look). Otherwise add \
            `.accessibilityAddTraits(.isButton)` (`.isLink` when it opens a page) and a label; for \
            a stack, `.accessibilityElement(children: .combine)` first. In UIKit, \
            `view.accessibilityTraits.insert(.button)` with `isAccessibilityElement = true`; in \
            AppKit, `setAccessibilityRole(.button)` and `accessibilityPerformPress()`.
            """,
        limitations: """
            SwiftUI traits are looked for in the gesture's own modifier chain only: a trait added \
            by a caller of the view, or on an enclosing container, is not seen. A view of the \
            app's own whose body is tappable with no trait (`ButtonLabel`) is also reported where \
            it is used, unless that use adds the trait or an action or sits in a control. A tap count that is \
            computed (`count: n`) is not judged. In UIKit and AppKit the whole type is one scope: \
            a `.button` trait added to any view of a view controller clears every tap recognizer \
            in it. Taps that only dismiss the keyboard (`focused = false`, `endEditing`), do \
            nothing (`{}`, used to swallow taps), or sit on views hidden from accessibility are \
            not reported.
            """,
        triggering: [
            // A view of the app's own whose body is tappable with no trait, used in another file.
            RuleExample("""
                import SwiftUI
                struct Login: View {
                    var body: some View {
                        HStack {
                            ↓ButtonLabel("Cancel") { cancel() }
                            ↓ButtonLabel("Connect", action: connect)
                        }
                    }
                    func cancel() {}
                    func connect() {}
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            // A private row of this file: only its uses here can be about it.
            RuleExample("""
                import SwiftUI
                struct FeePicker: View {
                    let options: [Fee]
                    var body: some View {
                        VStack { ForEach(options) { fee in ↓FeeRow(fee: fee) { select(fee) } } }
                    }
                    func select(_ fee: Fee) {}
                }
                private struct FeeRow: View {
                    let fee: Fee
                    let onSelect: () -> Void
                    var body: some View { HStack { Text(fee.name); Spacer() }.↓onTapGesture { onSelect() } }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Trash: View {
                    var body: some View {
                        Image(systemName: "trash")
                            .↓onTapGesture { delete() }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Rows: View {
                    let items: [Item]
                    var body: some View {
                        List(items) { item in
                            HStack { Text(item.name); Spacer() }
                                .contentShape(Rectangle())
                                .↓onTapGesture { open(item) }
                                .accessibilityElement(children: .combine)
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Chapter: View {
                    var body: some View {
                        VStack {
                            Text("Chapter 1")
                                .accessibilityAddTraits(.isHeader)
                                .↓onTapGesture { expand() }
                            Image("cover").gesture(↓TapGesture().onEnded { play() })
                            Circle().↓onLongPressGesture(minimumDuration: 0) { record() }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class AvatarView: UIView {
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        let tap = ↓UITapGestureRecognizer(target: self, action: #selector(openProfile))
                        addGestureRecognizer(tap)
                        accessibilityTraits.insert(.header)
                        let button = UIView()
                        addSubview(button)
                    }
                    @objc private func openProfile() {}
                }
                """),
            RuleExample("""
                import AppKit
                final class Swatch: NSView {
                    func setUp() {
                        addGestureRecognizer(↓NSClickGestureRecognizer(target: self, action: #selector(pick)))
                    }
                    @objc func pick() {}
                }
                """),
        ],
        nonTriggering: [
            // The use adds the trait, sits in a control, or the component carries it.
            RuleExample("""
                import SwiftUI
                struct Login: View {
                    var body: some View {
                        VStack {
                            ButtonLabel("Connect") { connect() }.accessibilityAddTraits(.isButton)
                            Button { connect() } label: { ButtonLabel("Connect") }
                            PlainButton(text: "Sign in") { connect() }
                            ButtonLabel("Installing…")
                            ButtonLabel("Waiting", action: nil)
                            SearchField(query: .constant(""))
                            SettingsCell(title: "Appearance") { connect() }
                            BoxedField(text: .constant("")) { connect() }
                            ButtonLabel("Save") { connect() }
                                .overlay { Color.clear.accessibilityAddTraits(.isButton).accessibilityLabel("Save") }
                            ActionableButton(text: "Continue") { connect() }.accessibilityLabel("Continue")
                        }
                    }
                    func connect() {}
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            RuleExample("""
                import SwiftUI
                struct Dialog: View {
                    @Binding var isShown: Bool
                    var body: some View {
                        Color.black.opacity(0.4).ignoresSafeArea().onTapGesture { isShown = false }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Controls: View {
                    var body: some View {
                        VStack {
                            Image(systemName: "trash")
                                .onTapGesture { delete() }
                                .accessibilityAddTraits(.isButton)
                                .accessibilityLabel("Delete")
                            Text("Terms")
                                .onTapGesture { openTerms() }
                                .accessibility(addTraits: .isLink)
                            Image(systemName: "star")
                                .onTapGesture { rate() }
                                .accessibilityAction { rate() }
                            Button("Share") { share() }
                                .onTapGesture { share() }
                            Button { play() } label: {
                                Image(systemName: "play.fill").onTapGesture { play() }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Form: View {
                    @FocusState private var nameFocused: Bool
                    var body: some View {
                        ZStack {
                            Color.clear
                                .contentShape(Rectangle())
                                .onTapGesture { nameFocused = false }
                            Card().onTapGesture {}
                            Color.black.opacity(0.4)
                                .onTapGesture { isPresented = false }
                                .accessibilityHidden(true)
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Photo: View {
                    @State private var isFavorite = false
                    var body: some View {
                        VStack {
                            Image("photo").onTapGesture(count: 2) { like() }
                            Image("photo").onLongPressGesture { showMenu() }
                            Image(systemName: "heart").onTapGesture { isFavorite.toggle() }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class AvatarView: UIView {
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(openProfile)))
                        isAccessibilityElement = true
                        accessibilityTraits.insert(.button)
                    }
                    @objc private func openProfile() {}
                }
                final class BadgeView: UIView {
                    func setUp() { addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(open))) }
                    override var accessibilityTraits: UIAccessibilityTraits {
                        get { super.accessibilityTraits.union(.link) }
                        set { super.accessibilityTraits = newValue }
                    }
                    @objc func open() {}
                }
                final class Thumbnail: UIView {
                    func setUp() { addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(open))) }
                    override func accessibilityActivate() -> Bool { open(); return true }
                    @objc func open() {}
                }
                final class PhotoCell: UICollectionViewCell {
                    func setUp() {
                        let doubleTap = UITapGestureRecognizer(target: self, action: #selector(like))
                        doubleTap.numberOfTapsRequired = 2
                        contentView.addGestureRecognizer(doubleTap)
                    }
                    @objc func like() {}
                }
                """),
            RuleExample("""
                import AppKit
                final class Swatch: NSView {
                    func setUp() {
                        addGestureRecognizer(NSClickGestureRecognizer(target: self, action: #selector(pick)))
                        setAccessibilityElement(true)
                        setAccessibilityRole(.button)
                    }
                    @objc func pick() {}
                }
                """),
        ]
    )

    static let actionableTraits: Set<String> = ["isButton", "isLink", "isToggle"]
    static let actionableUIKitTraits: Set<String> = [
        "button", "link", "toggleButton", "checkBox", "radioButton", "popUpButton", "menuButton",
    ]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkComponentUses(file, &sink)
        for call in file.index.calls(named: SwiftUIGestureUse.attachingModifiers.union(RecognizerUse.tapTypes)) {
            if let use = SwiftUIGestureUse(call, index: file.index) {
                checkSwiftUI(use, file, &sink)
            } else if let recognizer = RecognizerUse(call, types: RecognizerUse.tapTypes, file) {
                checkRecognizer(recognizer, file, &sink)
            }
        }
    }

    /// `ButtonLabel("Cancel")` where the app's `ButtonLabel` is tappable with no trait (a fact of
    /// its file, `ViewComponents.tapOnlyPrefix`): this control on screen is not a button either,
    /// unless this use adds the trait or sits in a control.
    private func checkComponentUses(_ file: SourceFile, _ sink: inout FindingSink) {
        var seen = Set<SyntaxIdentifier>()
        for call in ViewComponents.uses(in: file, prefix: ViewComponents.tapOnlyPrefix) + ViewComponents.uses(in: file, prefix: ViewComponents.tapOnlyWhenGivenPrefix)
        where seen.insert(call.id).inserted {
            let chain = ModifierChain(containing: ExprSyntax(call))
            guard !Self.namesItsAction(chain),
                  !call.enclosingViewCalls.contains(where: { SwiftUIGestureUse.controls.contains($0.calleeName ?? "") }),
                  !AccessibilityLabels.accessibilityContainers(of: call).contains(where: { Self.namesItsAction(ModifierChain(containing: ExprSyntax($0))) })
            else { continue }
            let type = call.calleeName ?? ""
            // What the use passes decides which fact it stands on: a component that taps only
            // through an optional closure is tappable only where one is given.
            let facts = [ViewComponents.tapOnlyPrefix + type]
                + ViewComponents.closureLabels(of: call).map { ViewComponents.tapOnlyWhenGivenPrefix + type + "." + $0 }
            if facts.contains(where: file.context.componentFacts.contains) {
                sink.report(call, "`\(type)` is made tappable by a tap gesture in its own body, but neither `\(type)` nor this use gives it a button or link trait, so VoiceOver reads this `\(InputExcerpt.of(call.sourceText.split(separator: "\n").first.map(String.init) ?? type, limit: 50))` as plain content; make `\(type)` a `Button` (or add `.accessibilityAddTraits(.isButton)` in it)")
            }
        }
    }

    /// The chain gives its view an actionable trait or action, or takes it out of the tree.
    private static func namesItsAction(_ chain: ModifierChain) -> Bool {
        chain.isHiddenFromAccessibility || carriesAction(chain)
            // An overlay that is the control for VoiceOver (`.overlay { Color.clear.accessibilityAddTraits(.isButton) … }`).
            || chain.modifiers.contains { call in
                ["overlay", "background"].contains(call.calleeName ?? "") && call.tokens(viewMode: .sourceAccurate).contains { token in
                    if case .identifier(let name) = token.tokenKind { return actionableTraits.contains(name) || name == "accessibilityAction" }
                    return false
                }
            }
    }

    /// The chain itself says the view acts: a button, link or toggle trait, an accessibility
    /// action, or a representation that stands for it.
    static func carriesAction(_ chain: ModifierChain) -> Bool {
        !chain.addedTraits.isDisjoint(with: actionableTraits)
            || chain.has("accessibilityAction") || chain.has("accessibilityActions") || chain.has("accessibilityRepresentation")
    }

    private func checkSwiftUI(_ use: SwiftUIGestureUse, _ file: SourceFile, _ sink: inout FindingSink) {
        guard use.kind == .singleTap, !use.doesNothing, !TapAction.onlyDismissesKeyboard(use.actions) else { return }
        // One finding per defect: a tap that flips a value is custom-toggle-missing-trait's.
        if TapAction.toggledValue(in: TapAction.ranges(of: use.actions), file) != nil { return }
        let chain = ModifierChain(containing: ExprSyntax(use.modifier))
        if use.control(in: chain) != nil || chain.isHiddenFromAccessibility { return }
        if Self.carriesAction(chain) { return }
        // Tapping a full-screen backdrop dismisses an overlay: it is not a button, and VoiceOver's
        // way to dismiss is the escape action that custom-modal-missing-is-modal asks for.
        if Self.isBackdrop(chain) { return }
        sink.report(use.modifier, at: use.anchor, """
            \(use.name) makes \(chain.root.shortViewDescription) tappable, but nothing gives it a button or link \
            trait, so VoiceOver reads it as plain content; use a `Button`, or add \
            `.accessibilityAddTraits(.isButton)`
            """)
    }

    /// `Color.black.opacity(0.4).ignoresSafeArea()`: a colour covering the screen behind an overlay.
    static func isBackdrop(_ chain: ModifierChain) -> Bool {
        let root = chain.root.as(MemberAccessExprSyntax.self)
        let isColor = root?.base?.sourceText == "Color" || (root?.base == nil && root != nil)
        return isColor && (chain.has("ignoresSafeArea") || chain.has("edgesIgnoringSafeArea"))
    }

    private func checkRecognizer(_ recognizer: RecognizerUse, _ file: SourceFile, _ sink: inout FindingSink) {
        guard recognizer.isSingleTap, recognizer.actionToggles(file) == nil else { return }
        let scope = recognizer.call.enclosingTypeDecl
        let object = ObjectAccessibility(scope: scope, file)
        if !object.traits.isDisjoint(with: Self.actionableUIKitTraits) || object.activates || object.customActions { return }
        let owner = scope.map { "`\($0.declaredTypeName)`" } ?? "this file"
        let fix = recognizer.type.hasPrefix("NS")
            ? "never sets the `.button` accessibility role nor implements `accessibilityPerformPress()`"
            : "never inserts `.button` or `.link` into `accessibilityTraits` nor overrides `accessibilityActivate()`"
        sink.report(recognizer.call, """
            `\(recognizer.type)` makes a view tappable, but \(owner) \(fix), so VoiceOver does not announce \
            the view as something that can be activated
            """)
    }
}
