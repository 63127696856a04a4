import AuditModel
import SwiftSyntax

/// `view.accessibilityTraits = .button`: replaces every trait the element already had instead of
/// adding one.
struct AccessibilityTraitsAssignedRule: SourceRule {
    let description = RuleDescription(
        id: "accessibility-traits-assigned",
        title: "Accessibility traits overwritten by direct assignment",
        platforms: PlatformSet([.iOS, .tvOS, .visionOS]), // UIAccessibility traits on UIKit views
        kind: .recommendation, certainty: .review,
        rationale: """
            `accessibilityTraits` is a set, and UIKit keeps traits in it for you: a `UIButton` \
            has `.button`, a disabled control `.notEnabled`, a selected cell `.selected`, a \
            label `.staticText`. Assigning a new value throws those away, so a button made a \
            header stops being a button and a disabled control is announced as usable. \
            Inserting and removing single traits keeps them. Assignments whose right-hand side \
            starts from the current traits (`x.accessibilityTraits.union(.button)`, \
            `super.accessibilityTraits.union(…)`, or a value built from them) are not reported, \
            nor is clearing with `.none`/`[]` (a deliberate reset that no insert can express), \
            nor assignment to a freshly created `UIAccessibilityElement`, which has no traits to \
            lose. An `override var accessibilityTraits` getter is not reported: it owns the whole \
            set by design.
            """,
        citations: [
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Every custom control MUST have correct traits via .accessibilityAddTraits (never direct assignment)."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Direct trait assignment: UIKit trait mutation or incorrect SwiftUI trait APIs can overwrite existing behavior. In SwiftUI, use .accessibilityAddTraits(.isButton)."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Use .insert() and .remove() for trait modification (not direct assignment)."),
        ],
        fix: """
            `view.accessibilityTraits.insert(.button)` and `.remove(.selected)`, or \
            `view.accessibilityTraits.formUnion([.button, .selected])`; in an override, \
            `super.accessibilityTraits.union(.button)`.
            """,
        limitations: """
            Whether the element had traits worth keeping is not known statically: assigning to a \
            plain `UIView` subclass, whose traits start empty, is reported like assigning to a \
            `UIButton`. A value built in another function and passed in is reported; one bound \
            with `let`/`var` in this file from the current traits is recognised.
            """,
        triggering: [
            RuleExample("""
                import UIKit
                final class SettingsViewController: UIViewController {
                    @IBOutlet var titleButton: UIButton!
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        ↓titleButton.accessibilityTraits = .header
                        ↓self.view.accessibilityTraits = [.button, .selected]
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ChipView: UIControl {
                    override var isSelected: Bool {
                        didSet { ↓accessibilityTraits = isSelected ? [.button, .selected] : .button }
                    }
                    func configure(cell: UITableViewCell) {
                        ↓cell.accessibilityTraits = UIAccessibilityTraits.button.union(.selected)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func style(_ label: UILabel?) {
                    ↓label?.accessibilityTraits = UIAccessibilityTraits(rawValue: UIAccessibilityTraits.header.rawValue)
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import UIKit
                final class SettingsViewController: UIViewController {
                    @IBOutlet var titleButton: UIButton!
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        titleButton.accessibilityTraits.insert(.header)
                        view.accessibilityTraits.remove(.staticText)
                        view.accessibilityTraits.formUnion([.button, .selected])
                        titleButton.accessibilityTraits = titleButton.accessibilityTraits.union(.header)
                        var traits = view.accessibilityTraits
                        traits.insert(.button)
                        view.accessibilityTraits = traits
                        view.accessibilityTraits = .none
                        titleButton.accessibilityTraits = []
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class StarView: UIView {
                    override var accessibilityTraits: UIAccessibilityTraits {
                        get { super.accessibilityTraits.union(.button) }
                        set { super.accessibilityTraits = newValue }
                    }
                }
                final class ChartView: UIView {
                    func makeElement() -> UIAccessibilityElement {
                        let bar = UIAccessibilityElement(accessibilityContainer: self)
                        bar.accessibilityTraits = .button
                        return bar
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Header: View {
                    var body: some View {
                        Text("Settings").accessibilityAddTraits(.isHeader)
                    }
                }
                """),
        ],
        corrections: [
            CorrectionExample("""
                import UIKit
                final class SettingsViewController: UIViewController {
                    @IBOutlet var titleButton: UIButton!
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        titleButton.accessibilityTraits = .header
                        self.view.accessibilityTraits = [.button, UIAccessibilityTraits.selected]
                    }
                }
                """, """
                import UIKit
                final class SettingsViewController: UIViewController {
                    @IBOutlet var titleButton: UIButton!
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        titleButton.accessibilityTraits.insert(.header)
                        self.view.accessibilityTraits.formUnion([.button, UIAccessibilityTraits.selected])
                    }
                }
                """),
            // A value that is computed or chosen: which traits to keep is a person's call.
            .suggestionOnly("""
                import UIKit
                final class ChipView: UIControl {
                    override var isSelected: Bool {
                        didSet { accessibilityTraits = isSelected ? [.button, .selected] : .button }
                    }
                    func configure(cell: UITableViewCell) {
                        cell.accessibilityTraits = UIAccessibilityTraits.button.union(.selected)
                    }
                }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for assignment in file.index.assignments where assignment.targetProperty == "accessibilityTraits" {
            if Self.startsFromCurrentTraits(assignment.value, file) || Self.clears(assignment.value) { continue }
            if Self.insideTraitsOverride(assignment.node) { continue }
            let object = assignment.targetObject
            if !object.isEmpty, Self.isFreshAccessibilityElement(object, file) { continue }
            let target = object.isEmpty ? "the view" : "`\(object)`"
            sink.report(assignment.node, """
                `\(assignment.target.sourceText) = \(assignment.valueText)` replaces every trait \(target) \
                already has (such as `.button`, `.notEnabled` or `.selected` that UIKit manages); insert or remove \
                the trait instead
                """, correction: Self.correction(assignment))
        }
    }

    /// `x.accessibilityTraits = .button` → `x.accessibilityTraits.insert(.button)`, and an array of
    /// traits → `formUnion([…])`: for a statement of its own whose value names traits directly
    /// (`.header`, `UIAccessibilityTraits.header`), nothing computed.
    private static func correction(_ assignment: Assignment) -> SourceCorrection? {
        guard assignment.node.parent?.is(CodeBlockItemSyntax.self) == true, assignment.value.count == 1 else { return nil }
        let value = assignment.value[0]
        let method: String
        if let array = value.as(ArrayExprSyntax.self), !array.elements.isEmpty, array.elements.allSatisfy({ namesTrait($0.expression) }) {
            method = "formUnion"
        } else if namesTrait(value) {
            method = "insert"
        } else {
            return nil
        }
        let replacement = "\(assignment.target.sourceText).\(method)(\(value.sourceText))"
        return SourceCorrection("Keep the traits the view has: `\(replacement)`", replacing: assignment.node, with: replacement)
    }

    /// `.button` or `UIAccessibilityTraits.button`.
    private static func namesTrait(_ expression: ExprSyntax) -> Bool {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil else { return false }
        return member.base == nil || member.base?.sourceText == "UIAccessibilityTraits"
    }

    /// The value mentions `accessibilityTraits` itself, directly or through a local it was
    /// copied into (`var traits = view.accessibilityTraits; traits.insert(…); view.accessibilityTraits = traits`).
    private static func startsFromCurrentTraits(_ value: [ExprSyntax], _ file: SourceFile) -> Bool {
        func mentions(_ node: some SyntaxProtocol) -> Bool {
            node.tokens(viewMode: .sourceAccurate).contains { $0.text == "accessibilityTraits" }
        }
        if value.contains(where: { mentions($0) }) { return true }
        guard value.count == 1, let name = value[0].as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        return file.index.bindings[name]?.contains(where: { mentions($0) }) == true
    }

    /// `= .none`, `= []`, `= UIAccessibilityTraits.none`.
    private static func clears(_ value: [ExprSyntax]) -> Bool {
        guard value.count == 1 else { return false }
        if let array = value[0].as(ArrayExprSyntax.self) { return array.elements.isEmpty }
        return value[0].as(MemberAccessExprSyntax.self)?.declName.baseName.text == "none"
    }

    /// The setter (or observer) of `override var accessibilityTraits { … }`.
    private static func insideTraitsOverride(_ node: some SyntaxProtocol) -> Bool {
        guard let binding = node.ancestor(PatternBindingSyntax.self) else { return false }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "accessibilityTraits"
    }

    /// `let bar = UIAccessibilityElement(accessibilityContainer: self)`: starts with no traits.
    private static func isFreshAccessibilityElement(_ name: String, _ file: SourceFile) -> Bool {
        file.index.bindings[name]?.contains { value in
            guard let callee = value.as(FunctionCallExprSyntax.self)?.calleeName else { return false }
            return callee.hasSuffix("AccessibilityElement")
        } == true
    }
}
