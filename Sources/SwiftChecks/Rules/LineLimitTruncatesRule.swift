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
            footnote text is left alone: only body-sized and larger styles are checked.
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
            `dynamicTypeSize.isAccessibilitySize`.
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
        ],
        concernsDynamicType: true
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
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

    /// A literal `width:` or `maxWidth:` of a `.frame` in the chain.
    static func fixedWidth(of chain: ModifierChain) -> Double? {
        for frame in chain.modifiers(named: "frame") {
            if let width = (frame.argument("width") ?? frame.argument("maxWidth"))?.numberValue { return width }
        }
        return nil
    }
}
