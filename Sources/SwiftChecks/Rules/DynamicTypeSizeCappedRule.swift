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
            if let root = ModifierChain(containing: ExprSyntax(call)).root.as(FunctionCallExprSyntax.self),
               Self.imageViews.contains(root.calleeName ?? "") { continue }
            let anchor = call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call)
            sink.report(call, at: anchor,
                        "`.dynamicTypeSize(\(argument.trimmedDescription))` stops text growing at `\(upper)`, before the accessibility sizes AX1 to AX5")
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
        if let infix = expression.as(InfixOperatorExprSyntax.self), infix.operator.trimmedDescription == "..." {
            return infix.rightOperand.memberName
        }
        return nil
    }
}
