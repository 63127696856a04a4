import SwiftSyntax

/// A literal label as written in source: the text VoiceOver would read, unless a localisation
/// table translates it first.
struct LabelLiteral {
    /// The expression a finding points at: the literal, or the `Text(…)` wrapping it.
    let node: ExprSyntax
    /// The text with escapes decoded; each interpolation is replaced by U+FFFC, a placeholder
    /// that is neither a letter nor a separator to the rules.
    let text: String
    let hasInterpolation: Bool
    /// SwiftUI takes a bare literal as a `LocalizedStringKey`; `Text("…")`,
    /// `String(localized:)` and `NSLocalizedString` are keys too. `Text(verbatim:)` and a
    /// UIKit `String` are read as written.
    let isLocalizable: Bool
    /// What the literal is, for messages: "accessibility label set with `.accessibilityLabel(_:)`".
    let subject: String
    /// The string literal itself (inside any `Text(…)` wrapping it).
    let literal: StringLiteralExprSyntax
    /// Written as a translation's source (`NSLocalizedString`, `String(localized:)`,
    /// `LocalizedStringKey(…)`): its text is a key translators work from, not only what is read.
    let isTranslationSource: Bool

    static let placeholder: Character = "\u{FFFC}"

    /// The label as the message quotes it: interpolations shown as `\(…)` source.
    let display: String

    /// A key the project translates: what VoiceOver reads is the translation, which this
    /// checker cannot see.
    func isTranslated(in file: SourceFile) -> Bool {
        isLocalizable && !hasInterpolation && file.isLocalizedKey(text)
    }

    /// Reads `expression` as a label literal. `bareIsKey`: a plain literal is a SwiftUI
    /// `LocalizedStringKey` at this position.
    init?(_ expression: ExprSyntax, bareIsKey: Bool, subject: String) {
        var localizable = bareIsKey
        var source = false
        var literalExpression = expression
        if let call = expression.as(FunctionCallExprSyntax.self) {
            guard let name = call.calleeName, call.calleeBaseText == nil || call.calleeBaseText == "SwiftUI",
                  let first = call.arguments.first else { return nil }
            switch (name, first.label?.text) {
            case ("Text", nil):
                localizable = true
            case ("LocalizedStringKey", nil), ("String", "localized"), ("NSLocalizedString", nil):
                localizable = true
                source = true
            case ("Text", "verbatim"), ("String", nil):
                localizable = false
            default:
                return nil
            }
            literalExpression = first.expression
        }
        guard let literal = literalExpression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        var display = ""
        var interpolated = false
        let isRaw = literal.openingPounds != nil
        for segment in literal.segments {
            if let piece = segment.as(StringSegmentSyntax.self) {
                let raw = piece.content.text
                text += isRaw ? raw : Self.decodeEscapes(raw)
                display += raw
            } else {
                interpolated = true
                text.append(Self.placeholder)
                display += segment.sourceText
            }
        }
        self.node = expression
        self.literal = literal
        self.isTranslationSource = source
        self.text = text
        self.display = display
        self.hasInterpolation = interpolated
        self.isLocalizable = localizable
        self.subject = subject
    }

    /// `\n`, `\t`, `\"`, `\\`, `\'`, `\0`, `\u{…}`, and line-continuation backslashes.
    static func decodeEscapes(_ raw: String) -> String {
        guard raw.contains("\\") else { return raw }
        var result = ""
        var scalars = Array(raw.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let next = scalars.popFirst() else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch next {
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "0": result += "\0"
            case "u":
                guard scalars.first == "{", let close = scalars.firstIndex(of: "}") else {
                    result += "\\u"
                    continue
                }
                let hex = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) {
                    result.unicodeScalars.append(decoded)
                }
                scalars = scalars[scalars.index(after: close)...]
            case "\n": break
            default: result.unicodeScalars.append(next)
            }
        }
        return result
    }
}

/// Where explicit accessibility labels are written, in SwiftUI, UIKit and AppKit.
enum AccessibilityLabels {
    /// `.accessibilityLabel("…")`, `.accessibilityLabel(Text("…"))`, `.accessibility(label: Text("…"))`,
    /// `x.accessibilityLabel = "…"`, `x.setAccessibilityLabel("…")`.
    static func explicit(in file: SourceFile) -> [LabelLiteral] {
        var result: [LabelLiteral] = []
        for call in file.index.calls(named: ["accessibilityLabel", "accessibility", "setAccessibilityLabel"]) {
            guard let name = call.calleeName, call.calledExpression.is(MemberAccessExprSyntax.self)
                    || call.calledExpression.is(DeclReferenceExprSyntax.self) else { continue }
            switch name {
            case "accessibilityLabel" where call.calledExpression.is(MemberAccessExprSyntax.self):
                if let argument = call.firstUnlabeledArgument,
                   let label = LabelLiteral(argument, bareIsKey: true, subject: "accessibility label set with `.accessibilityLabel(_:)`") {
                    result.append(label)
                }
            case "accessibility":
                if let argument = call.argument("label"),
                   let label = LabelLiteral(argument, bareIsKey: true, subject: "accessibility label set with `.accessibility(label:)`") {
                    result.append(label)
                }
            case "setAccessibilityLabel":
                if let argument = call.firstUnlabeledArgument,
                   let label = LabelLiteral(argument, bareIsKey: false, subject: "accessibility label set with `setAccessibilityLabel(_:)`") {
                    result.append(label)
                }
            default:
                continue
            }
        }
        for assignment in file.index.assignments where assignment.targetProperty == "accessibilityLabel" {
            guard assignment.value.count == 1, let value = assignment.value.first,
                  let label = LabelLiteral(value, bareIsKey: false, subject: "accessibility label assigned to `accessibilityLabel`") else { continue }
            result.append(label)
        }
        return result
    }

    /// SwiftUI controls whose title string is their label: `Button("…") { }`, `Link("…", destination:)`,
    /// `Toggle("…", isOn:)`, `Menu("…") { }`, `NavigationLink("…", …)`, `Label("…", systemImage:)`,
    /// unless the control's chain sets its own label. UIKit `setTitle("…", for:)` when the
    /// enclosing type never sets `accessibilityLabel`.
    static func controlTitles(in file: SourceFile) -> [LabelLiteral] {
        var result: [LabelLiteral] = []
        for call in file.index.calls(named: titledControls.union(["setTitle"])) {
            guard let name = call.calleeName else { continue }
            if titledControls.contains(name), call.calledExpression.is(DeclReferenceExprSyntax.self),
               let title = call.firstUnlabeledArgument,
               let label = LabelLiteral(title, bareIsKey: true, subject: "the `\(name)` title, read as its accessibility label,") {
                let chain = ModifierChain(containing: ExprSyntax(call))
                if chain.hasAccessibilityLabel || chain.isHiddenFromAccessibility { continue }
                result.append(label)
            } else if name == "setTitle", call.isMemberCallWithBase, call.argument("for") != nil,
                      let title = call.firstUnlabeledArgument,
                      let label = LabelLiteral(title, bareIsKey: false, subject: "the `setTitle(_:for:)` button title, read as its accessibility label,") {
                if file.scopeReads(["accessibilityLabel", "setAccessibilityLabel"], around: call) { continue }
                result.append(label)
            }
        }
        return result
    }

    static let titledControls: Set<String> = ["Button", "Link", "Toggle", "Menu", "NavigationLink", "Label"]
}

extension AccessibilityLabels {
    /// Inside `#Preview { … }` or a `PreviewProvider`: design-time code no one hears.
    static func isInPreview(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let node = current {
            // The kind first: most ancestors are none of these, and a cast per ancestor costs.
            switch node.kind {
            case .macroExpansionExpr:
                if node.as(MacroExpansionExprSyntax.self)?.macroName.text == "Preview" { return true }
            case .macroExpansionDecl:
                if node.as(MacroExpansionDeclSyntax.self)?.macroName.text == "Preview" { return true }
            case .structDecl:
                if node.as(StructDeclSyntax.self)?.inheritanceClause?.inheritedTypes
                    .contains(where: { $0.type.typeName == "PreviewProvider" }) == true {
                    return true
                }
            default: break
            }
            current = node.parent
        }
        return false
    }

    /// Labelled, hidden, or replaced with `.accessibilityRepresentation { … }`.
    static func labelsOrHides(_ chain: ModifierChain) -> Bool {
        chain.hasAccessibilityLabel || chain.isHiddenFromAccessibility || chain.has("accessibilityRepresentation")
    }

    /// A control's label: its `label:` closure or argument, else the trailing closure of a
    /// control given its action (`Button(action: go) { … }`); nil for a titled control.
    static func labelPart(of control: FunctionCallExprSyntax) -> Syntax? {
        control.additionalTrailingClosures.first { $0.label.text == "label" }.map { Syntax($0.closure) }
            ?? control.argument("label").map(Syntax.init)
            ?? (control.arguments.isEmpty ? nil : control.trailingClosure.map(Syntax.init))
    }

    /// Controls whose label is drawn by a closure (`Button(action:) { … }`, `… label: { … }`).
    static let labelledControls: Set<String> = ["Button", "Link", "NavigationLink", "Menu", "Toggle"]

    /// SwiftUI's own views and shapes: never a custom view whose callers label it.
    static let systemViews: Set<String> = [
        "Text", "Image", "Label", "VStack", "HStack", "ZStack", "LazyVStack", "LazyHStack", "Group", "Button", "Link",
        "NavigationLink", "Menu", "Toggle", "List", "ForEach", "Section", "ScrollView", "Spacer", "Divider", "Color",
        "Circle", "Capsule", "Rectangle", "RoundedRectangle", "Ellipse", "GeometryReader", "AsyncImage", "ProgressView",
        "Picker", "Slider", "Stepper", "TextField", "SecureField", "Form", "Grid", "GridRow", "ViewThatFits", "TimelineView",
    ]
    /// Modifiers whose closure content is presented elsewhere (another screen, a bar, a
    /// popup): the presenting view's accessibility modifiers do not reach it.
    static let presentationModifiers: Set<String> = [
        "sheet", "fullScreenCover", "popover", "navigationDestination", "alert", "confirmationDialog",
        "toolbar", "contextMenu", "inspector", "safeAreaInset",
    ]

    /// The enclosing view calls whose accessibility modifiers apply to `node`, innermost first:
    /// `enclosingViewCalls` cut at presented content and at a control's destination or menu
    /// items, which are not part of the control.
    static func accessibilityContainers(of node: some SyntaxProtocol) -> [FunctionCallExprSyntax] {
        var result: [FunctionCallExprSyntax] = []
        for container in node.enclosingViewCalls {
            let name = container.calleeName ?? ""
            if presentationModifiers.contains(name), container.calledExpression.is(MemberAccessExprSyntax.self) { break }
            // `.accessibilityRepresentation { Picker(…) }`: what it holds is what assistive
            // technologies get instead of the view around it, so that view names nothing here.
            if name == "accessibilityRepresentation", container.calledExpression.is(MemberAccessExprSyntax.self) { break }
            if labelledControls.contains(name), container.calledExpression.is(DeclReferenceExprSyntax.self),
               !isInLabel(node, of: container) {
                break
            }
            result.append(container)
        }
        return result
    }

    /// Whether `node` is drawn as the control's label rather than its action, content or
    /// destination (`Menu { items } label: { … }`, `NavigationLink { destination } label: { … }`).
    static func isInLabel(_ node: some SyntaxProtocol, of control: FunctionCallExprSyntax) -> Bool {
        let offset = node.position.utf8Offset
        func contains(_ closure: ClosureExprSyntax) -> Bool {
            (closure.position.utf8Offset..<closure.endPosition.utf8Offset).contains(offset)
        }
        if let label = control.additionalTrailingClosures.first(where: { $0.label.text == "label" })?.closure
            ?? control.argument("label")?.as(ClosureExprSyntax.self) {
            return contains(label)
        }
        // `Button("Title") { action }` and `Menu { items }`: the trailing closure is not a label.
        guard control.calleeName != "Menu", control.firstUnlabeledArgument == nil,
              let trailing = control.trailingClosure else { return false }
        return contains(trailing)
    }

    /// `text` without leading and trailing whitespace.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension SourceFile {
    /// `Row@labelled` for each custom view this file constructs under a label, a hide or a
    /// group that ignores its children (`BadgeRow(…).accessibilityLabel("…")`, `HStack { BadgeRow(…) }
    /// .accessibilityElement(children: .ignore)`): what that view's own images would say may
    /// never be read. Only names that start uppercase and are not SwiftUI's own views.
    func viewsLabelledWhereUsed() -> Set<String> {
        var names = Set<String>()
        var walked = Set<SyntaxIdentifier>()
        let modifiers = index.calls(named: ["accessibilityLabel", "accessibilityHidden", "accessibilityElement",
                                            "accessibilityRepresentation", "accessibility"])
        for modifier in modifiers where modifier.isMemberCallWithBase {
            let chain = ModifierChain(containing: ExprSyntax(modifier))
            let replaces = AccessibilityLabels.labelsOrHides(chain) || chain.modifiers.contains { call in
                call.calleeName == "accessibilityElement" && (call.argument("children").map { $0.memberName == "ignore" } ?? true)
            }
            guard replaces, let root = chain.root.as(FunctionCallExprSyntax.self), walked.insert(root.id).inserted else { continue }
            for call in [root] + Self.callsInSubtree(of: Syntax(root)) {
                guard let name = call.calleeName, name.first?.isUppercase == true,
                      call.calledExpression.is(DeclReferenceExprSyntax.self),
                      !AccessibilityLabels.systemViews.contains(name) else { continue }
                names.insert(name + "@labelled")
            }
        }
        return names
    }

    /// `Row@grouped` for each custom view this file constructs where a nameless image in it may
    /// not be an element of its own: under `.accessibilityElement(children: .combine)`, or in
    /// the label of a button or link (`NavigationLink { … } label: { ConversationRow(…) }`),
    /// which text beside it or in the view itself may name. Only the nameless-image rule reads
    /// it, to hand its findings to a person: an asset name is still read inside such a label.
    func viewsGroupedWhereUsed() -> Set<String> {
        var names = Set<String>()
        func collect(_ root: Syntax) {
            for call in (root.as(FunctionCallExprSyntax.self).map { [$0] } ?? []) + Self.callsInSubtree(of: root) {
                guard let name = call.calleeName, name.first?.isUppercase == true,
                      call.calledExpression.is(DeclReferenceExprSyntax.self),
                      !AccessibilityLabels.systemViews.contains(name) else { continue }
                names.insert(name + FileResult.groupedMarker)
            }
        }
        for modifier in index.calls(named: "accessibilityElement") where modifier.isMemberCallWithBase
            && modifier.argument("children")?.memberName == "combine" {
            if let root = ModifierChain(containing: ExprSyntax(modifier)).root.as(FunctionCallExprSyntax.self) {
                collect(Syntax(root))
            }
        }
        for control in index.calls(named: ["Button", "NavigationLink", "Link"]) where control.calledExpression.is(DeclReferenceExprSyntax.self) {
            guard let label = AccessibilityLabels.labelPart(of: control) else { continue }
            collect(label)
        }
        return names
    }

    /// `imageOnly:Name` for each view this file declares whose body shows nothing but a picture
    /// with no name (`Image(uiImage:)`, `Image(nsImage:)`, `AsyncImage`), with no text, symbol,
    /// asset image, view of the app's own or accessibility modifier: a control whose whole label
    /// it is has no name (`image-without-label`, in the file of the control).
    func imageOnlyViews() -> Set<String> {
        var names = Set<String>()
        for declaration in index.typeDeclarations {
            guard let type = declaration.as(StructDeclSyntax.self),
                  let body = type.memberBlock.members.lazy.compactMap({ $0.decl.as(VariableDeclSyntax.self) })
                    .first(where: { $0.bindings.first?.pattern.sourceText == "body" }) else { continue }
            let calls = SourceFile.callsInSubtree(of: Syntax(body))
            // What an `AsyncImage` shows while it loads (a symbol, a spinner) is part of the picture.
            let loading = calls.filter { $0.calleeName == "AsyncImage" }.map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
            var pictures = 0
            var other = false
            for call in calls {
                guard let name = call.calleeName else { continue }
                if name != "AsyncImage", loading.contains(where: { $0.contains(call.position.utf8Offset) }) { continue }
                if name == "AsyncImage" || (name == "Image" && ["uiImage", "nsImage"].contains(call.arguments.first?.label?.text ?? "")) {
                    pictures += 1
                } else if ["Text", "Label", "Image", "TextField", "Button", "Toggle"].contains(name) || name.hasPrefix("accessibility") || name == "help"
                            || (name.first?.isUppercase == true && call.calledExpression.is(DeclReferenceExprSyntax.self)
                                && !AccessibilityLabels.systemViews.contains(name) && !ImageWithoutLabelRule.notViews.contains(name)) {
                    other = true
                }
            }
            if pictures > 0 && !other { names.insert(FileResult.imageOnlyPrefix + type.name.text) }
        }
        return names
    }

    /// The calls inside `root`, from one walk of its subtree (not a filter over the file's calls).
    static func callsInSubtree(of root: Syntax) -> [FunctionCallExprSyntax] {
        final class Collector: SyntaxVisitor {
            var calls: [FunctionCallExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                calls.append(node)
                return .visitChildren
            }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        for child in root.children(viewMode: .sourceAccurate) { collector.walk(child) }
        return collector.calls
    }
}
