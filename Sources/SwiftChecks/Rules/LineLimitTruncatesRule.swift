import AuditModel
import SwiftSyntax

/// `.lineLimit(1)` on body-sized text in a fixed-width container, with no way out at large
/// sizes: no `.minimumScaleFactor`, no accessibility-size layout.
struct LineLimitTruncatesRule: SourceRule {
    let description = RuleDescription(
        id: "line-limit-truncates",
        title: "One-line text in a fixed width truncates at large text sizes",
        category: .layout,
        platforms: PlatformSet([.iOS, .tvOS, .visionOS, .watchOS]),
        // Its one finding on the seed-15 to -17 samples was wrong (a picker label shown only on
        // Mac Catalyst, where text does not grow): a person judges each until it is measured.
        kind: .recommendation, certainty: .review,
        rationale: """
            Text limited to one line inside a frame of fixed width has nowhere to go when it grows: \
            at accessibility sizes only the first few words remain. Apple asks apps to show as much \
            text at the largest sizes as at standard ones. Not flagged when the text may shrink \
            (`.minimumScaleFactor`), or when the view switches layout at accessibility sizes \
            (`dynamicTypeSize.isAccessibilitySize`, `ViewThatFits`, `AnyLayout`). Caption and \
            footnote text is left alone: only body-sized and larger styles are checked. In UIKit, \
            a label that follows the text size (`adjustsFontForContentSizeCategory = true`, or a \
            text-style or scaled font) but keeps one or two lines (`numberOfLines` left at 1 or set \
            to 1 or 2) truncates the same way; judged only where the file gives it text that can be \
            long (not a short literal or a number), its font is not capped (`maximumPointSize:`), it \
            may not shrink (`adjustsFontSizeToFitWidth`), and it is not an outlet whose document \
            sets its lines.
            """,
        citations: [
            Citation("WWDC24 › Get started with Dynamic Type",
                     "large text may become truncated, if it is unable to display on enough lines of text."),
            Citation("HIG › Typography",
                     "aim to display as much useful text at the largest accessibility font size as you do at the largest standard font size."),
        ],
        fix: """
            Remove the line limit or the fixed width, add `.minimumScaleFactor(…)` for short labels \
            that must stay on one line, or switch to a vertical layout when \
            `dynamicTypeSize.isAccessibilitySize`. In UIKit, set `numberOfLines = 0` (Apple: \
            "Consider setting number of lines on the label to zero").
            """,
        limitations: """
            Widths given by variables are not known. A font set on an enclosing view is not \
            followed (the text is taken as body). Text that is always short (a number) is still reported.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Text("Arrives today by 6 PM")↓.lineLimit(1).frame(width: 160)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Card: View {
                    var body: some View {
                        VStack {
                            Text("Out for delivery").font(.headline)↓.lineLimit(1)
                        }
                        .frame(maxWidth: 200)
                    }
                }
                """),
            // A UIKit label that follows the text size on one line (by default, and set so), and
            // one that starts at the text size on two.
            RuleExample("""
                import UIKit
                final class OrderCell: UITableViewCell {
                    let titleLabel = UILabel()
                    let statusLabel = UILabel()
                    func configure(_ order: Order) {
                        titleLabel.font = .preferredFont(forTextStyle: .body)
                        ↓titleLabel.adjustsFontForContentSizeCategory = true
                        titleLabel.text = order.title
                        statusLabel.font = .preferredFont(forTextStyle: .headline)
                        statusLabel.adjustsFontForContentSizeCategory = true
                        ↓statusLabel.numberOfLines = 1
                        statusLabel.text = NSLocalizedString("order.status.delayed", comment: "")
                        detailLabel.text = order.summary
                    }
                    let detailLabel: UILabel = {
                        let view = UILabel()
                        view.font = UIFontMetrics.default.scaledFont(for: .systemFont(ofSize: 15))
                        ↓view.numberOfLines = 2
                        return view
                    }()
                    func layout() { contentView.addSubview(detailLabel) }
                }
                """, platforms: PlatformSet(.iOS)),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Text("Arrives today").lineLimit(1).minimumScaleFactor(0.7).frame(width: 160)
                        Text("Arrives today").lineLimit(1).frame(maxWidth: .infinity)
                        Text("12:30").font(.caption).lineLimit(1).frame(width: 60)
                        Text("Arrives today").lineLimit(3).frame(width: 160)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    @Environment(\\.dynamicTypeSize) private var size
                    var body: some View {
                        let layout = size.isAccessibilitySize ? AnyLayout(VStackLayout()) : AnyLayout(HStackLayout())
                        layout { Text("Arrives today").lineLimit(1).frame(width: 160) }
                    }
                }
                """),
            // Labels that wrap, may shrink, are caption-sized, or do not follow the text size.
            RuleExample("""
                import UIKit
                final class OrderCell: UITableViewCell {
                    let titleLabel = UILabel()
                    let priceLabel = UILabel()
                    let dateLabel = UILabel()
                    let noteLabel = UILabel()
                    let field = UITextField()
                    func configure() {
                        titleLabel.font = .preferredFont(forTextStyle: .body)
                        titleLabel.adjustsFontForContentSizeCategory = true
                        titleLabel.numberOfLines = 0
                        priceLabel.adjustsFontForContentSizeCategory = true
                        priceLabel.adjustsFontSizeToFitWidth = true
                        dateLabel.font = .preferredFont(forTextStyle: .caption1)
                        dateLabel.adjustsFontForContentSizeCategory = true
                        noteLabel.numberOfLines = 1
                        field.adjustsFontForContentSizeCategory = true
                        summaryLabel.font = .preferredFont(forTextStyle: .body)
                        summaryLabel.text = order.summary
                        countLabel.font = .preferredFont(forTextStyle: .body)
                        countLabel.adjustsFontForContentSizeCategory = true
                        countLabel.text = "\\(order.count)"
                        bylineLabel.font = UIFontMetrics(forTextStyle: .body).scaledFont(for: .systemFont(ofSize: 15), maximumPointSize: 20)
                        bylineLabel.text = order.author
                    }
                    let countLabel = UILabel()
                    let bylineLabel = UILabel()
                    let order = Order()
                    @IBOutlet private weak var summaryLabel: UILabel!
                }
                // Another type's label of the same name, a label its closure lets wrap, and a
                // subclass that wraps itself.
                final class ArticleHeader: UIView {
                    let titleLabel = UILabel()
                    let detailLabel: UILabel = {
                        let view = UILabel()
                        view.numberOfLines = 0
                        return view
                    }()
                    let bylineLabel = WrappingLabel()
                    func configure(_ article: Order) {
                        titleLabel.font = .systemFont(ofSize: 17)
                        titleLabel.numberOfLines = 1
                        titleLabel.text = article.title
                        detailLabel.font = .preferredFont(forTextStyle: .body)
                        detailLabel.adjustsFontForContentSizeCategory = true
                        detailLabel.text = article.summary
                        bylineLabel.font = .preferredFont(forTextStyle: .body)
                        bylineLabel.text = article.author
                    }
                }
                final class WrappingLabel: UILabel {
                    override init(frame: CGRect) { super.init(frame: frame); numberOfLines = 0 }
                    required init?(coder: NSCoder) { fatalError() }
                }
                """, platforms: PlatformSet(.iOS)),
        ],
        concernsDynamicType: true
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkUIKitLabels(file, &sink)
        guard let body = file.reference.iosTextStyleSizes["Large (default)"]?["body"] else { return }
        for call in file.index.calls(named: "lineLimit") where call.isMemberCallWithBase {
            guard call.firstUnlabeledArgument?.numberValue == 1,
                  let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
            let chain = ModifierChain(containing: ExprSyntax(call))
            guard let root = chain.root.as(FunctionCallExprSyntax.self), root.calledExpression.is(DeclReferenceExprSyntax.self),
                  let name = root.calleeName, name == "Text" || name == "Label", !chain.has("minimumScaleFactor") else { continue }
            let font = SwiftUITextStyle.font(in: chain)
            let style = font.map { SwiftUITextStyle.style(of: $0) } ?? ("body", 1)
            // A custom font's own size is its size at the default setting.
            guard let style, let size = file.reference.iosTextStyleSizes["Large (default)"]?[style.name],
                  (style.scale == 1 ? size : style.scale) >= body else { continue }
            guard let width = Self.fixedWidth(of: chain) ?? call.enclosingViewCalls.lazy
                    .compactMap({ Self.fixedWidth(of: ModifierChain(containing: ExprSyntax($0))) }).first else { continue }
            if file.scopeReads(["isAccessibilitySize", "ViewThatFits", "AnyLayout"], around: call) { continue }
            sink.report(call, at: member.period,
                        "`.lineLimit(1)` on \(style.name) text inside a \(width.points) pt wide frame, with no `.minimumScaleFactor` or accessibility-size layout; at large text sizes it is truncated")
        }
    }

    /// One label's assignments: `name` as the message says it, where its declaration is.
    private struct LabelGroup {
        var name: String
        /// Where its declaration is looked for: the closure or function a local label is made
        /// in, the type a member belongs to (nil: the file).
        var scope: Syntax?
        /// The local name inside the property's closure that makes it (`view`), if any.
        var local: (name: String, closure: Syntax)?
        var assignments: [Assignment] = []
    }

    /// UIKit labels that follow the text size on one or two lines: a label of this file (a
    /// `UILabel`, or a subclass declared here that sets no number of lines itself) given a
    /// scaling font or `adjustsFontForContentSizeCategory = true`, no `numberOfLines` other
    /// than 1 or 2, no `adjustsFontSizeToFitWidth = true`, no caption, footnote or capped font,
    /// and some text here that can be long.
    private func checkUIKitLabels(_ file: SourceFile, _ sink: inout FindingSink) {
        // A label made in a closure or function is that scope's; one made in a property's
        // closure (`let detailLabel: UILabel = { let view = UILabel(); …; return view }()`) is
        // the property; any other name is a member of the type the code is in.
        var groups: [String: LabelGroup] = [:]
        for assignment in file.index.assignments where !assignment.targetObject.isEmpty {
            switch assignment.targetProperty {
            case "adjustsFontForContentSizeCategory", "numberOfLines", "adjustsFontSizeToFitWidth", "font", "text", "attributedText": break
            default: continue
            }
            let object = assignment.targetObject
            var scope: Syntax? = Syntax(assignment.node).parent
            while let current = scope, current.kind != .closureExpr, current.kind != .functionDecl, current.kind != .initializerDecl {
                scope = current.parent
            }
            let ownerDecl = Syntax(assignment.node).enclosingTypeDecl
            let owner = ownerDecl?.declaredTypeName ?? ""
            let key: String, group: LabelGroup
            if let local = scope, !file.index.declarations(object, in: local).isEmpty {
                if local.kind == .closureExpr, let property = Self.propertyMade(by: local) {
                    key = owner + "." + property
                    group = LabelGroup(name: property, scope: ownerDecl, local: (object, local))
                } else {
                    key = object + "@" + String(local.position.utf8Offset)
                    group = LabelGroup(name: object, scope: local)
                }
            } else {
                key = owner + "." + object
                // The type's own declaration (an extension's members are the type's, declared
                // wherever the type is).
                let declaring = ownerDecl?.kind == .extensionDecl ? nil : ownerDecl
                group = LabelGroup(name: object, scope: declaring)
            }
            if groups[key] == nil { groups[key] = group }
            if groups[key]?.local == nil, let local = group.local { groups[key]?.local = local }
            groups[key]?.assignments.append(assignment)
        }
        for group in groups.values.sorted(by: { $0.name < $1.name }) {
            let assignments = group.assignments
            let value = { (assignment: Assignment) -> String? in
                assignment.value.count == 1 ? assignment.value[0].sourceText : nil
            }
            // Follows the text size: tracks it, or starts at it (a text-style or scaled font).
            let scales = assignments.first { $0.targetProperty == "adjustsFontForContentSizeCategory" && value($0) == "true" }
                ?? assignments.first { assignment in
                    assignment.targetProperty == "font" && assignment.value.count == 1
                        && assignment.value[0].as(FunctionCallExprSyntax.self).map(FontNotAdjustingToContentSizeRule.isScaling) == true
                }
            let declared = group.local.map { Self.labelType($0.name, in: $0.closure, file) } ?? Self.labelType(group.name, in: group.scope, file)
            guard let scales, let declared, Self.keepsDefaultLines(declared, file) else { continue }
            let lines = assignments.filter { $0.targetProperty == "numberOfLines" }
            // An outlet's number of lines is its document's, unless the code sets it.
            if lines.isEmpty, group.local == nil, Self.isOutlet(group.name, in: group.scope, file) { continue }
            if assignments.contains(where: { $0.targetProperty == "adjustsFontSizeToFitWidth" && value($0) == "true" }) { continue }
            // One or two lines hold body text at default sizes, not at three times them.
            if lines.contains(where: { !["1", "2"].contains(value($0) ?? "") }) { continue }
            // A caption or footnote, or a font capped near its default size (`maximumPointSize:`).
            if assignments.contains(where: { assignment in
                assignment.targetProperty == "font" && (["caption", "footnote"].contains { ASCII.contains(value(assignment) ?? "", ".\($0)") }
                    || ASCII.contains(value(assignment) ?? "", "maximumPointSize"))
            }) { continue }
            // Only text that can be long: some `text` this file gives it that is not a short
            // literal ("By", "·") or a number (`String(count)`, `"\(count)"`). Text set nowhere
            // here is not known.
            let texts = assignments.filter { $0.targetProperty == "text" || $0.targetProperty == "attributedText" }
            guard texts.contains(where: { !Self.isShortText($0.value) }) else { continue }
            let explicit = lines.first
            let count = explicit.flatMap(value) ?? "1"
            sink.report(explicit?.node ?? scales.node, """
                `\(group.name)` follows the text size but shows at most \(count == "1" ? "one line" : "two lines") \
                (`numberOfLines` is \(count)\(explicit == nil ? " by default" : "")): at large text sizes its text is truncated
                """)
        }
    }

    /// The member property whose initializer is `closure` called at once (`= { … }()`).
    static func propertyMade(by closure: Syntax) -> String? {
        guard let call = closure.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == closure.id,
              let binding = call.parent?.parent?.as(PatternBindingSyntax.self),
              binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.kind == .memberBlockItem else { return nil }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }

    /// The label type `name` is declared with in `scope` (the file when nil): `UILabel`, or a
    /// type whose name ends in `Label`.
    static func labelType(_ name: String, in scope: Syntax?, _ file: SourceFile) -> String? {
        for node in file.index.declarations(name, in: scope) {
            guard let type = node.as(PatternBindingSyntax.self)?.writtenTypeName else { continue }
            return type.hasSuffix("Label") ? type : nil
        }
        return nil
    }

    /// `UILabel` shows one line unless told; a subclass declared in this file does too unless
    /// its own code sets its number of lines. One declared elsewhere is not known.
    static func keepsDefaultLines(_ type: String, _ file: SourceFile) -> Bool {
        if type == "UILabel" { return true }
        guard let declaration = file.index.typeDeclarations.first(where: { $0.declaredTypeName == type }) else { return false }
        let range = declaration.position.utf8Offset..<declaration.endPosition.utf8Offset
        return !file.index.assignments.contains { assignment in
            range.contains(assignment.node.position.utf8Offset)
                && (assignment.targetProperty == "numberOfLines" || assignment.target.as(DeclReferenceExprSyntax.self)?.baseName.text == "numberOfLines")
        }
    }

    /// `"By"`, `"·"`, `nil`, `String(count)`, `"\(count)"`, `count.description`, `"\(n) m"`:
    /// text too short to wrap.
    static func isShortText(_ value: [ExprSyntax]) -> Bool {
        guard value.count == 1, let expression = value.first else { return false }
        if expression.is(NilLiteralExprSyntax.self) { return true }
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            let segments = literal.segments
            let plain = segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
            let interpolations = segments.count - segments.filter { $0.is(StringSegmentSyntax.self) }.count
            return plain.count <= 12 && interpolations <= 1 && (interpolations == 0 || plain.count <= 3)
        }
        if let call = expression.as(FunctionCallExprSyntax.self), call.calleeName == "String", call.arguments.count == 1,
           call.arguments.first?.label == nil {
            return true
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "description" { return true }
        return false
    }

    static func isOutlet(_ name: String, in scope: Syntax?, _ file: SourceFile) -> Bool {
        file.index.declarations(name, in: scope).contains { node in
            node.ancestor(VariableDeclSyntax.self)?.attributes.contains {
                $0.as(AttributeSyntax.self)?.attributeName.sourceText == "IBOutlet"
            } == true
        }
    }

    /// A literal `width:` or `maxWidth:` of a `.frame` in the chain.
    static func fixedWidth(of chain: ModifierChain) -> Double? {
        for frame in chain.modifiers(named: "frame") {
            if let width = (frame.argument("width") ?? frame.argument("maxWidth"))?.numberValue { return width }
        }
        return nil
    }
}
