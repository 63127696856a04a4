import AuditModel
import SwiftSyntax

/// A fixed `.frame(height:)` around text whose style, at the largest accessibility size, no
/// longer fits in it.
struct TextClippedAtLargeSizesRule: SourceRule {
    let description = RuleDescription(
        id: "text-clipped-at-large-sizes",
        title: "Fixed frame height clips text at large text sizes",
        category: .layout,
        platforms: PlatformSet(.iOS),
        // 5 of 7 findings held on the seed-15 to -17 samples (widget text in fixed widget
        // boxes, a frame on an unused type): under 80%, so a person judges each until rewritten.
        kind: .recommendation, certainty: .review,
        rationale: """
            Text grows with Dynamic Type; a container of fixed height does not. When one line of \
            the text's style at the largest accessibility size (AX5 in Apple's table: body is 53 \
            pt) is taller than the frame, the text is clipped. The message names the style, its \
            AX5 size and the frame height. Heights given by `@ScaledMetric` values scale and are \
            not flagged; nor is text allowed to shrink with `.minimumScaleFactor`.
            """,
        citations: [
            Citation("WWDC24 › Get started with Dynamic Type", "Text may also appear clipped, because its container has a fixed frame."),
            Citation("HIG › Typography",
                     "When font size increases in a horizontally constrained context, inline items (like glyphs and timestamps) and container boundaries can crowd text and cause truncation or overlapping."),
        ],
        fix: """
            Use `.frame(minHeight:)` so the container can grow, or size it with \
            `@ScaledMetric(relativeTo:)` so it scales with the text.
            """,
        limitations: """
            Only iOS and iPadOS are measured: Apple publishes AX5 sizes for them; visionOS and \
            watchOS have Dynamic Type but no table in the reference data. A font set on an \
            enclosing view is not followed (the text is taken as body). Text in a frame of a \
            parent view more than one level up is not measured.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Text("Delivered").font(.body)↓.frame(height: 44)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Header: View {
                    var body: some View {
                        HStack {
                            Image(systemName: "box.truck")
                            Text("Order 1042").font(.headline)
                        }
                        ↓.frame(maxHeight: 32)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Badge: View {
                    var body: some View { Label("New", systemImage: "sparkles")↓.frame(height: 20) }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    @ScaledMetric(relativeTo: .body) private var rowHeight: CGFloat = 44
                    var body: some View {
                        Text("Delivered").frame(height: rowHeight)
                        Text("Delivered").frame(minHeight: 44)
                        Text("Total").font(.body).frame(height: 60)
                        Text("Price").frame(height: 30).minimumScaleFactor(0.5)
                        Image("logo").frame(height: 20)
                    }
                }
                """),
            // macOS has no Dynamic Type.
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct Row: View {
                    var body: some View { Text("Delivered").frame(height: 22) }
                }
                #endif
                """),
        ],
        concernsDynamicType: true
    )

    static let containers: Set<String> = ["HStack", "VStack", "ZStack", "Group"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let frames = file.index.calls(named: "frame")
        guard !frames.isEmpty else { return }
        // Looked up once per file, not once per stack.
        let texts = file.index.calls(named: SwiftUITextStyle.textViews)
        for frame in frames where frame.isMemberCallWithBase {
            guard let height = (frame.argument("height") ?? frame.argument("maxHeight"))?.numberValue,
                  let member = frame.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
            let chain = ModifierChain(containing: ExprSyntax(frame))
            if chain.has("minimumScaleFactor") || chain.has("dynamicTypeSize") { continue }
            guard let root = chain.root.as(FunctionCallExprSyntax.self), root.calledExpression.is(DeclReferenceExprSyntax.self),
                  let name = root.calleeName else { continue }
            var largest: (name: String, size: Double)?
            func consider(_ font: ExprSyntax?) {
                if let found = SwiftUITextStyle.largestSize(font, file.reference), found.size > (largest?.size ?? 0) { largest = found }
            }
            if SwiftUITextStyle.textViews.contains(name) {
                consider(SwiftUITextStyle.font(in: chain))
            } else if Self.containers.contains(name), let closure = root.trailingClosure {
                let range = closure.position.utf8Offset..<closure.endPosition.utf8Offset
                let stackFont = SwiftUITextStyle.font(in: chain)
                for text in texts where range.contains(text.position.utf8Offset) {
                    let textChain = ModifierChain(containing: ExprSyntax(text))
                    if textChain.has("minimumScaleFactor") { continue }
                    consider(SwiftUITextStyle.font(in: textChain) ?? stackFont)
                }
            } else {
                continue
            }
            guard let largest, largest.size > height else { continue }
            sink.report(frame, at: member.period,
                        "`.frame(\(frame.argument("height") != nil ? "height" : "maxHeight"): \(height.points))` fixes the height around \(largest.name) text, which is \(largest.size.points) pt at the largest accessibility size (AX5); the text will be clipped")
        }
    }
}
