import AuditModel
import SwiftSyntax

/// A horizontal stack of several text elements that never becomes vertical at accessibility
/// sizes: each text gets a narrow column when it needs the whole width.
struct HStackNeverRestacksRule: SourceRule {
    let description = RuleDescription(
        id: "hstack-never-restacks",
        title: "Horizontal stack of text never restacks at accessibility sizes",
        category: .layout,
        platforms: PlatformSet([.iOS, .visionOS, .watchOS]),
        kind: .advisory, certainty: .review,
        rationale: """
            An `HStack` holding two or more text views keeps them side by side at every size; at \
            accessibility sizes each gets a sliver of the width and wraps a word per line or \
            truncates. Apple suggests a stacked layout there. Whether this row needs one depends \
            on its content, so this is a note for a person to check in Xcode's Dynamic Type \
            variants. Files that read `isAccessibilitySize`, `dynamicTypeSize`, `ViewThatFits` \
            or `AnyLayout` in the same type are taken as adapting.
            """,
        citations: [
            Citation("HIG › Typography",
                     "consider using a stacked layout where text appears above secondary items"),
        ],
        fix: """
            Switch layouts at accessibility sizes: `let layout = dynamicTypeSize.isAccessibilitySize \
            ? AnyLayout(VStackLayout(alignment: .leading)) : AnyLayout(HStackLayout())`, or wrap \
            the row in `ViewThatFits`.
            """,
        limitations: """
            Rows whose texts are short (a count beside a title) may fit at every size. Adapting \
            code in another type (a parent view) is not seen.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct OrderRow: View {
                    var body: some View {
                        ↓HStack {
                            Text("Order 1042")
                            Spacer()
                            Text("Arrives today by 6 PM").foregroundStyle(.secondary)
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                import SwiftUI
                struct Totals: View {
                    var body: some View {
                        ↓HStack(spacing: 8) { Label("Items", systemImage: "cart"); Text("3") }
                    }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct OrderRow: View {
                    @Environment(\\.dynamicTypeSize) private var typeSize
                    var body: some View {
                        let layout = typeSize.isAccessibilitySize ? AnyLayout(VStackLayout(alignment: .leading)) : AnyLayout(HStackLayout())
                        layout { Text("Order 1042"); Text("Arrives today") }
                        HStack { Text("Order 1042"); Text("Arrives today") }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        HStack { Image(systemName: "star"); Text("Favorites") }
                        ViewThatFits { HStack { Text("Order 1042"); Text("Arrives today") }; VStack { Text("Order 1042") } }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct Row: View {
                    var body: some View { HStack { Text("Name"); Text("Size") } }
                }
                #endif
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for stack in file.index.calls(named: "HStack") where stack.calledExpression.is(DeclReferenceExprSyntax.self) {
            guard let closure = stack.trailingClosure else { continue }
            // An array, not `statements.filter`, which builds a new syntax collection.
            let texts = Array(closure.statements).filter { item in
                guard let expression = item.item.as(ExprSyntax.self),
                      let root = ModifierChain(containing: expression).root.as(FunctionCallExprSyntax.self),
                      let name = root.calleeName else { return false }
                return name == "Text" || name == "Label"
            }
            guard texts.count >= 2 else { continue }
            if file.scopeReads(["isAccessibilitySize", "dynamicTypeSize", "ViewThatFits", "AnyLayout"], around: stack) { continue }
            sink.report(stack, "`HStack` lays out \(texts.count) text views side by side at every text size; at accessibility sizes each gets a narrow column. Consider a vertical layout when `dynamicTypeSize.isAccessibilitySize`")
        }
    }
}
