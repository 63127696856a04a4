import AuditModel
import SwiftSyntax

/// `label.font = UIFont.preferredFont(forTextStyle:)` (or a `UIFontMetrics`-scaled font) with no
/// `label.adjustsFontForContentSizeCategory = true`: right size at launch, frozen afterwards.
struct FontNotAdjustingToContentSizeRule: SourceRule {
    let description = RuleDescription(
        id: "font-not-adjusting-to-content-size",
        title: "UIKit text style font never told to follow text-size changes",
        platforms: PlatformSet([.iOS, .tvOS, .visionOS]), // UILabel and friends: not on watchOS
        kind: .recommendation, certainty: .review,
        rationale: """
            A UIKit label, text field or text view given a text-style font \
            (`UIFont.preferredFont(forTextStyle:)` or `UIFontMetrics(…).scaledFont(for:)`) only \
            tracks the person's text size if `adjustsFontForContentSizeCategory` is also true. \
            Without it the text is right when the view is built and then stays that size when \
            people change the text size in Settings or Control Center. SwiftUI text is not \
            affected; macOS has no Dynamic Type.
            """,
        citations: [
            Citation("UIKit › Scaling fonts automatically",
                     "the font will initially be the right size, but it won't respond to text-size changes the user makes in Settings or Control Center."),
            Citation("UIKit › Scaling fonts automatically",
                     "To add support for Dynamic Type in your app, you use text styles."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Dynamic Type MUST be supported everywhere (system fonts, @ScaledMetric, adaptive layouts)."),
        ],
        fix: """
            Set `adjustsFontForContentSizeCategory = true` on the same object, next to the font: \
            `label.font = UIFont.preferredFont(forTextStyle: .body)` then \
            `label.adjustsFontForContentSizeCategory = true` (for a button, on `button.titleLabel`). \
            Pair it with `numberOfLines = 0` so the larger text wraps instead of truncating.
            """,
        limitations: """
            The object is matched by the name it is written with: the flag must be set on the same \
            name in the same type (any extension of it in this file), or in the same function for a \
            local variable or parameter; `[a, b].forEach { $0.adjustsFontForContentSizeCategory = true }` \
            and `for label in [a, b]` loops are followed. A flag set in Interface Builder, in another \
            file, through a helper method, or by overriding the property is not seen, and the \
            finding is then a false positive to suppress. A flag assigned from a variable counts as set.
            """,
        triggering: [
            // The app's own scaling helpers, named as UIFontMetrics' and scaled as they are.
            RuleExample("""
                import UIKit
                final class QuestHeader: UIView {
                    let titleLabel: UILabel = {
                        let view = UILabel()
                        ↓view.font = UIFontMetrics.default.scaledSystemFont(ofSize: 15, ofWeight: .semibold)
                        return view
                    }()
                    let detailLabel = UILabel()
                    func configure() {
                        ↓detailLabel.font = UIFont.scaledSystemFont(ofSize: 13)
                        addSubview(titleLabel)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ProfileViewController: UIViewController {
                    let nameLabel = UILabel()
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        ↓nameLabel.font = UIFont.preferredFont(forTextStyle: .headline)
                        nameLabel.numberOfLines = 0
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func makeCaption() -> UILabel {
                    let caption = UILabel()
                    let title = UILabel()
                    ↓caption.font = .preferredFont(forTextStyle: .caption1)
                    title.font = .preferredFont(forTextStyle: .title1)
                    title.adjustsFontForContentSizeCategory = true
                    return caption
                }
                """),
            RuleExample("""
                import UIKit
                func style(_ field: UITextField) {
                    let base = UIFont(name: "Avenir-Book", size: 17) ?? .systemFont(ofSize: 17)
                    ↓field.font = UIFontMetrics(forTextStyle: .body).scaledFont(for: base)
                    field.adjustsFontForContentSizeCategory = false
                }
                """),
            RuleExample("""
                import UIKit
                final class BuyButtonCell: UITableViewCell {
                    let buyButton = UIButton(type: .system)
                    func configure() {
                        ↓buyButton.titleLabel?.font = UIFont.preferredFont(forTextStyle: .callout)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class BodyLabel: UILabel {
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        ↓font = UIFont.preferredFont(forTextStyle: .body)
                        numberOfLines = 0
                    }
                    required init?(coder: NSCoder) { nil }
                }
                """),
        ],
        nonTriggering: [
            // List content configurations adjust to the content size category by default.
            RuleExample("""
                import UIKit
                func configure(_ cell: UICollectionViewListCell) {
                    var content = cell.defaultContentConfiguration()
                    content.textProperties.font = .preferredFont(forTextStyle: .headline)
                    content.secondaryTextProperties.font = UIFont.preferredFont(forTextStyle: .footnote)
                    cell.contentConfiguration = content
                }
                """),
            RuleExample("""
                import UIKit
                final class ProfileViewController: UIViewController {
                    let nameLabel = UILabel()
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        nameLabel.font = UIFont.preferredFont(forTextStyle: .headline)
                        nameLabel.adjustsFontForContentSizeCategory = true
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class Header: UIView {
                    private let titleLabel = UILabel()
                    func setUp() { titleLabel.font = .preferredFont(forTextStyle: .title2) }
                }
                extension Header {
                    func enableDynamicType() { titleLabel.adjustsFontForContentSizeCategory = true }
                }
                """),
            RuleExample("""
                import UIKit
                final class BodyLabel: UILabel {
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        font = UIFont.preferredFont(forTextStyle: .body)
                        adjustsFontForContentSizeCategory = true
                    }
                    required init?(coder: NSCoder) { nil }
                }
                """),
            RuleExample("""
                import UIKit
                func makeLabels() -> [UILabel] {
                    let title = UILabel()
                    let subtitle = UILabel()
                    title.font = .preferredFont(forTextStyle: .title1)
                    subtitle.font = UIFontMetrics(forTextStyle: .subheadline).scaledFont(for: .systemFont(ofSize: 15))
                    [title, subtitle].forEach { $0.adjustsFontForContentSizeCategory = true }
                    return [title, subtitle]
                }
                """),
            RuleExample("""
                import UIKit
                func style(_ button: UIButton) {
                    button.titleLabel?.font = UIFont.preferredFont(forTextStyle: .body)
                    button.titleLabel?.adjustsFontForContentSizeCategory = true
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hello").font(.headline) }
                }
                """),
            RuleExample("""
                import UIKit
                func style(_ label: UILabel) {
                    // A fixed font is fixed-font-size's concern, not this rule's.
                    label.font = UIFont.systemFont(ofSize: 17)
                }
                """),
            RuleExample("""
                import AppKit
                func style(_ field: NSTextField) {
                    field.font = NSFont.preferredFont(forTextStyle: .body)
                }
                """),
        ],
        corrections: [
            CorrectionExample("""
                import UIKit
                final class OrderHeader: UIView {
                    private let totalLabel = UILabel()
                    func setUp() {
                        totalLabel.font = UIFont.preferredFont(forTextStyle: .title2)
                        addSubview(totalLabel)
                    }
                    func style(_ button: UIButton, _ notes: UITextView) {
                        button.titleLabel?.font = .preferredFont(forTextStyle: .callout)
                        notes.font = UIFontMetrics(forTextStyle: .body).scaledFont(for: .systemFont(ofSize: 17))
                    }
                }
                """, """
                import UIKit
                final class OrderHeader: UIView {
                    private let totalLabel = UILabel()
                    func setUp() {
                        totalLabel.font = UIFont.preferredFont(forTextStyle: .title2)
                        totalLabel.adjustsFontForContentSizeCategory = true
                        addSubview(totalLabel)
                    }
                    func style(_ button: UIButton, _ notes: UITextView) {
                        button.titleLabel?.font = .preferredFont(forTextStyle: .callout)
                        button.titleLabel?.adjustsFontForContentSizeCategory = true
                        notes.font = UIFontMetrics(forTextStyle: .body).scaledFont(for: .systemFont(ofSize: 17))
                        notes.adjustsFontForContentSizeCategory = true
                    }
                }
                """),
            // The view's own font, in a subclass of a text field.
            CorrectionExample("""
                import UIKit
                final class SearchField: UITextField {
                    func applyStyle() {
                        font = UIFont.preferredFont(forTextStyle: .callout)
                        clearButtonMode = .whileEditing
                    }
                }
                """, """
                import UIKit
                final class SearchField: UITextField {
                    func applyStyle() {
                        font = UIFont.preferredFont(forTextStyle: .callout)
                        adjustsFontForContentSizeCategory = true
                        clearButtonMode = .whileEditing
                    }
                }
                """),
            // Set to false on purpose; a view whose type this file does not spell; a statement sharing its line.
            .suggestionOnly("""
                import UIKit
                func style(_ field: UITextField, _ cell: ProfileCell) {
                    field.font = UIFont.preferredFont(forTextStyle: .body)
                    field.adjustsFontForContentSizeCategory = false
                    cell.badge.font = .preferredFont(forTextStyle: .caption1)
                }
                func caption(_ label: UILabel) { label.font = .preferredFont(forTextStyle: .caption2) }
                """),
        ],
        concernsDynamicType: true
    )

    private static let flagName = FontCorrections.flag

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let flags = file.index.assignments.filter { $0.targetProperty == Self.flagName }.flatMap { flagTargets($0, file) }
        for assignment in file.index.assignments where assignment.targetProperty == "font" {
            // `UIListContentConfiguration.TextProperties` adjusts to the content size category by
            // default (its own `adjustsFontForContentSizeCategory` starts true).
            if assignment.targetObject.hasSuffix("textProperties") || assignment.targetObject.hasSuffix("TextProperties") {
                continue
            }
            guard let source = Self.scalingFont(assignment, file) else { continue }
            let object = assignment.targetObject
            if object.isEmpty {
                // A bare `font = …` is a text view's own font only inside a text view subclass.
                guard let type = assignment.node.enclosingTypeDecl,
                      type.inheritedTypeNames?.contains(where: FontCorrections.textViewClasses.contains) == true else { continue }
            }
            let scope = Self.scope(of: object, at: assignment.node, file)
            let matching = flags.filter { $0.object == object && scope.accepts($0.scope) }
            if matching.contains(where: { !$0.isFalse }) { continue }
            let flagText = object.isEmpty ? Self.flagName : "\(object).\(Self.flagName)"
            let state = matching.isEmpty ? "is never set to true" : "is set to false"
            // A flag set to false is a decision to undo by hand; a view of a type this file does not
            // spell may have no such flag.
            let insertion = matching.isEmpty && FontCorrections.setsTextViewFont(assignment, file)
                ? FontCorrections.flagInsertion(after: assignment) : nil
            sink.report(assignment.node, """
                `\(assignment.target.sourceText)` gets \(source) but `\(flagText)` \(state) in \(scope.name): \
                the text starts at the person's text size and then won't follow changes made in Settings or Control Center
                """, correction: insertion.map { SourceCorrection("Set `\(flagText) = true` after the font", [$0]) })
        }
    }

    // MARK: - Which font values scale

    /// A short description of the text-style font assigned, or `nil` for anything else.
    private static func scalingFont(_ assignment: Assignment, _ file: SourceFile) -> String? {
        guard assignment.value.count == 1, let value = assignment.value.first else { return nil }
        if let call = value.as(FunctionCallExprSyntax.self), isScaling(call) {
            return "`\(call.normalizedText)`"
        }
        if let reference = value.as(DeclReferenceExprSyntax.self),
           let bound = file.index.bindings[reference.baseName.text], bound.count == 1,
           let call = bound.first?.as(FunctionCallExprSyntax.self), isScaling(call) {
            return "`\(reference.baseName.text)` (`\(call.normalizedText)`)"
        }
        return nil
    }

    static func isScaling(_ call: FunctionCallExprSyntax) -> Bool {
        let base = call.calleeBaseText
        if call.calleeName == "preferredFont", call.argument("forTextStyle") != nil {
            return base == nil || base == "UIFont"
        }
        if call.calleeName == "scaledFont" && call.argument("for") != nil { return true }
        // An app's own helper on the metrics (`UIFontMetrics.default.scaledSystemFont(ofSize:)`)
        // or on the font (`UIFont.scaledSystemFont(ofSize:)`, an Objective-C category): scaled
        // by name, as its definition (often in another file or language) does.
        guard let name = call.calleeName, name.hasPrefix("scaled"), name.hasSuffix("Font"),
              let base, base.hasPrefix("UIFontMetrics") || base == "UIFont" else { return false }
        return true
    }

    // MARK: - Scopes

    /// Where a name refers to one object: a function (locals, parameters), a type (its
    /// members, across its extensions in the file), or the file.
    private enum Scope: Equatable {
        case function(SyntaxIdentifier, shadowsProperty: String?, type: String?)
        case type(String)
        case file

        var name: String {
            switch self {
            case .function: "this function"
            case .type(let name): "`\(name)`"
            case .file: "this file"
            }
        }

        func accepts(_ other: Scope) -> Bool {
            if self == other { return true }
            // `lazy var titleLabel: UILabel = { let titleLabel = UILabel() … }()` configures the
            // property itself, which the type may finish configuring elsewhere.
            if case .function(_, _?, let type?) = self, case .type(let otherType) = other {
                return type == otherType
            }
            return false
        }
    }

    private struct Flag {
        let object: String
        let scope: Scope
        let isFalse: Bool
    }

    private static func scope(of object: String, at node: some SyntaxProtocol, _ file: SourceFile) -> Scope {
        let root = object.split(separator: ".").first.map(String.init) ?? ""
        let typeName = node.enclosingTypeDecl?.declaredTypeName
        if !root.isEmpty, let owner = node.enclosingCodeBlockOwner, declares(owner, root, file) {
            var shadowed: String?
            if let binding = owner.as(PatternBindingSyntax.self),
               binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == root {
                shadowed = root
            }
            return .function(owner.id, shadowsProperty: shadowed, type: typeName)
        }
        if let typeName { return .type(typeName) }
        return .file
    }

    /// Whether `name` is a parameter of `owner` or a variable bound inside it.
    private static func declares(_ owner: Syntax, _ name: String, _ file: SourceFile) -> Bool {
        var parameters: FunctionParameterListSyntax?
        if let function = owner.as(FunctionDeclSyntax.self) { parameters = function.signature.parameterClause.parameters }
        if let initializer = owner.as(InitializerDeclSyntax.self) { parameters = initializer.signature.parameterClause.parameters }
        if let parameters, parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) { return true }
        let body: Syntax
        if let binding = owner.as(PatternBindingSyntax.self), let initializer = binding.initializer {
            body = Syntax(initializer.value)
        } else {
            body = owner
        }
        return (file.index.bindings[name] ?? []).contains { body.spans($0) }
    }

    /// The objects a flag assignment sets: its own target, or each element of the array a
    /// `forEach` / `for … in` runs over.
    private func flagTargets(_ assignment: Assignment, _ file: SourceFile) -> [Flag] {
        let isFalse = assignment.value.count == 1 && assignment.value.first?.booleanValue == false
        let object = assignment.targetObject
        if let elements = Self.loopElements(for: object, at: assignment.node) {
            return elements.map { element in
                Flag(object: element, scope: Self.scope(of: element, at: assignment.node, file), isFalse: isFalse)
            }
        }
        return [Flag(object: object, scope: Self.scope(of: object, at: assignment.node, file), isFalse: isFalse)]
    }

    private static func loopElements(for object: String, at node: some SyntaxProtocol) -> [String]? {
        guard !object.isEmpty, !object.contains(".") else { return nil }
        var current = node.parent
        while let ancestor = current, !ancestor.is(FunctionDeclSyntax.self) {
            if let loop = ancestor.as(ForStmtSyntax.self),
               loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == object,
               let array = loop.sequence.as(ArrayExprSyntax.self) {
                return array.elements.map { Assignment.objectName($0.expression) }
            }
            if let closure = ancestor.as(ClosureExprSyntax.self),
               let call = FunctionCallExprSyntax.owner(of: closure), call.calleeName == "forEach",
               let array = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(ArrayExprSyntax.self) {
                let parameter = closure.signature?.parameterClause.flatMap { clause -> String? in
                    if let shorthand = clause.as(ClosureShorthandParameterListSyntax.self) { return shorthand.first?.name.text }
                    if let full = clause.as(ClosureParameterClauseSyntax.self) { return full.parameters.first?.firstName.text }
                    return nil
                } ?? "$0"
                if parameter == object { return array.elements.map { Assignment.objectName($0.expression) } }
            }
            current = ancestor.parent
        }
        return nil
    }
}
