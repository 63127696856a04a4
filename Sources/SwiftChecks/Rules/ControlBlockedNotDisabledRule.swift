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
        var byObject: [String: [Assignment]] = [:]
        for assignment in blocking { byObject[Self.key(assignment), default: []].append(assignment) }
        for assignment in blocking {
            guard let value = assignment.value.first, assignment.value.count == 1, value.booleanValue != true else { continue }
            // Off once and never on again is a decision about the view, not a state it passes through.
            // Touches turned back on only when an animation ends are a pause while it plays,
            // not a state the control is in.
            // So are touches turned back on further down the same code path.
            let toggled = value.booleanValue == nil
                || byObject[Self.key(assignment)]?.contains { other in
                    other.value.first?.booleanValue != false && !Self.isInAnimationCompletion(other)
                        && !Self.followsOnTheSamePath(other, after: assignment)
                } == true
            guard toggled, Self.isControl(assignment, file) else { continue }
            if Self.otherwiseStated(assignment, file) { continue }
            let object = assignment.targetObject.isEmpty ? "self" : assignment.targetObject
            sink.report(assignment.node, """
                `\(object).isUserInteractionEnabled = \(value.sourceText)` stops touches but leaves the control enabled: \
                VoiceOver still reads it as active (never "dimmed") and Voice Control still offers it; if it is \
                unavailable for now, set `isEnabled` instead
                """)
        }
    }

    /// Inside a closure handed to `completion:` (`UIView.animate(…, completion: { _ in … })`,
    /// an app's `fadeIn(completion:)`), or trailing a call named for an animation.
    static func isInAnimationCompletion(_ assignment: Assignment) -> Bool {
        var node = Syntax(assignment.node).parent
        while let current = node {
            if let closure = current.as(ClosureExprSyntax.self) {
                if let argument = closure.parent?.as(LabeledExprSyntax.self), argument.label?.text == "completion" { return true }
                if let call = closure.parent?.as(FunctionCallExprSyntax.self), call.trailingClosure?.id == closure.id,
                   let name = call.calleeName?.lowercased(), name.contains("animat") || name.contains("transition") {
                    return true
                }
            }
            if [.functionDecl, .initializerDecl, .accessorDecl].contains(current.kind) { return false }
            node = current.parent
        }
        return false
    }

    /// `later` comes after `first` in the same function, not in another branch of an `if` or
    /// `switch` that holds both: the function turns touches off and on again in one run.
    static func followsOnTheSamePath(_ later: Assignment, after first: Assignment) -> Bool {
        // A closure may run later (a `Task`, a network callback): it is a code path of its own.
        func body(around node: Syntax) -> Syntax? {
            var current = node.parent
            while let candidate = current, ![.closureExpr, .functionDecl, .initializerDecl, .accessorDecl].contains(candidate.kind) {
                current = candidate.parent
            }
            return current
        }
        guard later.node.position > first.node.position, let function = body(around: Syntax(first.node)),
              body(around: Syntax(later.node))?.id == function.id else { return false }
        var ancestors = Set<SyntaxIdentifier>()
        var node = Syntax(first.node).parent
        while let current = node { ancestors.insert(current.id); node = current.parent }
        node = Syntax(later.node).parent
        while let current = node, !ancestors.contains(current.id) { node = current.parent }
        guard let common = node else { return false }
        return common.kind != .ifExpr && common.kind != .switchExpr
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
            guard let binding = node.as(PatternBindingSyntax.self) else { continue }
            if let type = binding.typeAnnotation?.type.sourceText.trimmingCharacters(in: ["!", "?"]) {
                return isControlType(type, file, depth: 0)
            }
            if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), let callee = call.calleeName,
               callee.first?.isUppercase == true {
                return isControlType(callee, file, depth: 0)
            }
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

    /// The same function (or closure) also sets the control's enabled state, hides it, or
    /// sets what assistive technologies are told about it.
    private static func otherwiseStated(_ assignment: Assignment, _ file: SourceFile) -> Bool {
        var scope: Syntax? = Syntax(assignment.node).parent
        while let current = scope, ![.closureExpr, .functionDecl, .initializerDecl, .accessorDecl].contains(current.kind) {
            scope = current.parent
        }
        guard let scope else { return false }
        let range = scope.position.utf8Offset..<scope.endPosition.utf8Offset
        return file.index.assignments.contains { other in
            guard range.contains(other.node.position.utf8Offset), other.targetObject == assignment.targetObject else { return false }
            if let property = other.targetProperty { return statedBy.contains(property) }
            return other.target.as(DeclReferenceExprSyntax.self).map { statedBy.contains($0.baseName.text) } ?? false
        }
    }
}
