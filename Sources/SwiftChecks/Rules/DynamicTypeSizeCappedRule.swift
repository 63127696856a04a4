import AuditModel
import SwiftSyntax

/// `.dynamicTypeSize(...DynamicTypeSize.large)` or `maximumContentSizeCategory = .large`: a cap
/// below the accessibility sizes takes Larger Text away from the people who need it most.
struct DynamicTypeSizeCappedRule: SourceRule {
    /// Sizes below the accessibility range, in SwiftUI's and UIKit's spellings.
    static let standardSizes: Set<String> = [
        "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge",
        "extraSmall", "extraLarge", "extraExtraLarge", "extraExtraExtraLarge",
    ]

    /// SwiftUI views that show a picture: a cap on one limits how far an icon scales, not text.
    static let imageViews: Set<String> = ["Image", "AsyncImage"]

    let description = RuleDescription(
        id: "dynamic-type-size-capped",
        title: "Dynamic Type capped below the accessibility sizes",
        platforms: PlatformSet([.iOS, .tvOS, .visionOS, .watchOS]),
        kind: .recommendation,
        rationale: """
            Limiting a view's Dynamic Type range to the standard sizes (xSmall to xxxLarge) means \
            text stops growing exactly where the accessibility sizes (AX1 to AX5) begin. A cap \
            inside the accessibility range (for example `...DynamicTypeSize.accessibility2`) is a \
            deliberate layout decision and is not flagged.
            """,
        citations: [
            Citation("HIG › Typography", "aim to display as much useful text at the largest accessibility font size as you do at the largest standard font size."),
            Citation("App Store Connect Help › Larger Text evaluation criteria",
                     "Dynamic Type on iOS … reaches sizes larger than 200% at the AX3 size, and allows body text sizes over 300% at the AX5 size."),
        ],
        fix: """
            Remove the cap, or raise it into the accessibility range and restack the layout for \
            large sizes (`dynamicTypeSize.isAccessibilitySize`, `ViewThatFits`). For bars that cannot \
            grow, keep the system size and adopt the Large Content Viewer.
            """,
        limitations: """
            A cap passed through a variable is not evaluated. A cap on an image (`Image(…)`, \
            `AsyncImage`, a UIKit object named `…imageView`) is left alone: it limits how far a \
            picture scales, which is the layout's call.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Header: View {
                    var body: some View {
                        Text("Inbox").↓dynamicTypeSize(...DynamicTypeSize.large)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                let capped = Text("Inbox").↓dynamicTypeSize(.xSmall ... .xxxLarge)
                """),
            // Text inside the file's helper, and another file's view that may hold text.
            RuleExample("""
                import SwiftUI
                struct TabStrip: View {
                    let titles: [String]
                    var body: some View {
                        HStack { tabs }.↓dynamicTypeSize(...DynamicTypeSize.xxLarge)
                        VStack { Image(systemName: "star"); RatingSummary() }.↓dynamicTypeSize(...DynamicTypeSize.large)
                    }
                    private var tabs: some View {
                        ForEach(titles, id: \\.self) { title in Button(action: {}) { Text(title) } }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func configure(_ view: UIView) {
                    ↓view.maximumContentSizeCategory = .extraExtraExtraLarge
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                let a = Text("Inbox").dynamicTypeSize(...DynamicTypeSize.accessibility3)
                let b = Text("Inbox").dynamicTypeSize(.large ... .accessibility5)
                let c = Text("Preview").dynamicTypeSize(.xxxLarge)
                """),
            // A cap on an image is a layout decision about a picture, not text that stops growing.
            RuleExample("""
                import SwiftUI
                struct Avatar: View {
                    var body: some View {
                        Image(systemName: "person.crop.circle").font(.title).dynamicTypeSize(...DynamicTypeSize.xxLarge)
                        AsyncImage(url: nil).frame(width: 40, height: 40).dynamicTypeSize(...DynamicTypeSize.large)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func configure(_ view: UIView) {
                    view.maximumContentSizeCategory = .accessibilityExtraLarge
                    view.minimumContentSizeCategory = .large
                }
                """),
            // A row of emoji reactions and an icon bar built by the file's own helper: no text
            // stops growing.
            RuleExample("""
                import SwiftUI
                struct ReactionBar: View {
                    let reactionEmojis = ["👍", "❤️", "😂"]
                    var body: some View {
                        HStack {
                            ForEach(reactionEmojis, id: \\.self) { reaction in
                                Button {
                                    UIImpactFeedbackGenerator(style: .light).impactOccurred()
                                } label: {
                                    Text(reaction).padding(4)
                                }
                            }
                        }
                        .font(.title)
                        .dynamicTypeSize(...DynamicTypeSize.xxxLarge)
                    }
                }
                struct SectionBar: View {
                    var body: some View {
                        ZStack { sections() }.dynamicTypeSize(...DynamicTypeSize.xxxLarge)
                    }
                    private func sections() -> some View {
                        HStack {
                            ForEach(["clock", "face.smiling"], id: \\.self) { icon in
                                Button(action: {}) { Image(systemName: icon) }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class BadgeCell: UITableViewCell {
                    let badgeImageView = UIImageView()
                    func configure() {
                        badgeImageView.maximumContentSizeCategory = .extraLarge
                    }
                }
                """),
        ],
        concernsDynamicType: true
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: "dynamicTypeSize") where call.isMemberCallWithBase {
            guard let argument = call.firstUnlabeledArgument, let upper = Self.upperBound(of: argument),
                  Self.standardSizes.contains(upper) else { continue }
            if let root = ModifierChain(containing: ExprSyntax(call)).root.as(FunctionCallExprSyntax.self) {
                if Self.imageViews.contains(root.calleeName ?? "") { continue }
                // A bar of emoji or icon buttons holds no text that stops growing.
                let scanner = CappedContentScanner(file: file)
                scanner.walk(root)
                if !scanner.readable && !scanner.unknown { continue }
            }
            let anchor = call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call)
            sink.report(call, at: anchor,
                        "`.dynamicTypeSize(\(argument.sourceText))` stops text growing at `\(upper)`, before the accessibility sizes AX1 to AX5")
        }
        for assignment in file.index.assignments where assignment.targetProperty == "maximumContentSizeCategory" {
            guard let value = assignment.value.first?.memberName, Self.standardSizes.contains(value) else { continue }
            let object = assignment.targetObject.lowercased()
            if object.hasSuffix("imageview") || object.hasSuffix("image") { continue }
            sink.report(assignment.target, "`maximumContentSizeCategory = .\(value)` stops text growing before the accessibility sizes")
        }
    }

    /// The upper bound of a range argument (`...x`, `a ... b`, `a...b`); `nil` for a single size.
    static func upperBound(of expression: ExprSyntax) -> String? {
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "..." {
            return prefix.expression.memberName
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "..." {
                return elements[2].memberName
            }
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self), infix.operator.sourceText == "..." {
            return infix.rightOperand.memberName
        }
        return nil
    }
}

/// What a capped view shows: whether it holds text people read (`Text("Inbox")`, `Text(title)`,
/// `Button("Save")`), or views this file cannot see into (another file's view, a closure
/// parameter), or only pictures: images, shapes, emoji (`Text(reaction.emoji)`, a `ForEach`
/// over `…Emojis`). The file's own helpers (`sections(in: frame)`) are read too.
final class CappedContentScanner: SyntaxVisitor {
    private let file: SourceFile
    private var depth = 0
    private var visited: Set<String> = []
    private(set) var readable = false
    private(set) var unknown = false

    static let textViews: Set<String> = ["Text", "Label", "TextField", "SecureField", "TextEditor"]
    static let titledControls: Set<String> = ["Button", "Toggle", "Link", "Picker", "Menu", "NavigationLink"]
    /// SwiftUI views that show no text of their own, and the geometry values layouts build.
    static let pictureViews: Set<String> = [
        "Image", "AsyncImage", "Circle", "Rectangle", "RoundedRectangle", "Capsule", "Ellipse", "Color", "Spacer", "Divider",
        "HStack", "VStack", "ZStack", "LazyHStack", "LazyVStack", "LazyHGrid", "LazyVGrid", "Grid", "GridRow", "ForEach", "Group",
        "ScrollView", "GeometryReader", "ProgressView", "EmptyView", "ViewThatFits", "CGRect", "CGFloat", "CGSize",
    ]

    init(file: SourceFile) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    /// Reads a helper's body or a computed property's accessor in place of its use, a few
    /// levels deep and each once; false when it is not read.
    private func read(_ node: some SyntaxProtocol, named name: String) -> Bool {
        guard depth < 3, visited.insert(name).inserted else { return false }
        depth += 1
        walk(node)
        depth -= 1
        return true
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if readable || unknown { return .skipChildren }
        guard let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) else { return .visitChildren }
        let name = reference.baseName.text
        if Self.textViews.contains(name) {
            if isReadable(node) { readable = true }
            return .skipChildren
        }
        if Self.titledControls.contains(name), let title = node.arguments.first, title.label == nil,
           title.expression.is(StringLiteralExprSyntax.self) || !title.expression.is(ClosureExprSyntax.self) {
            readable = true
            return .skipChildren
        }
        if name == "Button" {
            // Only the label shows; the action's code (`UIImpactFeedbackGenerator(…)`) does not.
            let label = node.additionalTrailingClosures.first { $0.label.text == "label" }.map { Syntax($0.closure) }
                ?? node.argument("label").map(Syntax.init)
                ?? (node.argument("action") != nil ? node.trailingClosure.map(Syntax.init) : nil)
            if let label { walk(label) } else { unknown = true }
            return .skipChildren
        }
        if Self.pictureViews.contains(name) { return .visitChildren }
        // The file's own helper: read its body, a few calls deep.
        if let body = file.index.soleFunction(named: name)?.body, read(body, named: name) { return .visitChildren }
        // Another view (`ReactionBubble()`), which may hold text; a lowercase call is a value
        // (`offset(for:)`, `min`) unless it is a closure handed in (`content(frame)`).
        if name.first?.isUppercase == true || file.index.declarations[name] == nil && !Self.valueFunctions.contains(name) {
            unknown = true
        }
        return .visitChildren
    }

    /// A view builder's line naming another view (`header`, `self.footer`): the file's computed
    /// property is read; anything else may hold text.
    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        guard let expression = node.item.as(ExprSyntax.self) else { return .visitChildren }
        let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? expression.as(MemberAccessExprSyntax.self).flatMap { $0.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" ? $0.declName.baseName.text : nil }
        guard let name else { return .visitChildren }
        let declarations = file.index.declarations[name] ?? []
        guard declarations.count == 1, let accessor = declarations[0].as(PatternBindingSyntax.self)?.accessorBlock,
              read(accessor, named: name) else {
            unknown = true
            return .skipChildren
        }
        return .skipChildren
    }

    /// Functions a view builder calls for values, not views.
    static let valueFunctions: Set<String> = ["min", "max", "abs", "withAnimation", "round", "floor", "ceil"]

    /// A `Text`'s content: words, unless a glyph or an emoji by name or by the collection its
    /// `ForEach` walks.
    private func isReadable(_ text: FunctionCallExprSyntax) -> Bool {
        guard let argument = text.arguments.first(where: { $0.label == nil || $0.label?.text == "verbatim" })?.expression else { return true }
        if let literal = argument.as(StringLiteralExprSyntax.self) {
            return literal.segments.contains { segment in
                guard let content = segment.as(StringSegmentSyntax.self)?.content.text else { return true }
                return content.contains { $0.isLetter || $0.isNumber }
            }
        }
        let spelled = argument.sourceText
        if spelled.lowercased().contains("emoji") { return false }
        // `ForEach(baseReactionEmojis) { reaction in Text(reaction.rawValue) }`.
        let head = String(spelled.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        var current = Syntax(text).parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self), let call = closure.parent?.as(FunctionCallExprSyntax.self)
                ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self), call.calleeName == "ForEach",
               closure.signature?.parameterClause?.sourceText.contains(head) == true {
                return !(call.arguments.first?.expression.sourceText.lowercased().contains("emoji") ?? false)
            }
            current = node.parent
        }
        return true
    }
}
