import AuditModel
import SwiftSyntax

/// A UIKit control made unavailable for a while with `isUserInteractionEnabled = false`: touches
/// stop, but the control still says it is enabled, so VoiceOver reads an active button that does
/// nothing and never says "dimmed".
struct ControlBlockedNotDisabledRule: SourceRule {
    let description = RuleDescription(
        id: "control-blocked-not-disabled",
        title: "Control blocked from touches instead of disabled",
        platforms: PlatformSet([.iOS, .tvOS, .visionOS]),
        kind: .recommendation, certainty: .review,
        rationale: """
            `isUserInteractionEnabled = false` only stops touches. The control keeps its enabled \
            state, so it carries no not-enabled trait: VoiceOver announces an ordinary button \
            (not "dimmed"), Voice Control and Switch Control still offer it, and a double tap \
            does nothing or falls through to the view behind it. Code that turns it off and on \
            again (while a request runs, until a form is valid, after a choice is made) is \
            saying the control is unavailable for now, which is what `isEnabled = false` tells \
            both the screen and assistive technologies. Whether the state should be exposed is \
            a person's call, so these are findings to review.
            """,
        citations: [
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Every custom control MUST have correct traits via .accessibilityAddTraits (never direct assignment)."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Key XCUIElementAttributes properties for accessibility verification: label, identifier, value, isEnabled, hasFocus, isSelected, placeholderValue, title."),
        ],
        fix: """
            Set `isEnabled = false` (and `true` again) instead: UIKit dims the control, adds the \
            not-enabled trait and VoiceOver says "dimmed". A control that should never act is \
            better not a control at all (an image view), or hidden from accessibility.
            """,
        limitations: """
            Only UIKit controls the file makes or declares (`UIButton`, `UISwitch`, `UISlider`, \
            `UIStepper`, `UISegmentedControl`, `UITextField`, a class ending in `Button` or \
            `Control`), or a name ending in `Button`, `Switch`, `Slider` or `Stepper` the file \
            does not declare otherwise, and only where this file turns its touches back on or \
            sets them from a condition: a control made inert once, for good (an avatar button \
            inside a cell that handles the tap), is left alone, as is one turned back on only when an animation completes (a pause \
            while a step fades in), or one whose `isEnabled`, \
            `isHidden = true`, accessibility element or traits the same function also sets. \
            A control subclass blocking itself (`isUserInteractionEnabled = false` in a \
            `UIButton` subclass) counts. SwiftUI's `.allowsHitTesting(false)` is not judged.
            """,
        triggering: [
            RuleExample("""
                import UIKit
                final class SignInViewController: UIViewController {
                    private let signInButton = UIButton(type: .system)
                    private let spinner = UIActivityIndicatorView()
                    func willSignIn() {
                        ↓signInButton.isUserInteractionEnabled = false
                        spinner.startAnimating()
                    }
                    func didSignIn() {
                        signInButton.isUserInteractionEnabled = true
                        spinner.stopAnimating()
                    }
                }
                """),
            // Set from a condition: off for as long as the form is incomplete.
            RuleExample("""
                import UIKit
                final class FormViewController: UIViewController {
                    @IBOutlet weak var continueButton: UIButton!
                    func update(isComplete: Bool) {
                        ↓continueButton.isUserInteractionEnabled = isComplete
                        continueButton.alpha = isComplete ? 1 : 0.4
                    }
                }
                """),
            // Off while a request runs, on again in its callback; off in one case of a switch
            // and on in another; off on a path that returns early; from a compound condition.
            RuleExample("""
                import UIKit
                final class LoginViewController: UIViewController {
                    let signInButton = UIButton()
                    let sendButton = UIButton()
                    let nextButton = UIButton()
                    let submitButton = UIButton()
                    var email = "", password = ""
                    func signIn(_ api: API) {
                        ↓signInButton.isUserInteractionEnabled = false
                        api.signIn(email: email, completion: { _ in self.signInButton.isUserInteractionEnabled = true })
                    }
                    func render(_ state: State) {
                        switch state {
                        case .loading: ↓sendButton.isUserInteractionEnabled = false
                        case .ready: sendButton.isUserInteractionEnabled = true
                        }
                    }
                    func update(isLoading: Bool) {
                        guard !isLoading else {
                            ↓nextButton.isUserInteractionEnabled = false
                            return
                        }
                        nextButton.isUserInteractionEnabled = true
                    }
                    func validate() {
                        ↓submitButton.isUserInteractionEnabled = !email.isEmpty && !password.isEmpty
                    }
                }
                """),
            // A control subclass blocking itself while it shows a spinner.
            RuleExample("""
                import UIKit
                final class LoadingButton: UIButton {
                    var isLoading = false {
                        didSet { ↓isUserInteractionEnabled = !isLoading }
                    }
                }
                """),
        ],
        nonTriggering: [
            // Made inert once and for good: the cell around it handles the tap.
            RuleExample("""
                import UIKit
                final class AuthorCell: UITableViewCell {
                    let avatarButton = UIButton()
                    func setUp() {
                        avatarButton.isUserInteractionEnabled = false
                    }
                }
                """),
            // The same function disables it properly too, or hides it.
            RuleExample("""
                import UIKit
                final class RequestView: UIView {
                    let acceptButton = UIButton()
                    let menuButton = UIButton()
                    func setBusy(_ busy: Bool) {
                        acceptButton.isUserInteractionEnabled = !busy
                        acceptButton.isEnabled = !busy
                        menuButton.isUserInteractionEnabled = !busy
                        menuButton.isHidden = busy
                    }
                }
                """),
            // A pause while a step fades in: touches come back when the animation ends.
            RuleExample("""
                import UIKit
                final class OnboardingViewController: UIViewController {
                    let continueButton = UIButton()
                    func show(_ step: UIView) {
                        continueButton.isUserInteractionEnabled = false
                        UIView.animate(withDuration: 0.3, animations: { step.alpha = 1 }, completion: { _ in
                            self.continueButton.isUserInteractionEnabled = true
                        })
                    }
                    let doneButton = UIButton()
                    func reveal(_ step: UIView) {
                        doneButton.isUserInteractionEnabled = false
                        UIView.animate(withDuration: 0.3) { step.alpha = 1 } completion: { _ in
                            self.doneButton.isUserInteractionEnabled = true
                        }
                    }
                    let skipButton = UIButton()
                    func showAtOnce(_ step: UIView) {
                        skipButton.isUserInteractionEnabled = false
                        step.alpha = 1
                        if step.isHidden { step.isHidden = false } else { skipButton.isUserInteractionEnabled = true }
                    }
                }
                """),
            // Not a control: a view or image view whose gesture is switched off, and a name
            // ending in Button that the file declares as a plain view.
            RuleExample("""
                import UIKit
                final class GalleryView: UIView {
                    let imageView = UIImageView()
                    let playButton = PlayButtonView()
                    func lock(_ locked: Bool) {
                        imageView.isUserInteractionEnabled = !locked
                        playButton.isUserInteractionEnabled = !locked
                        isUserInteractionEnabled = !locked
                    }
                }
                final class PlayButtonView: UIView {}
                """),
        ]
    )

    static let controlTypes: Set<String> = [
        "UIButton", "UISwitch", "UISlider", "UIStepper", "UISegmentedControl", "UITextField", "UIControl", "UIDatePicker",
        "UIPageControl", "UIColorWell",
    ]
    static let controlNameSuffixes = ["Button", "Switch", "Slider", "Stepper"]
    /// What else, set in the same function, says the state already (or takes the control away).
    static let statedBy: Set<String> = ["isEnabled", "isHidden", "isAccessibilityElement", "accessibilityTraits", "accessibilityElementsHidden"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let blocking = file.index.assignments.filter { $0.targetProperty == "isUserInteractionEnabled" || Self.isBareTarget($0) }
        guard !blocking.isEmpty else { return }
        // Re-enabling assignments per object, each with whether it runs when an animation ends:
        // worked out once, not per pair.
        var enabling: [String: [(assignment: Assignment, inCompletion: Bool)]] = [:]
        for assignment in blocking where !Self.isLiterally(false, assignment) {
            enabling[Self.key(assignment), default: []].append((assignment, Self.isInAnimationCompletion(assignment)))
        }
        let stated = Self.statedObjects(file)
        for assignment in blocking where !Self.isLiterally(true, assignment) {
            // Off once and never on again is a decision about the view, not a state it passes
            // through; touches turned back on only when an animation ends, or further down the
            // same code path, are a pause, not a state the control is in. (A file that re-enables
            // one object in hundreds of places is judged on the first 64 of them.)
            let toggled = !Self.isLiterally(false, assignment) || {
                let pathEnds = Self.pathEnds(after: assignment)
                return (enabling[Self.key(assignment)] ?? []).prefix(64).contains { other in
                    !other.inCompletion && (pathEnds || !Self.followsOnTheSamePath(other.assignment, after: assignment))
                }
            }()
            guard toggled, Self.isControl(assignment, file) else { continue }
            if let scope = Self.body(around: Syntax(assignment.node)), stated.contains(Self.scopedKey(scope, assignment.targetObject)) { continue }
            let object = assignment.targetObject.isEmpty ? "self" : assignment.targetObject
            sink.report(assignment.node, """
                `\(object).isUserInteractionEnabled = \(assignment.valueText)` stops touches but leaves the control enabled: \
                VoiceOver still reads it as active (never "dimmed") and Voice Control still offers it; if it is \
                unavailable for now, set `isEnabled` instead
                """)
        }
    }

    private static func isLiterally(_ flag: Bool, _ assignment: Assignment) -> Bool {
        assignment.value.count == 1 && assignment.value[0].booleanValue == flag
    }

    /// The function, initializer, accessor or closure a statement runs in: a closure may run
    /// later (a `Task`, a network callback), so it is a code path of its own.
    static func body(around node: Syntax) -> Syntax? {
        var current = node.parent
        while let candidate = current, ![.closureExpr, .functionDecl, .initializerDecl, .accessorDecl].contains(candidate.kind) {
            current = candidate.parent
        }
        return current
    }

    private static func scopedKey(_ scope: Syntax, _ object: String) -> String { "\(scope.position.utf8Offset)|" + object }

    /// Objects whose enabled state, visibility or accessibility the same body also sets
    /// (`isHidden` to anything but a literal `false`), keyed by body and object.
    private static func statedObjects(_ file: SourceFile) -> Set<String> {
        var keys = Set<String>()
        for other in file.index.assignments {
            let property = other.targetProperty ?? other.target.as(DeclReferenceExprSyntax.self)?.baseName.text
            guard let property, statedBy.contains(property), !(property == "isHidden" && isLiterally(false, other)),
                  let scope = body(around: Syntax(other.node)) else { continue }
            keys.insert(scopedKey(scope, other.targetObject))
        }
        return keys
    }

    /// Inside a closure handed to `completion:` of a call named for an animation
    /// (`UIView.animate(…, completion: { _ in … })`, `UIView.animate(…) { … } completion: { … }`,
    /// an app's `fadeAnimation(…, completion:)`), or trailing such a call. A network call's
    /// completion is not one: there the control waits on something that takes a while.
    static func isInAnimationCompletion(_ assignment: Assignment) -> Bool {
        func isAnimation(_ call: FunctionCallExprSyntax?) -> Bool {
            guard let name = call?.calleeName?.lowercased() else { return false }
            return name.contains("animat") || name.contains("transition") || name.contains("fade")
        }
        var node = Syntax(assignment.node).parent
        while let current = node {
            if let closure = current.as(ClosureExprSyntax.self) {
                if let argument = closure.parent?.as(LabeledExprSyntax.self), argument.label?.text == "completion",
                   isAnimation(argument.parent?.parent?.as(FunctionCallExprSyntax.self)) { return true }
                if let element = closure.parent?.as(MultipleTrailingClosureElementSyntax.self), element.label.text == "completion",
                   isAnimation(element.parent?.parent?.as(FunctionCallExprSyntax.self)) { return true }
                if let call = closure.parent?.as(FunctionCallExprSyntax.self), call.trailingClosure?.id == closure.id, isAnimation(call) {
                    return true
                }
            }
            if [.functionDecl, .initializerDecl, .accessorDecl].contains(current.kind) { return false }
            node = current.parent
        }
        return false
    }

    /// `guard ready else { b.isUserInteractionEnabled = false; return }`: the block that turns
    /// touches off leaves the function (`return`, `throw`) after it, so what follows is another path.
    static func pathEnds(after first: Assignment) -> Bool {
        var item = Syntax(first.node)
        while let parent = item.parent, !parent.is(CodeBlockItemSyntax.self) {
            if [.closureExpr, .functionDecl, .initializerDecl, .accessorDecl].contains(parent.kind) { return false }
            item = parent
        }
        guard let statement = item.parent?.as(CodeBlockItemSyntax.self), let list = statement.parent?.as(CodeBlockItemListSyntax.self)
        else { return false }
        return list.contains { $0.position > statement.position && ($0.item.is(ReturnStmtSyntax.self) || $0.item.is(ThrowStmtSyntax.self)) }
    }

    /// `later` comes after `first` in the same function, not in another branch of an `if` or
    /// `switch` that holds both: the function turns touches off and on again in one run.
    static func followsOnTheSamePath(_ later: Assignment, after first: Assignment) -> Bool {
        guard later.node.position > first.node.position, let function = body(around: Syntax(first.node)),
              body(around: Syntax(later.node))?.id == function.id else { return false }
        var ancestors = Set<SyntaxIdentifier>()
        var node = Syntax(first.node).parent
        while let current = node { ancestors.insert(current.id); node = current.parent }
        node = Syntax(later.node).parent
        while let current = node, !ancestors.contains(current.id) { node = current.parent }
        guard let common = node else { return false }
        return ![.ifExpr, .switchExpr, .switchCaseList].contains(common.kind)
    }

    /// `isUserInteractionEnabled = …` written on `self` without `self.`.
    private static func isBareTarget(_ assignment: Assignment) -> Bool {
        assignment.target.as(DeclReferenceExprSyntax.self)?.baseName.text == "isUserInteractionEnabled"
    }

    /// The object and the type the code is in: `cell.acceptButton` in one type is not the
    /// same-named member of another.
    private static func key(_ assignment: Assignment) -> String {
        (Syntax(assignment.node).enclosingTypeDecl?.declaredTypeName ?? "") + "." + assignment.targetObject
    }

    private static func isControl(_ assignment: Assignment, _ file: SourceFile) -> Bool {
        let object = assignment.targetObject
        guard !object.isEmpty else {
            // The type blocking itself: a control class of this file.
            guard let type = Syntax(assignment.node).enclosingTypeDecl?.as(ClassDeclSyntax.self),
                  let superclass = type.inheritanceClause?.inheritedTypes.first?.type.typeName else { return false }
            return isControlType(superclass, file, depth: 0)
        }
        let name = String(object.split(separator: ".").last ?? "")
        for node in file.index.declarations(name, in: nil) {
            // A lowercase callee (`makeButton()`) says nothing of the type.
            guard let binding = node.as(PatternBindingSyntax.self), let type = binding.writtenTypeName,
                  binding.typeAnnotation != nil || type.first?.isUppercase == true else { continue }
            return isControlType(type, file, depth: 0)
        }
        return controlNameSuffixes.contains { name.hasSuffix($0) }
    }

    /// A UIKit control, a class of this file that inherits one, or an app class whose name
    /// says it is a button or a control (declared elsewhere).
    private static func isControlType(_ type: String, _ file: SourceFile, depth: Int) -> Bool {
        if controlTypes.contains(type) { return true }
        if let declaration = file.index.typeDeclarations.first(where: { $0.declaredTypeName == type }) {
            guard depth < 8, let superclass = declaration.as(ClassDeclSyntax.self)?.inheritanceClause?.inheritedTypes.first?.type.typeName
            else { return false }
            return isControlType(superclass, file, depth: depth + 1)
        }
        return !type.hasPrefix("UI") && !type.hasPrefix("NS") && (type.hasSuffix("Button") || type.hasSuffix("Control"))
    }
}
