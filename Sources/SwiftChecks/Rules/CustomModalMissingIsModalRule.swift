import AuditModel
import SwiftSyntax

/// A hand-made modal (dimmed backdrop + content shown on a condition, or a UIKit overlay view
/// added over the window) that does not keep VoiceOver inside it.
struct CustomModalMissingIsModalRule: SourceRule {
    let description = RuleDescription(
        id: "custom-modal-missing-is-modal",
        title: "Custom modal overlay does not trap VoiceOver focus",
        platforms: .all,
        // On the seed-17 census 4 of 8 findings were wrong: an 80 pt loading spinner on a
        // translucent square and a banner's own background are not screen-covering overlays.
        // Until the rule knows what an overlay covers, a person judges it.
        kind: .recommendation, certainty: .review,
        rationale: """
            A custom dialog drawn over a dimmed screen looks modal, but VoiceOver does not know it \
            is: swiping moves on to the buttons and text behind the dimming, and a VoiceOver user \
            can lose the dialog or act on the screen it is meant to block. System sheets and \
            alerts do this for you; a custom overlay needs the `.isModal` trait (UIKit: \
            `accessibilityViewIsModal = true`) and an escape action to dismiss it.
            """,
        citations: [
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Custom overlay views need the .isModal trait to trap VoiceOver focus and an escape action for dismissal"),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Missing `.isModal` on overlays: Custom modals without .accessibilityAddTraits(.isModal) let VoiceOver escape."),
        ],
        fix: """
            SwiftUI: on the dialog content, add `.accessibilityAddTraits(.isModal)` and \
            `.accessibilityAction(.escape) { isPresented = false }`, and hide the dimming layer \
            (`.accessibilityHidden(true)`). UIKit: set `accessibilityViewIsModal = true` on the \
            overlay view that contains the dialog and override `accessibilityPerformEscape()` to \
            dismiss it. Or present with `.sheet`/`.alert`/`present(_:animated:)`, which handle both.
            """,
        limitations: """
            Heuristic, and deliberately narrow. SwiftUI: only a full-screen dimming layer \
            (`Color.black`/`.gray` with `.opacity(…)` of at least 0.1 and `.ignoresSafeArea()`/\
            `.edgesIgnoringSafeArea`) inside an `if` is recognised; a dialog view that draws its own backdrop and is shown from \
            another file is not. A loading overlay (a `ProgressView` with no buttons, or a condition \
            about loading) is not reported. `.isModal` anywhere in the `if`, on a view containing it, \
            or inside a view type of this file that the `if` shows, counts. UIKit: `addSubview` of \
            `self` or of a view whose class is declared in this file and named like an overlay, \
            modal, popup, dialog or sheet, or of a view given a translucent black background in the \
            same type; any `accessibilityViewIsModal` set in the same type (or mentioned in the \
            overlay's class) counts, whichever view it is set on.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct CheckoutView: View {
                    @State private var showConfirm = false
                    var body: some View {
                        ZStack {
                            Button("Pay") { showConfirm = true }
                            ↓if showConfirm {
                                Color.black.opacity(0.4)
                                    .ignoresSafeArea()
                                    .onTapGesture { showConfirm = false }
                                VStack {
                                    Text("Confirm payment?")
                                    Button("Pay now") { showConfirm = false }
                                }
                                .padding()
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct RatingCard: View {
                    var body: some View { Text("Rate us") }
                }
                struct HomeView: View {
                    @State var isPresented = false
                    var body: some View {
                        List { Text("Home") }
                            .overlay {
                                ↓if isPresented {
                                    ZStack {
                                        Rectangle().fill(.black.opacity(0.5)).ignoresSafeArea()
                                        RatingCard()
                                    }
                                }
                            }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class RatingPopupView: UIView {
                    func present(in window: UIWindow) {
                        frame = window.bounds
                        backgroundColor = UIColor.black.withAlphaComponent(0.4)
                        ↓window.addSubview(self)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class CheckoutViewController: UIViewController {
                    func showBlocker() {
                        let dimmingView = UIView(frame: view.bounds)
                        dimmingView.backgroundColor = UIColor(white: 0, alpha: 0.5)
                        ↓view.addSubview(dimmingView)
                    }
                }
                """),
        ],
        nonTriggering: [
            // A tint over one control (an avatar being edited) dims that control, not the screen.
            RuleExample("""
                import UIKit
                final class ProfileHeader: UIView {
                    let avatarButton = UIButton()
                    let editAvatarBackground = UIView()
                    func setUp() {
                        editAvatarBackground.backgroundColor = UIColor.black.withAlphaComponent(0.6)
                        avatarButton.addSubview(editAvatarBackground)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                struct CheckoutView: View {
                    @State private var showConfirm = false
                    var body: some View {
                        ZStack {
                            Button("Pay") { showConfirm = true }
                            if showConfirm {
                                Color.black.opacity(0.4)
                                    .ignoresSafeArea()
                                    .accessibilityHidden(true)
                                VStack {
                                    Text("Confirm payment?")
                                    Button("Pay now") { showConfirm = false }
                                }
                                .accessibilityAddTraits(.isModal)
                                .accessibilityAction(.escape) { showConfirm = false }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct ConfirmDialog: View {
                    var body: some View {
                        VStack { Text("Delete?"); Button("Delete") {} }
                            .accessibilityAddTraits(.isModal)
                    }
                }
                struct ListScreen: View {
                    @State var asking = false
                    var body: some View {
                        ZStack {
                            Text("Items")
                            if asking {
                                Color.black.opacity(0.3).ignoresSafeArea()
                                ConfirmDialog()
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Uploading: View {
                    @State var isUploading = false
                    var body: some View {
                        ZStack {
                            Text("Photos")
                            if isUploading {
                                Color.black.opacity(0.3).ignoresSafeArea()
                                ProgressView()
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Hero: View {
                    @State var expanded = false
                    var body: some View {
                        ZStack {
                            Color.black.opacity(0.2).ignoresSafeArea()
                            if expanded { Text("Details").shadow(color: .black.opacity(0.3), radius: 4) }
                        }
                        .sheet(isPresented: $expanded) { Text("Sheet") }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct SortMenu: View {
                    @State var open = false
                    var body: some View {
                        ZStack(alignment: .topTrailing) {
                            Button("Sort") { open.toggle() }
                            if open {
                                Color.black.opacity(0.001).ignoresSafeArea().onTapGesture { open = false }
                                VStack { Button("Name") {}; Button("Date") {} }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class RatingPopupView: UIView {
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        accessibilityViewIsModal = true
                    }
                    required init?(coder: NSCoder) { nil }
                    func present(in window: UIWindow) { window.addSubview(self) }
                }
                final class TipOverlayView: UIView {
                    override var accessibilityViewIsModal: Bool { get { true } set {} }
                    func show(in window: UIWindow) { window.addSubview(self) }
                }
                """),
            RuleExample("""
                import UIKit
                final class FeedViewController: UIViewController {
                    let header = UIView()
                    func layout() {
                        view.addSubview(header)
                        // Declared in another file, where it may well set accessibilityViewIsModal.
                        let popup = PromoPopupView()
                        view.addSubview(popup)
                        let spinner = LoadingOverlayView()
                        view.addSubview(spinner)
                    }
                }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkSwiftUI(file, &sink)
        checkUIKit(file, &sink)
    }

    // MARK: - SwiftUI

    private func checkSwiftUI(_ file: SourceFile, _ sink: inout FindingSink) {
        let traitCalls = file.index.calls(named: ["accessibilityAddTraits", "accessibility"]).filter(Self.addsModalTrait)
        let modalTypes = Set(traitCalls.compactMap { $0.enclosingTypeDecl?.declaredTypeName })
        var reported: Set<SyntaxIdentifier> = []
        for call in file.index.calls(named: "opacity") {
            guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base, Self.isDimColor(base) else {
                continue
            }
            // `Color.black.opacity(0.001)` catches taps outside a menu; it dims nothing.
            if let amount = call.firstUnlabeledArgument?.numberValue, amount < 0.1 { continue }
            var chain = ModifierChain(containing: ExprSyntax(call))
            if !Self.coversScreen(chain), let host = Self.styledShape(around: chain.outermost) {
                chain = ModifierChain(containing: ExprSyntax(host))
            }
            guard Self.coversScreen(chain), let (presenting, block) = Self.presentingIf(chain.outermost),
                  !reported.contains(presenting.id) else { continue }
            reported.insert(presenting.id)
            if Self.isLoadingOverlay(presenting, block, file) { continue }
            let trapped = traitCalls.contains { trait in block.spans(trait) || trait.spans(presenting) }
                || file.calls(inside: block).contains { inner in inner.calleeName.map(modalTypes.contains) ?? false }
            if trapped { continue }
            sink.report(presenting, """
                overlay shown when `\(presenting.conditions.normalizedText)` dims the screen with \
                `\(call.normalizedText)` but adds no `.accessibilityAddTraits(.isModal)`: VoiceOver can still move to \
                the content behind it; add the trait and an `.accessibilityAction(.escape)` that dismisses it
                """)
        }
    }

    private static func addsModalTrait(_ call: FunctionCallExprSyntax) -> Bool {
        let argument: ExprSyntax?
        switch call.calleeName {
        case "accessibilityAddTraits": argument = call.firstUnlabeledArgument
        case "accessibility": argument = call.argument("addTraits")
        default: argument = nil
        }
        guard let argument else { return false }
        return argument.tokens(viewMode: .sourceAccurate).contains { $0.text == "isModal" }
    }

    /// `Color.black`, `.black`, `Color.gray`: the usual backdrop colours.
    private static func isDimColor(_ expression: ExprSyntax) -> Bool {
        guard let member = expression.as(MemberAccessExprSyntax.self),
              ["black", "gray"].contains(member.declName.baseName.text) else { return false }
        guard let base = member.base?.sourceText else { return true }
        return base == "Color" || base == "SwiftUI.Color"
    }

    private static func coversScreen(_ chain: ModifierChain) -> Bool {
        chain.has("ignoresSafeArea") || chain.has("edgesIgnoringSafeArea")
    }

    /// `Rectangle().fill(.black.opacity(0.5))`: the shape the dim colour is applied to.
    private static func styledShape(around expression: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let list = expression.parent?.as(LabeledExprSyntax.self)?.parent,
              let call = list.parent?.as(FunctionCallExprSyntax.self), let name = call.calleeName,
              ["fill", "foregroundStyle", "background"].contains(name) else { return nil }
        return call
    }

    /// The `if` whose body shows the overlay, and that body.
    private static func presentingIf(_ expression: ExprSyntax) -> (IfExprSyntax, CodeBlockSyntax)? {
        var current = Syntax(expression).parent
        while let node = current {
            if node.is(DeclSyntax.self) { return nil }
            if let ifExpression = node.as(IfExprSyntax.self), ifExpression.body.spans(expression) {
                return (ifExpression, ifExpression.body)
            }
            current = node.parent
        }
        return nil
    }

    private static let loadingWords: Set<String> = [
        "loading", "busy", "progress", "saving", "syncing", "processing", "uploading", "downloading", "working",
    ]

    private static func isLoadingOverlay(_ presenting: IfExprSyntax, _ block: CodeBlockSyntax, _ file: SourceFile) -> Bool {
        let conditionWords = presenting.conditions.tokens(viewMode: .sourceAccurate).flatMap { identifierWords($0.text) }
        if !Set(conditionWords).isDisjoint(with: loadingWords) { return true }
        let names = Set(file.calls(inside: block).compactMap(\.calleeName))
        let interactive = !names.isDisjoint(with: ["Button", "TextField", "SecureField", "Toggle", "Picker", "Link"])
        return names.contains("ProgressView") && !interactive
    }

    // MARK: - UIKit

    private static let overlayWords: Set<String> = ["overlay", "modal", "popup", "dialog", "sheet"]
    private static let notModalWords: Set<String> = [
        "loading", "progress", "spinner", "activity", "toast", "banner", "hud", "snackbar",
    ]

    private func checkUIKit(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: "addSubview") {
            guard call.arguments.count == 1, let argument = call.firstUnlabeledArgument else { continue }
            let platforms = file.platforms(at: call).intersection(.uiKit)
            guard !platforms.isEmpty else { continue }
            // A tint laid over one button or image (`avatarButton.addSubview(dim)`) dims that
            // control, not the screen; making it modal would trap VoiceOver inside the control.
            if let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
               !Set(identifierWords(Assignment.objectName(receiver))).isDisjoint(with: Self.singleControlWords) { continue }
            let object = Assignment.objectName(argument)
            let typeScope = call.enclosingTypeDecl ?? Syntax(file.tree)

            var overlay: String?
            if object.isEmpty, argument.sourceText == "self", let type = call.enclosingTypeDecl,
               Self.isOverlayName(type.declaredTypeName) {
                if type.sourceText.contains("accessibilityViewIsModal") { continue }
                overlay = "`\(type.declaredTypeName)`"
            } else if let name = Self.constructedType(argument, file), Self.isOverlayName(name) {
                // A class from another file may set the flag itself: only judge what we can see.
                let decls = file.index.typeDeclarations.filter { $0.declaredTypeName == name }
                guard !decls.isEmpty,
                      !decls.contains(where: { $0.sourceText.contains("accessibilityViewIsModal") }) else { continue }
                overlay = "`\(name)`"
            } else if !object.isEmpty, Self.isDimmed(object, in: typeScope, file) {
                overlay = "the dimming view `\(object)`"
            } else if object.isEmpty, argument.sourceText == "self", Self.isDimmed("", in: typeScope, file) {
                overlay = "this dimming view"
            }
            guard let overlay else { continue }
            let flagged = file.assignments(inside: typeScope).contains { assignment in
                assignment.targetProperty == "accessibilityViewIsModal"
                    && !(assignment.value.count == 1 && assignment.value.first?.booleanValue == false)
            }
            if flagged { continue }
            sink.report(call, """
                `\(call.normalizedText)` lays \(overlay) over the interface without `accessibilityViewIsModal = true`: \
                VoiceOver can still move to the views behind it
                """, platforms: platforms)
        }
    }

    /// Words naming one control or its content rather than a screen or container.
    static let singleControlWords: Set<String> = ["button", "control", "cell", "image", "label", "field", "icon", "avatar",
                                                  "thumbnail", "badge", "switch", "slider"]

    private static func isOverlayName(_ name: String) -> Bool {
        let words = Set(identifierWords(name))
        return !words.isDisjoint(with: overlayWords) && words.isDisjoint(with: notModalWords)
    }

    /// The class of `PopupView()` or of `popup` bound by `let popup = PopupView()`.
    private static func constructedType(_ argument: ExprSyntax, _ file: SourceFile) -> String? {
        if let call = argument.as(FunctionCallExprSyntax.self) { return call.initializedTypeName }
        guard let reference = argument.as(DeclReferenceExprSyntax.self),
              let bound = file.index.bindings[reference.baseName.text], bound.count == 1 else { return nil }
        return bound.first?.as(FunctionCallExprSyntax.self)?.initializedTypeName
    }

    /// `object.backgroundColor = UIColor.black.withAlphaComponent(0.4)` / `UIColor(white: 0, alpha: 0.5)`.
    private static func isDimmed(_ object: String, in scope: Syntax, _ file: SourceFile) -> Bool {
        file.assignments(inside: scope).contains { assignment in
            guard assignment.targetObject == object, assignment.targetProperty == "backgroundColor" else { return false }
            let text = assignment.valueText.replacingOccurrences(of: " ", with: "").lowercased()
            let dark = text.contains("black") || text.contains("white:0,") || text.contains("white:0.0,")
            return dark && (text.contains("alpha") || text.contains("opacity"))
        }
    }
}
