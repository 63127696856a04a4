import AuditModel
import SwiftSyntax

/// A status dot: a shape whose colour is chosen by state, with nothing else that says the state.
struct ColorOnlyStatusRule: SourceRule {
    let description = RuleDescription(
        id: "color-only-status",
        title: "Status shown by colour alone",
        platforms: .all,
        // On the seed-16 sample both findings were wrong: colours of a button's own states
        // (pressed, disabled) and a capsule behind a badge that names its state. Whether a colour
        // carries a state nothing else shows takes a person until the rule models both.
        kind: .requirement, certainty: .review,
        rationale: """
            A green/red dot is the same grey dot to someone who cannot tell those colours apart, \
            and says nothing to VoiceOver. When a shape's colour is chosen by a condition \
            (`isOnline ? .green : .red`, a `switch` on a status) and no text, icon or \
            accessibility label or value travels with it, the state is carried by colour alone.
            """,
        citations: [
            Citation("HIG › Accessibility, Vision",
                     "Convey information with more than color alone."),
            Citation("HIG › Accessibility, Vision",
                     "Offer visual indicators, like distinct shapes or icons, in addition to color to help people perceive differences in function and changes in state."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "No information conveyed by color alone -- always provide text or icon alternatives."),
            Citation("HIG › Accessibility",
                     "Perceivable. Your interface doesn't rely on any single method to convey information."),
        ],
        fix: """
            Add a second channel: a `Text`/`Label` naming the state next to the shape, or an icon \
            whose symbol changes with it (`Image(systemName: isOnline ? "checkmark.circle.fill" : \
            "xmark.circle")`), and give the indicator `.accessibilityLabel("Status")` with \
            `.accessibilityValue(isOnline ? "Online" : "Offline")`. In UIKit set the view's \
            `accessibilityLabel`/`accessibilityValue` and show the state in text or an image.
            """,
        limitations: """
            SwiftUI: shapes (`Circle`, `Capsule`, `Rectangle`, `RoundedRectangle`, `Ellipse`) \
            filled or styled with a ternary of colours, or with a `let`, computed property or method \
            of the same type whose body chooses by `switch`/`if`/ternary. A colour read from a model \
            (`status.color`) is not followed. Any text, image, label or custom view in the same \
            chain, in the view it decorates, or in the innermost enclosing stack counts as another \
            channel, even if it does not name the state; so does an accessibility label or value \
            anywhere up the enclosing views, or on a use of this view elsewhere in the file. \
            UIKit: `backgroundColor`/`tintColor` set by a ternary on a view named like an indicator \
            (status, indicator, dot, light, badge…), unless that view gets an accessibility label or \
            value, text or image in its type, or another statement in the function shows the \
            same condition.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct PresenceDot: View {
                    let isOnline: Bool
                    var body: some View {
                        ↓Circle()
                            .fill(isOnline ? .green : .red)
                            .frame(width: 10, height: 10)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct BuildRow: View {
                    let passed: Bool
                    var body: some View {
                        HStack {
                            ↓Capsule().foregroundStyle(passed ? Color.green : Color.red)
                                .frame(width: 40, height: 6)
                            Spacer()
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                enum Health { case good, degraded, down }
                struct HealthLight: View {
                    let health: Health
                    var statusColor: Color {
                        switch health {
                        case .good: .green
                        case .degraded: .orange
                        case .down: .red
                        }
                    }
                    var body: some View {
                        ↓RoundedRectangle(cornerRadius: 3).fill(statusColor).frame(width: 12, height: 12)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ServerCell: UITableViewCell {
                    let statusDot = UIView()
                    func configure(isReachable: Bool) {
                        ↓statusDot.backgroundColor = isReachable ? .systemGreen : .systemRed
                    }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct PresenceRow: View {
                    let name: String
                    let isOnline: Bool
                    var body: some View {
                        HStack {
                            Circle().fill(isOnline ? .green : .gray).frame(width: 8, height: 8)
                            Text(isOnline ? "Online" : "Offline")
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct PresenceDot: View {
                    let isOnline: Bool
                    var body: some View {
                        Circle()
                            .fill(isOnline ? .green : .red)
                            .frame(width: 10, height: 10)
                            .accessibilityLabel("Status")
                            .accessibilityValue(isOnline ? "Online" : "Offline")
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Check: View {
                    let ok: Bool
                    var body: some View {
                        Circle()
                            .fill(ok ? .green : .red)
                            .overlay(Image(systemName: ok ? "checkmark" : "xmark"))
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Tag: View {
                    let isSelected: Bool
                    var body: some View {
                        Text("Swift")
                            .padding(4)
                            .background(Capsule().fill(isSelected ? Color.accentColor : Color.gray))
                        Circle().fill(Color.blue)
                        Circle().fill(isSelected ? .blue : .clear)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ServerCell: UITableViewCell {
                    let statusDot = UIView()
                    let statusLabel = UILabel()
                    func configure(isReachable: Bool) {
                        statusDot.backgroundColor = isReachable ? .systemGreen : .systemRed
                        statusLabel.text = isReachable ? "Reachable" : "Unreachable"
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Dot: View {
                    let on: Bool
                    var body: some View { Circle().fill(on ? .green : .red) }
                }
                struct Panel: View {
                    var body: some View {
                        Dot(on: true).accessibilityLabel("Power").accessibilityValue("On")
                    }
                }
                """),
        ]
    )

    private static let shapes: Set<String> = [
        "Circle", "Capsule", "Rectangle", "RoundedRectangle", "Ellipse", "UnevenRoundedRectangle", "ContainerRelativeShape",
    ]
    private static let colorModifiers: Set<String> = ["fill", "foregroundStyle", "foregroundColor"]
    /// Views that carry no words or symbols of their own.
    private static let silentViews: Set<String> = Set([
        "HStack", "VStack", "ZStack", "LazyHStack", "LazyVStack", "Group", "Spacer", "Divider", "Color",
        "GeometryReader", "ForEach", "Grid", "GridRow",
    ]).union(shapes)
    private static let colorNames: Set<String> = [
        "red", "green", "blue", "orange", "yellow", "pink", "purple", "gray", "grey", "black", "white", "mint",
        "teal", "cyan", "indigo", "brown", "accentColor", "primary", "secondary", "tertiary",
        "systemRed", "systemGreen", "systemBlue", "systemOrange", "systemYellow", "systemPink", "systemPurple",
        "systemGray", "systemMint", "systemTeal", "systemCyan", "systemIndigo", "systemBrown", "tintColor",
    ]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        var reported: Set<SyntaxIdentifier> = []
        for call in file.index.calls(named: Self.colorModifiers) {
            guard let name = call.calleeName, Self.colorModifiers.contains(name), call.isMemberCallWithBase,
                  let argument = call.firstUnlabeledArgument else { continue }
            let chain = ModifierChain(containing: ExprSyntax(call))
            guard let shape = chain.root.as(FunctionCallExprSyntax.self), let shapeName = shape.calleeName,
                  shape.calledExpression.is(DeclReferenceExprSyntax.self), Self.shapes.contains(shapeName),
                  let choice = Self.conditionalColor(argument, at: call, file) else { continue }
            guard !reported.contains(shape.id), !hasOtherChannel(chain, file) else { continue }
            reported.insert(shape.id)
            sink.report(call, """
                `\(shapeName)` shows state only through `.\(name)(\(argument.normalizedText))`\(choice): no text, icon, or accessibility \
                label or value goes with it, so people who can't tell the colours apart, and VoiceOver users, \
                can't tell the states apart
                """)
        }
        checkUIKit(file, &sink)
    }

    // MARK: - SwiftUI

    /// When `argument` picks a colour by condition: how (empty for an inline ternary).
    private static func conditionalColor(_ argument: ExprSyntax, at node: some SyntaxProtocol, _ file: SourceFile) -> String? {
        if let ternary = TernaryParts(argument) {
            return isColorChoice(ternary) ? "" : nil
        }
        var name: String?
        if let reference = argument.as(DeclReferenceExprSyntax.self) { name = reference.baseName.text }
        if let call = argument.as(FunctionCallExprSyntax.self), call.calledExpression.is(DeclReferenceExprSyntax.self) {
            name = call.calleeName
        }
        guard let name else { return nil }
        if let bound = file.index.bindings[name], bound.count == 1, let value = bound.first,
           let ternary = TernaryParts(value), isColorChoice(ternary) {
            return " (`\(name) = \(value.normalizedText)`)"
        }
        // A computed property or method of the same type whose body chooses a colour.
        guard let type = node.enclosingTypeDecl else { return nil }
        for member in type.memberDecls {
            var body: CodeBlockItemListSyntax?
            if let variable = member.as(VariableDeclSyntax.self),
               let binding = variable.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }),
               let accessors = binding.accessorBlock?.accessors {
                body = accessors.as(CodeBlockItemListSyntax.self)
                    ?? accessors.as(AccessorDeclListSyntax.self)?.first(where: { $0.accessorSpecifier.text == "get" })?.body?.statements
            }
            if let function = member.as(FunctionDeclSyntax.self), function.name.text == name {
                body = function.body?.statements
            }
            if let body, choosesByState(body) { return " (`\(name)` picks the colour by condition)" }
        }
        return nil
    }

    /// Every branch is a colour, and none is `.clear` (appearing and disappearing is not colour).
    private static func isColorChoice(_ ternary: TernaryParts) -> Bool {
        ternary.branches.allSatisfy(isColor) && !ternary.branches.contains { $0.memberName == "clear" }
    }

    private static func isColor(_ expression: ExprSyntax) -> Bool {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let type = call.initializedTypeName { return ["Color", "UIColor", "NSColor"].contains(type) }
            // `.green.opacity(0.5)`
            if let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base { return isColor(base) }
            return false
        }
        guard let member = expression.as(MemberAccessExprSyntax.self) else { return false }
        if let base = member.base?.sourceText, ["Color", "UIColor", "NSColor", "SwiftUI.Color"].contains(base) {
            return true
        }
        if let base = member.base { return isColor(base) }
        return colorNames.contains(member.declName.baseName.text)
    }

    /// A getter or function body whose value depends on a `switch`, `if` or ternary.
    private static func choosesByState(_ statements: CodeBlockItemListSyntax) -> Bool {
        statements.contains { statement in
            var item = Syntax(statement.item)
            if let returned = item.as(ReturnStmtSyntax.self)?.expression { item = Syntax(returned) }
            if let expression = item.as(ExpressionStmtSyntax.self)?.expression { item = Syntax(expression) }
            if item.is(SwitchExprSyntax.self) || item.is(IfExprSyntax.self) { return true }
            if let expression = item.as(ExprSyntax.self), let ternary = TernaryParts(expression) { return isColorChoice(ternary) }
            return false
        }
    }

    private static let textualViews: Set<String> = ["Text", "Image", "Label", "AsyncImage", "TextField", "SecureField"]

    /// Text, an icon or an accessibility label/value that goes with the shape.
    private func hasOtherChannel(_ chain: ModifierChain, _ file: SourceFile) -> Bool {
        if chain.hasAccessibilityLabel || chain.has("accessibilityValue") || chain.isHiddenFromAccessibility { return true }
        // An icon or text laid over the shape.
        if file.calls(inside: chain.outermost).contains(where: Self.carriesContent) { return true }
        // The shape decorates another view: `.background(Capsule().fill(…))`.
        if let host = hostModifier(of: chain.outermost) {
            let hostChain = ModifierChain(containing: ExprSyntax(host))
            if hostChain.hasAccessibilityLabel || hostChain.has("accessibilityValue") { return true }
            if let root = hostChain.root.as(FunctionCallExprSyntax.self), Self.carriesContent(root) { return true }
            if file.calls(inside: hostChain.root).contains(where: Self.carriesContent) { return true }
            if !hostChain.root.is(FunctionCallExprSyntax.self) { return true } // a view we cannot see into
        }
        // Siblings in the innermost stack.
        let containers = chain.outermost.enclosingViewCalls
        if let container = containers.first, file.calls(inside: container).contains(where: Self.carriesContent) {
            return true
        }
        // Siblings directly in `body` (an implicit group) when no stack encloses the shape.
        if containers.isEmpty, let list = chain.outermost.parent?.as(CodeBlockItemSyntax.self)?.parent,
           file.calls(inside: list).contains(where: Self.carriesContent) {
            return true
        }
        // A label or value anywhere up the view hierarchy of this body.
        for container in containers {
            let outer = ModifierChain(containing: ExprSyntax(container))
            if outer.hasAccessibilityLabel || outer.has("accessibilityValue") { return true }
        }
        // This type used elsewhere in the file, labelled there.
        if let typeName = chain.outermost.enclosingTypeDecl?.declaredTypeName {
            for use in file.index.calls(named: typeName) where use.calledExpression.is(DeclReferenceExprSyntax.self) {
                let useChain = ModifierChain(containing: ExprSyntax(use))
                if useChain.hasAccessibilityLabel || useChain.has("accessibilityValue") { return true }
                if let container = useChain.outermost.enclosingViewCalls.first,
                   file.calls(inside: container).contains(where: { $0.id != use.id && Self.carriesContent($0) }) {
                    return true
                }
            }
        }
        return false
    }

    /// `Text`, `Image`, `Label`, or a custom view (which may well show text).
    private static func carriesContent(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = call.calleeName else { return false }
        if textualViews.contains(name) { return true }
        if call.calledExpression.is(DeclReferenceExprSyntax.self), name.first?.isUppercase == true,
           !silentViews.contains(name), !["Color", "UIColor", "NSColor", "Font"].contains(name) {
            return true
        }
        return false
    }

    /// The `.background(…)`/`.overlay(…)` call the expression is the content of.
    private func hostModifier(of expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var current = Syntax(expression).parent
        while let node = current {
            if let call = node.as(FunctionCallExprSyntax.self) {
                guard let name = call.calleeName, ["background", "overlay", "mask"].contains(name),
                      call.isMemberCallWithBase else { return nil }
                return call
            }
            if node.is(CodeBlockItemSyntax.self) && node.parent?.parent?.is(ClosureExprSyntax.self) != true { return nil }
            if node.is(DeclSyntax.self) { return nil }
            if let closure = node.as(ClosureExprSyntax.self) {
                guard let owner = FunctionCallExprSyntax.owner(of: closure), let name = owner.calleeName,
                      ["background", "overlay", "mask"].contains(name) else { return nil }
                return owner
            }
            current = node.parent
        }
        return nil
    }

    // MARK: - UIKit

    private static let indicatorWords: Set<String> = [
        "status", "indicator", "dot", "light", "badge", "state", "presence", "availability", "led", "online",
    ]
    private static let describingProperties: Set<String> = [
        "accessibilityLabel", "accessibilityValue", "text", "attributedText", "image", "title",
    ]

    private func checkUIKit(_ file: SourceFile, _ sink: inout FindingSink) {
        for assignment in file.index.assignments {
            guard let property = assignment.targetProperty, property == "backgroundColor" || property == "tintColor",
                  let ternary = TernaryParts(elements: assignment.value), Self.isColorChoice(ternary) else { continue }
            let object = assignment.targetObject
            let root = object.split(separator: ".").first.map(String.init) ?? ""
            guard !root.isEmpty, !Set(identifierWords(root)).isDisjoint(with: Self.indicatorWords) else { continue }
            // The same view described in its type (or file).
            let scope = assignment.node.enclosingTypeDecl ?? Syntax(file.tree)
            let described = file.assignments(inside: scope).contains { other in
                other.targetObject.split(separator: ".").first.map(String.init) == root
                    && Self.describingProperties.contains(other.targetProperty ?? "")
            }
            if described { continue }
            // Another statement in the function shows the same condition (a label's text, an image).
            let conditionNames = ternary.conditions.flatMap { condition in
                condition.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                    if case .identifier(let name) = token.tokenKind { return name }
                    return nil
                }
            }
            if let owner = assignment.node.enclosingCodeBlockOwner {
                let others = file.assignments(inside: owner).filter { other in
                    other.node.id != assignment.node.id && !(other.targetProperty ?? "").hasSuffix("Color")
                }
                let echoed = others.contains { other in
                    other.value.contains { part in conditionNames.contains { file.index.references($0, in: Syntax(part)) } }
                }
                if echoed { continue }
            }
            sink.report(assignment.node, """
                `\(assignment.node.normalizedText)` shows state only through colour: nothing else in this type gives \
                `\(root)` a text, image or accessibility label or value for the state
                """, platforms: file.platforms(at: assignment.node).intersection(.uiKit))
        }
    }
}
