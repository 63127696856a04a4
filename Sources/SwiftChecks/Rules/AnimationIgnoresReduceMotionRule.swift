import AuditModel
import SwiftSyntax

/// Springs, repeating animations, sliding/scaling transitions and 3-D rotations in a type that
/// never asks whether Reduce Motion is on.
struct AnimationIgnoresReduceMotionRule: SourceRule {
    let description = RuleDescription(
        id: "animation-ignores-reduce-motion",
        title: "Motion that ignores Reduce Motion",
        kind: .requirement, certainty: .review,
        rationale: """
            People who get dizzy or nauseous from on-screen motion turn on Reduce Motion, and \
            Apple asks apps to respond by reducing automatic and repetitive animation, bounce, \
            scaling, sliding and simulated depth. This rule looks for those motions (spring and \
            bouncy animations, repeating animations, `.slide`/`.move`/`.scale`/`.offset`/`.push`/ \
            `.blurReplace` transitions, animated `.rotation3DEffect`; in UIKit spring dampings, \
            `.repeat` options, 3-D flip and curl transitions, spring and repeating Core Animation, \
            and any `UIView.animate` that moves, resizes or transforms views inside a custom \
            view-controller transition, a `UIViewControllerAnimatedTransitioning` type) \
            in a type that never reads the setting: `accessibilityReduceMotion` (SwiftUI), \
            `UIAccessibility.isReduceMotionEnabled` (UIKit), \
            `NSWorkspace.shared.accessibilityDisplayShouldReduceMotion` (AppKit), or a value \
            named like `reduceMotion` passed in. Reduce Motion exists on every platform, macOS \
            included. Fades (`.opacity`, `.easeInOut` on opacity) are what Apple suggests instead \
            and are not reported; removing all animation is not the goal.
            """,
        citations: [
            Citation("HIG › Accessibility",
                     "When this setting is active, ensure your app or game responds by reducing automatic and repetitive animations, including zooming, scaling, and peripheral motion."),
            Citation("SwiftUI › accessibilityReduceMotion",
                     "If this property's value is true, UI should avoid large animations, especially those that simulate the third dimension."),
            Citation("HIG › Accessibility", "Tightening animation springs to reduce bounce effects"),
            Citation("HIG › Accessibility", "Replacing transitions in x-, y-, and z-axes with fades to avoid motion"),
            Citation("App Store Connect Help › Reduced Motion evaluation criteria",
                     "disable or change the animation when the user's setting indicates a need or preference for reduced motion."),
        ],
        fix: """
            Read the setting and swap the motion for a fade or nothing: \
            `@Environment(\\.accessibilityReduceMotion) private var reduceMotion`, then \
            `withAnimation(reduceMotion ? nil : .spring()) { … }` and \
            `.transition(reduceMotion ? .opacity : .slide)`. In UIKit check \
            `UIAccessibility.isReduceMotionEnabled` (and observe \
            `UIAccessibility.reduceMotionStatusDidChangeNotification`); in AppKit \
            `NSWorkspace.shared.accessibilityDisplayShouldReduceMotion`. Stop repeating motion, \
            or give people a control to stop it.
            """,
        limitations: """
            The setting is looked for in the enclosing type (or the file at top level): an \
            extension of a view that reads it, or a view model animating on a view's behalf, is \
            judged on its own. A static reader cannot see what an animation moves, so a spring \
            that only changes opacity is reported like one that bounces a view, and a one-shot \
            spring or slide may be a small motion the person starts: every finding needs review \
            (docs/accuracy.md: two of four repeating or 3-D findings held on real apps); easing \
            animations that scale or slide (`.easeInOut` with `.scaleEffect`) are not reported. \
            Animations and transitions defined in another file are judged where they are \
            defined; ones bound to a name in this file are followed one step.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Banner: View {
                    @State private var shown = false
                    var body: some View {
                        VStack {
                            if shown {
                                Text("Saved").transition(↓.move(edge: .top))
                            }
                            Image(systemName: "bell")
                                .scaleEffect(shown ? 1.2 : 1)
                                .animation(↓.spring(response: 0.3, dampingFraction: 0.4), value: shown)
                        }
                        .onAppear { withAnimation(↓.bouncy) { shown = true } }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Loader: View {
                    @State private var spinning = false
                    let wobble = Animation.easeInOut(duration: 0.2).repeatCount(3)
                    var body: some View {
                        VStack {
                            Image(systemName: "arrow.triangle.2.circlepath")
                                .rotationEffect(.degrees(spinning ? 360 : 0))
                                .animation(↓.linear(duration: 1).repeatForever(autoreverses: false), value: spinning)
                            Panel().transition(↓.asymmetric(insertion: .push(from: .trailing), removal: .opacity))
                            Badge().animation(↓wobble, value: spinning)
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct FlipCard: View {
                    @State private var flipped = false
                    var body: some View {
                        CardFace()
                            .↓rotation3DEffect(.degrees(flipped ? 180 : 0), axis: (x: 0, y: 1, z: 0))
                            .onTapGesture { withAnimation(.easeInOut) { flipped.toggle() } }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ToastView: UIView {
                    func show() {
                        ↓UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0.8, options: [], animations: {
                            self.transform = .identity
                        })
                        ↓UIView.animate(withDuration: 1, delay: 0, options: [.repeat, .autoreverse], animations: { self.alpha = 0.4 })
                        ↓UIView.transition(with: self, duration: 0.5, options: .transitionFlipFromLeft, animations: nil)
                        let pulse = CABasicAnimation(keyPath: "transform.scale")
                        ↓pulse.repeatCount = .infinity
                        layer.add(pulse, forKey: "pulse")
                    }
                }
                """),
            // A custom zoom between screens, on an easing curve.
            RuleExample("""
                import UIKit
                final class ZoomAnimator: NSObject, UIViewControllerAnimatedTransitioning {
                    func transitionDuration(using context: UIViewControllerContextTransitioning?) -> TimeInterval { 0.25 }
                    func animateTransition(using context: UIViewControllerContextTransitioning) {
                        let snapshot = UIView()
                        ↓UIView.animate(withDuration: 0.25) {
                            snapshot.frame = context.containerView.bounds
                        } completion: { _ in context.completeTransition(true) }
                    }
                }
                """),
            RuleExample("""
                import AppKit
                final class Spinner: NSView {
                    func start() {
                        let spin = CABasicAnimation(keyPath: "transform.rotation")
                        ↓spin.repeatCount = Float.greatestFiniteMagnitude
                        layer?.add(spin, forKey: "spin")
                        let bounce = ↓CASpringAnimation(keyPath: "position.y")
                        layer?.add(bounce, forKey: "bounce")
                    }
                }
                """),
        ],
        nonTriggering: [
            // A custom transition that only cross-fades; an easing animation outside one.
            RuleExample("""
                import UIKit
                final class FadeAnimator: NSObject, UIViewControllerAnimatedTransitioning {
                    func transitionDuration(using context: UIViewControllerContextTransitioning?) -> TimeInterval { 0.25 }
                    func animateTransition(using context: UIViewControllerContextTransitioning) {
                        let incoming = UIView()
                        UIView.animate(withDuration: 0.25) { incoming.alpha = 1 } completion: { _ in context.completeTransition(true) }
                    }
                }
                final class Drawer: UIView {
                    func open() { UIView.animate(withDuration: 0.25) { self.frame.origin.x = 0 } }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct ContentView: View {
                    @Environment(\\.accessibilityReduceMotion) private var reduceMotion
                    @State private var showContent = false
                    var body: some View {
                        VStack {
                            if showContent { Details().transition(reduceMotion ? .opacity : .slide) }
                        }
                        .animation(reduceMotion ? nil : .spring(), value: showContent)
                        .onAppear { withAnimation(reduceMotion ? nil : .spring()) { showContent.toggle() } }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    let reduceMotion: Bool
                    @State private var expanded = false
                    var body: some View {
                        VStack {
                            if expanded { Details().transition(.opacity) }
                        }
                        .onAppear { withAnimation(reduceMotion ? nil : .snappy) { expanded = true } }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Tilted: View {
                    @State private var on = false
                    var body: some View {
                        Poster()
                            .rotation3DEffect(.degrees(12), axis: (x: 1, y: 0, z: 0))
                            .opacity(on ? 1 : 0)
                            .transition(.opacity.combined(with: .identity))
                            .animation(.smooth, value: on)
                            .onAppear { withAnimation(.easeInOut(duration: 0.3)) { on = true } }
                            .onTapGesture { withAnimation { on.toggle() } }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ToastView: UIView {
                    func show() {
                        let damping: CGFloat = UIAccessibility.isReduceMotionEnabled ? 1 : 0.5
                        UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: damping, initialSpringVelocity: 0, options: [], animations: { self.transform = .identity })
                    }
                }
                final class FadeView: UIView {
                    func show() {
                        UIView.animate(withDuration: 0.25) { self.alpha = 1 }
                        UIView.transition(with: self, duration: 0.25, options: .transitionCrossDissolve, animations: nil)
                        let once = CABasicAnimation(keyPath: "opacity")
                        once.repeatCount = 1
                        layer.add(once, forKey: nil)
                        let existing = layer.animation(forKey: "pulse")
                    }
                }
                """),
            RuleExample("""
                import AppKit
                final class Spinner: NSView {
                    func start() {
                        guard !NSWorkspace.shared.accessibilityDisplayShouldReduceMotion else { return }
                        let spin = CABasicAnimation(keyPath: "transform.rotation")
                        spin.repeatCount = .infinity
                        layer?.add(spin, forKey: "spin")
                    }
                }
                """),
        ]
    )

    static let springs: Set<String> = ["spring", "bouncy", "snappy", "interpolatingSpring", "interactiveSpring"]
    static let repeats: Set<String> = ["repeatForever", "repeatCount"]
    static let movingTransitions: Set<String> = ["scale", "slide", "move", "offset", "push", "blurReplace"]
    static let flipTransitions: Set<String> = [
        "transitionFlipFromLeft", "transitionFlipFromRight", "transitionFlipFromTop", "transitionFlipFromBottom",
        "transitionCurlUp", "transitionCurlDown",
    ]

    /// Every callee `check` and `uiKitMotion` look at.
    static let calleeNames: Set<String> = [
        "withAnimation", "animation", "transition", "rotation3DEffect", "animate", "animateKeyframes",
        "UIViewPropertyAnimator", "UISpringTimingParameters", "CASpringAnimation",
    ]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        var candidates: [(node: Syntax, construct: String, motion: String, uiKit: Bool)] = []
        for call in file.index.calls(named: Self.calleeNames) {
            guard let name = call.calleeName else { continue }
            switch name {
            case "withAnimation", "animation":
                guard name == "withAnimation" || call.isMemberCallWithBase,
                      let animation = call.firstUnlabeledArgument, let motion = animationMotion(animation, file) else { continue }
                let construct = name == "withAnimation" ? "`withAnimation`" : "`.animation`"
                candidates.append((Syntax(animation), construct, motion, false))
            case "transition" where call.isMemberCallWithBase && call.argument("with") == nil && call.argument("from") == nil:
                guard let transition = call.firstUnlabeledArgument else { continue }
                let found = Self.resolvedMemberNames(transition, file).intersection(Self.movingTransitions)
                guard let first = found.sorted().first else { continue }
                candidates.append((Syntax(transition), "`.transition`", "a `.\(first)` transition that moves the view", false))
            case "rotation3DEffect":
                guard let motion = rotationMotion(call, file),
                      let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
                candidates.append((Syntax(member.declName), "`.rotation3DEffect`", motion, false))
            default:
                if let motion = uiKitMotion(call) {
                    candidates.append((Syntax(call), "`\(call.calleeBaseText.map { "\($0)." } ?? "")\(name)`", motion, true))
                }
            }
        }
        for assignment in file.index.assignments where assignment.targetProperty == "repeatCount" {
            guard assignment.value.count == 1, Self.repeatsMoreThanOnce(assignment.value[0]) else { continue }
            candidates.append((Syntax(assignment.node), "`\(assignment.target.sourceText)`",
                               "a Core Animation that repeats (`repeatCount = \(assignment.valueText)`)", true))
        }
        guard !candidates.isEmpty else { return }
        // The setting under any of its names (`accessibilityReduceMotion`, `isReduceMotionEnabled`,
        // `accessibilityDisplayShouldReduceMotion`) or a value passed in as `reduceMotion`: a view
        // handed the flag by its parent honours it as much as one reading the environment.
        let settingNames = file.index.references.keys.filter { name in
            let lowered = name.lowercased()
            return lowered.contains("reducemotion") || lowered.contains("reducedmotion")
        }
        for candidate in candidates {
            let scope = candidate.node.enclosingTypeDecl
            if settingNames.contains(where: { file.index.references($0, in: scope) }) { continue }
            let owner = scope.map { "`\($0.declaredTypeName)`" } ?? "this file"
            let setting: String
            if !candidate.uiKit {
                setting = "`accessibilityReduceMotion`"
            } else if file.platforms(at: candidate.node) == PlatformSet(.macOS) {
                setting = "`NSWorkspace.shared.accessibilityDisplayShouldReduceMotion`"
            } else {
                setting = "`UIAccessibility.isReduceMotionEnabled`"
            }
            // Apple's obligation targets automatic, repetitive and depth motion. A spring or a slide
            // may be a small one-off the person starts: the message asks the reviewer to grade it.
            let sure = Self.isRepetitiveOrDepth(candidate.motion)
            sink.report(candidate.node, """
                \(candidate.construct) runs \(candidate.motion), but \(owner) never reads \(setting), so it \
                still moves when Reduce Motion is on; replace it with a fade or no animation when the setting is on\
                \(sure ? "" : " (check whether the motion is large or automatic: a small one-off motion the person starts can stay)")
                """)
        }
    }

    /// Repeating and 3-D motion, as this rule's motion descriptions name it.
    static func isRepetitiveOrDepth(_ motion: String) -> Bool {
        motion.hasPrefix("a repeating") || motion.contains("repeats") || motion.contains("3-D")
    }

    /// "a spring animation (`.spring`)" / "a repeating animation (`.repeatForever`)", or `nil`.
    private func animationMotion(_ animation: ExprSyntax, _ file: SourceFile) -> String? {
        let names = Self.resolvedMemberNames(animation, file)
        if let repeating = names.intersection(Self.repeats).sorted().first {
            return "a repeating animation (`.\(repeating)`)"
        }
        if let spring = names.intersection(Self.springs).sorted().first {
            return "a spring animation (`.\(spring)`)"
        }
        return nil
    }

    /// A 3-D rotation whose angle changes (`flipped ? 180 : 0`) in a view that animates.
    private func rotationMotion(_ call: FunctionCallExprSyntax, _ file: SourceFile) -> String? {
        guard let angle = call.firstUnlabeledArgument else { return nil }
        let constantWords: Set<String> = ["degrees", "radians", "Angle", "zero"]
        let isDynamic = angle.tokens(viewMode: .sourceAccurate).contains { token in
            if case .identifier(let name) = token.tokenKind { return !constantWords.contains(name) }
            return false
        }
        guard isDynamic else { return nil }
        let chain = ModifierChain(containing: ExprSyntax(call))
        let animated = chain.has("animation") || file.index.references("withAnimation", in: call.enclosingTypeDecl)
        return animated ? "an animated 3-D rotation (`\(angle.normalizedText)`)" : nil
    }

    private func uiKitMotion(_ call: FunctionCallExprSyntax) -> String? {
        guard let name = call.calleeName else { return nil }
        switch name {
        case "animate", "animateKeyframes", "transition":
            guard let base = call.calleeBaseText, base.hasSuffix("UIView") else { return nil }
            if let damping = call.argument("usingSpringWithDamping") {
                return "a spring animation (`usingSpringWithDamping: \(damping.sourceText)`)"
            }
            if let bounce = call.argument("bounce") ?? call.argument("springDuration") {
                return "a spring animation (`\(bounce.parent?.sourceText ?? "spring")`)"
            }
            guard let options = call.argument("options") else { return transitionMotion(call) }
            let names = ObjectAccessibility.memberNames(in: options)
            if names.contains("repeat") { return "a repeating animation (`.repeat`)" }
            if let flip = names.intersection(Self.flipTransitions).sorted().first {
                return "a 3-D transition (`.\(flip)`)"
            }
            return transitionMotion(call)
        case "UIViewPropertyAnimator":
            return call.argument("dampingRatio").map { "a spring animation (`dampingRatio: \($0.sourceText)`)" }
        case "UISpringTimingParameters", "CASpringAnimation":
            return call.calledExpression.is(DeclReferenceExprSyntax.self) ? "a spring animation" : nil
        default:
            return nil
        }
    }

    /// A custom view-controller transition (a `UIViewControllerAnimatedTransitioning` type)
    /// whose animation moves, resizes or transforms views: the zooming and sliding between
    /// screens Apple names, which an easing curve does not make small.
    private func transitionMotion(_ call: FunctionCallExprSyntax) -> String? {
        guard let type = Syntax(call).enclosingTypeDecl?.asProtocol(DeclGroupSyntax.self),
              type.inheritanceClause?.inheritedTypes.contains(where: { $0.type.sourceText == "UIViewControllerAnimatedTransitioning" }) == true,
              let animations = call.trailingClosure.map(Syntax.init) ?? call.argument("animations").map(Syntax.init) else { return nil }
        for token in animations.tokens(viewMode: .sourceAccurate) where Self.movingProperties.contains(token.text) {
            guard token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period,
                  token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .equal else { continue }
            return "a custom screen transition that moves or resizes views (`\(token.text) = …`)"
        }
        return nil
    }

    static let movingProperties: Set<String> = ["frame", "center", "transform", "bounds"]

    /// `.infinity`, `Float.greatestFiniteMagnitude`, or a literal above 1.
    private static func repeatsMoreThanOnce(_ value: ExprSyntax) -> Bool {
        if let number = value.numberValue { return number > 1 }
        return ["infinity", "greatestFiniteMagnitude"].contains(value.memberName ?? "")
    }

    /// Member names in an expression, plus those of the declaration it names when it is a
    /// name (`wobble`, `.slideAndFade`, `AnyTransition.slideAndFade`) declared in this file.
    static func resolvedMemberNames(_ expression: ExprSyntax, _ file: SourceFile) -> Set<String> {
        var names = ObjectAccessibility.memberNames(in: expression)
        let head = expression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        if let head {
            for declaration in file.index.declarations(head, in: nil) {
                guard let binding = declaration.as(PatternBindingSyntax.self) else { continue }
                if let value = binding.initializer?.value { names.formUnion(ObjectAccessibility.memberNames(in: value)) }
                if let accessors = binding.accessorBlock { names.formUnion(ObjectAccessibility.memberNames(in: accessors)) }
            }
        }
        return names
    }
}
