import AuditModel
import SwiftSyntax

/// A control whose whole label is one `Image(systemName:)`: VoiceOver reads the symbol's
/// default label, which may or may not describe what this control does. Only a person can tell.
struct SFSymbolDefaultLabelRule: SourceRule {
    let description = RuleDescription(
        id: "sf-symbol-default-label",
        title: "Icon-only control relies on the SF Symbol's default label",
        kind: .advisory, certainty: .review,
        rationale: """
            An icon-only `Button`, `Link`, `Menu` or `NavigationLink` showing an SF Symbol is not \
            unlabelled: VoiceOver reads a label derived from the symbol. That label describes the \
            picture, not the action ("square and arrow up" for Share, "ellipsis circle" for More), \
            and Apple's own example of the derivation produced the raw identifier \
            "slider.vertical.3". Whether the default fits this control is a judgement only a \
            person can make, so this is a note asking for that check, not a defect.
            """,
        citations: [
            Citation("WWDC21 › SwiftUI Accessibility: Beyond the basics",
                     "If you're relying on a symbol's default label, it's important to check that it accurately describes your interface."),
            Citation("WWDC21 › SwiftUI Accessibility: Beyond the basics",
                     "While SF Symbols may have great default accessibility labels, they may not always fit the intended use case"),
            Citation("SwiftUI › accessibilityLabel(_:)",
                     "Use this method to provide an accessibility label for a view that doesn't display text, like an icon. For example, you could use this method to label a button that plays music with the text 'Play'."),
        ],
        fix: """
            If the symbol's default label does not say what the control does, label the control: \
            `.accessibilityLabel("Share")`, or `Label("Share", systemImage: "square.and.arrow.up")` \
            with `.labelStyle(.iconOnly)` (which also gives the title to Voice Control and to \
            larger-text layouts). If it does fit, suppress this note for the line.
            """,
        limitations: """
            Advisory: the default label may be exactly right ("Plus" on an add button), and no \
            static reader knows the label SwiftUI derives. Only a label closure whose single \
            statement is an `Image(systemName:)` chain is reported; a symbol wrapped in a stack, \
            or chosen in an `if`, is not. Labels applied by a custom `ViewModifier`, a button \
            style, or the caller of the view are not seen. UIKit `UIButton`s with \
            `UIImage(systemName:)` are not checked.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Toolbar: View {
                    var body: some View {
                        ↓Button(action: share) { Image(systemName: "square.and.arrow.up") }
                        ↓Button { share() } label: {
                            Image(systemName: "slider.vertical.3")
                                .imageScale(.large)
                        }
                        ↓Button(action: { share() }, label: { Image(systemName: "ellipsis") })
                            .padding(8)
                    }
                    func share() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Nav: View {
                    let url: URL
                    var body: some View {
                        ↓Link(destination: url) { Image(systemName: "safari") }
                        ↓Menu {
                            Button("Rename") {}
                            Button("Delete") {}
                        } label: {
                            Image(systemName: "ellipsis.circle")
                        }
                        ↓NavigationLink(destination: Text("Settings")) { Image(systemName: "gear") }
                        ↓NavigationLink { Text("Profile") } label: { Image(systemName: "person.crop.circle") }
                    }
                }
                """),
            // Toolbar content is not inside the view it is attached to.
            RuleExample("""
                import SwiftUI
                struct Items: View {
                    var body: some View {
                        List { Text("Row") }
                            .accessibilityElement(children: .combine)
                            .toolbar { ↓Button(action: add) { Image(systemName: "plus") } }
                    }
                    func add() {}
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct Toolbar: View {
                    var body: some View {
                        Button(action: share) { Image(systemName: "square.and.arrow.up") }
                            .accessibilityLabel("Share")
                        Button(action: share) {
                            Image(systemName: "square.and.arrow.up").accessibilityLabel("Share")
                        }
                        Button(action: play) { Label("Play", systemImage: "play.fill") }
                            .labelStyle(.iconOnly)
                        Label("Play", systemImage: "play.fill").labelStyle(.iconOnly)
                        Button("Share", systemImage: "square.and.arrow.up", action: share)
                        Button("Share") { share() }
                    }
                    func share() {}
                    func play() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        HStack {
                            Text("Downloads")
                            Button(action: open) { Image(systemName: "chevron.right") }
                        }
                        .accessibilityElement(children: .combine)
                        Button(action: open) { Image(systemName: "star") }
                            .accessibilityElement(children: .combine)
                        Button(action: open) {
                            Image(systemName: "star")
                            Text("Favorite")
                        }
                        Button(action: open) { Image("star") }
                        Menu("More") { Button(action: open) { Text("Open") } }
                        Menu { Image(systemName: "star") } label: { Text("More") }
                    }
                    func open() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibility(label: Text("Play"))
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityRepresentation { Button("Play", action: play) }
                    }
                    func play() {}
                }
                """),
        ]
    )

    private static let controls: Set<String> = ["Button", "Link", "Menu", "NavigationLink"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: Self.controls) {
            guard let name = call.calleeName, Self.controls.contains(name),
                  call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calleeBaseText == "SwiftUI",
                  let label = Self.labelClosure(of: call, name: name),
                  label.statements.count == 1,
                  let expression = label.statements.first?.item.as(ExprSyntax.self)
            else { continue }
            let content = ModifierChain(containing: expression)
            guard let image = content.root.as(FunctionCallExprSyntax.self), image.calleeName == "Image",
                  let symbol = image.argument("systemName") else { continue }
            if AccessibilityLabels.labelsOrHides(content) { continue }
            if Self.isLabelled(ModifierChain(containing: ExprSyntax(call))) { continue }
            if AccessibilityLabels.accessibilityContainers(of: call).contains(where: { Self.isLabelled(ModifierChain(containing: ExprSyntax($0))) }) {
                continue
            }
            if AccessibilityLabels.isInPreview(call) { continue }
            let symbolText = symbol.stringLiteralValue.map { "\"\($0)\"" } ?? "`\(symbol.sourceText)`"
            sink.report(call, "`\(name)` shows only the SF Symbol \(symbolText) and has no label of its own: VoiceOver reads the symbol's default label; check that it describes what this \(name == "Menu" ? "menu" : "control") does, or add `.accessibilityLabel`")
        }
    }

    /// Labelled, hidden, replaced, or merged into a combined element.
    private static func isLabelled(_ chain: ModifierChain) -> Bool {
        AccessibilityLabels.labelsOrHides(chain) || chain.groupsChildren
    }

    /// The closure that draws the control's label, when the control has no title.
    private static func labelClosure(of call: FunctionCallExprSyntax, name: String) -> ClosureExprSyntax? {
        if let labelled = call.additionalTrailingClosures.first(where: { $0.label.text == "label" }) {
            return labelled.closure
        }
        if let argument = call.argument("label")?.as(ClosureExprSyntax.self) { return argument }
        // A title as the first argument is the label; `Menu { … }` alone has content, not a label.
        guard call.firstUnlabeledArgument == nil, name != "Menu", !call.arguments.isEmpty else { return nil }
        return call.trailingClosure
    }
}
