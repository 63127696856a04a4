import SwiftSyntax

extension SyntaxProtocol {
    /// The node's source without its leading and trailing trivia: `trimmedDescription`'s text,
    /// read from the tree's bytes. `trimmed` detaches the node and rebuilds it with new trivia,
    /// tens of thousands of instructions for a name compared once (4% of a scan of a large app).
    var sourceText: String {
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = bytes.count - trailingTriviaLength.utf8Length
        guard start < end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The node's source with runs of whitespace collapsed: what fingerprints and messages show.
    var normalizedText: String {
        sourceText.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
    }

    /// First ancestor (not self) of the given type.
    func ancestor<T: SyntaxProtocol>(_ type: T.Type) -> T? {
        var current = parent
        while let node = current {
            if let match = node.as(T.self) { return match }
            current = node.parent
        }
        return nil
    }

    /// The nearest enclosing type or extension declaration: the "view" or "object" a rule
    /// reasons about. `nil` at file scope.
    var enclosingTypeDecl: Syntax? {
        var current = parent
        while let node = current {
            // The kind is read from the raw node; `is(_:)` per type costs a cast each.
            switch node.kind {
            case .structDecl, .classDecl, .extensionDecl, .enumDecl, .actorDecl: return node
            default: current = node.parent
            }
        }
        return nil
    }

    /// The nearest enclosing method or function declaration; nil past a type's boundary.
    var enclosingFunction: FunctionDeclSyntax? {
        var current = parent
        while let node = current {
            switch node.kind {
            case .functionDecl: return node.as(FunctionDeclSyntax.self)
            case .structDecl, .classDecl, .extensionDecl, .enumDecl, .actorDecl, .protocolDecl: return nil
            default: current = node.parent
            }
        }
        return nil
    }

    /// The nearest enclosing function, initializer, accessor or closure-valued property: the
    /// scope in which UIKit code configures one object.
    var enclosingCodeBlockOwner: Syntax? {
        var current = parent
        while let node = current {
            switch node.kind {
            case .functionDecl, .initializerDecl, .accessorDecl, .patternBinding: return node
            default: current = node.parent
            }
        }
        return nil
    }
}

extension PatternBindingSyntax {
    /// The type a binding is written with: its annotation without `!` or `?` (`var close:
    /// UIButton!`), else the callee its initializer calls (`= UIButton(type: .system)`); nil
    /// when neither says.
    var writtenTypeName: String? {
        if let type = typeAnnotation?.type.sourceText.trimmingCharacters(in: ["!", "?"]) { return type }
        return initializer?.value.as(FunctionCallExprSyntax.self)?.calleeName
    }
}

extension FunctionCallExprSyntax {
    /// `Foo(…)` → "Foo"; `a.b.foo(…)` and `.foo(…)` → "foo".
    var calleeName: String? {
        if let reference = calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let specialized = calledExpression.as(GenericSpecializationExprSyntax.self),
           let reference = specialized.expression.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text
        }
        return nil
    }

    /// The base of `base.foo(…)`, as written (`nil` for `.foo(…)` and `foo(…)`). Rules compare it
    /// with names such as `UIFont`, `DispatchQueue.main`, `titleLabel?`, `ContinuousClock()`.
    /// Any other base, such as the view a SwiftUI modifier is applied to, is "…": printing a
    /// view chain for every call of every rule would cost as much as parsing the file.
    var calleeBaseText: String? {
        guard let base = calledExpression.as(MemberAccessExprSyntax.self)?.base else { return nil }
        return ExprSyntax.dottedName(base) ?? "…"
    }

    /// True for a modifier-style call `expr.foo(…)` whose base is a view expression.
    var isMemberCallWithBase: Bool {
        calledExpression.as(MemberAccessExprSyntax.self)?.base != nil
    }

    var argumentLabels: [String?] { arguments.map { $0.label?.text } }

    func argument(_ label: String) -> ExprSyntax? {
        arguments.first { $0.label?.text == label }?.expression
    }

    var firstUnlabeledArgument: ExprSyntax? {
        guard let first = arguments.first, first.label == nil else { return nil }
        return first.expression
    }

    /// All closures passed to the call: trailing, additional trailing, and closure arguments.
    var closures: [ClosureExprSyntax] {
        var result: [ClosureExprSyntax] = arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        if let trailing = trailingClosure { result.append(trailing) }
        result.append(contentsOf: additionalTrailingClosures.map(\.closure))
        return result
    }
}

extension ExprSyntax {
    /// Dotted names, optional chaining, force unwraps, `super`, argument-less calls and short
    /// subscripts, built from tokens; `nil` for anything else.
    static func dottedName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return "." + member.declName.baseName.text }
            return dottedName(base).map { $0 + "." + member.declName.baseName.text }
        }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return dottedName(optional.expression).map { $0 + "?" } }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return dottedName(forced.expression).map { $0 + "!" } }
        if expression.is(SuperExprSyntax.self) { return "super" }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
           call.additionalTrailingClosures.isEmpty {
            return dottedName(call.calledExpression).map { $0 + "()" }
        }
        if let subscripted = expression.as(SubscriptCallExprSyntax.self),
           subscripted.endPosition.utf8Offset - subscripted.position.utf8Offset <= 80 {
            return subscripted.sourceText
        }
        if expression.is(TypeExprSyntax.self) { return expression.sourceText }
        return nil
    }

    /// The value of a string literal without interpolation, also through `Text("…")` and
    /// `LocalizedStringKey("…")` / `String(localized: "…")` wrappers.
    var stringLiteralValue: String? {
        if let literal = self.as(StringLiteralExprSyntax.self) {
            var text = ""
            for segment in literal.segments {
                guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
                text += piece.content.text
            }
            return text
        }
        if let call = self.as(FunctionCallExprSyntax.self),
           let name = call.calleeName, ["Text", "LocalizedStringKey", "String", "NSLocalizedString"].contains(name),
           let first = call.arguments.first,
           first.label == nil || first.label?.text == "localized" {
            return first.expression.stringLiteralValue
        }
        return nil
    }

    /// True for a literal passed where SwiftUI takes a `LocalizedStringKey` (bare literal or
    /// `Text("…")`), or an explicit localisation call: such a key may be translated.
    var isLocalizableLiteral: Bool {
        if self.is(StringLiteralExprSyntax.self) { return true }
        if let call = self.as(FunctionCallExprSyntax.self), let name = call.calleeName {
            return ["Text", "LocalizedStringKey", "String", "NSLocalizedString"].contains(name)
        }
        return false
    }

    /// The value of a numeric literal, including `-3`, `12.5`, `CGFloat(12)`; nil for a literal
    /// too large to be finite (`1e400`), which no rule can reason about.
    var numberValue: Double? {
        guard let value = rawNumberValue, value.isFinite else { return nil }
        return value
    }

    private var rawNumberValue: Double? {
        if let integer = self.as(IntegerLiteralExprSyntax.self) {
            return Double(integer.literal.text.filter { $0 != "_" })
        }
        if let float = self.as(FloatLiteralExprSyntax.self) {
            return Double(float.literal.text.filter { $0 != "_" })
        }
        if let prefix = self.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           let value = prefix.expression.numberValue {
            return -value
        }
        if let call = self.as(FunctionCallExprSyntax.self), let name = call.calleeName,
           ["CGFloat", "Double", "Float"].contains(name), call.arguments.count == 1,
           let value = call.arguments.first?.expression.numberValue {
            return value
        }
        return nil
    }

    /// A literal or arithmetic on literals (`59 / 255`, `(0.5)`, `CGFloat(0.5)`); nil when not
    /// finite (`1e308 * 10`) or not constant.
    var constantValue: Double? {
        if let value = numberValue { return value }
        if let tuple = self.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return inner.expression.constantValue
        }
        guard let sequence = self.as(SequenceExprSyntax.self) else { return nil }
        let elements = Array(sequence.elements)
        guard elements.count == 3, let lhs = elements[0].constantValue, let rhs = elements[2].constantValue,
              let op = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text else { return nil }
        let value: Double
        switch op {
        case "/": value = rhs == 0 ? .nan : lhs / rhs
        case "*": value = lhs * rhs
        case "+": value = lhs + rhs
        case "-": value = lhs - rhs
        default: return nil
        }
        return value.isFinite ? value : nil
    }

    /// `.foo` or `Type.foo` → "foo"; `.foo(…)` → "foo".
    var memberName: String? {
        if let member = self.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let call = self.as(FunctionCallExprSyntax.self) { return call.calleeName }
        if let reference = self.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return nil
    }

    /// `true` / `false` literal.
    var booleanValue: Bool? {
        guard let literal = self.as(BooleanLiteralExprSyntax.self) else { return nil }
        return literal.literal.tokenKind == .keyword(.true)
    }
}

extension TypeSyntax {
    /// `View`, `SwiftUI.View` → "View"/"SwiftUI.View" from tokens; other types printed.
    var typeName: String {
        if let identifier = self.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            return identifier.name.text
        }
        if let member = self.as(MemberTypeSyntax.self), member.genericArgumentClause == nil {
            return member.baseType.typeName + "." + member.name.text
        }
        return sourceText
    }
}

/// A SwiftUI modifier chain: `Root(…).a(…).b(…)`, seen from any call in it.
struct ModifierChain {
    /// The expression the modifiers are applied to (`Image("x")`, `HStack { … }`).
    let root: ExprSyntax
    /// The modifier calls from innermost to outermost.
    let modifiers: [FunctionCallExprSyntax]
    /// The outermost expression of the chain.
    let outermost: ExprSyntax

    /// The chain that `expression` belongs to, whether it is the root or one of the modifiers.
    init(containing expression: ExprSyntax) {
        // Down to the root through `base` links.
        var root = expression
        while let call = root.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            root = base
        }
        // Up from the root, collecting every `.modifier(…)` applied.
        var modifiers: [FunctionCallExprSyntax] = []
        var current = root
        while let member = current.parent?.as(MemberAccessExprSyntax.self),
              member.base?.id == current.id,
              let call = member.parent?.as(FunctionCallExprSyntax.self),
              call.calledExpression.id == member.id {
            modifiers.append(call)
            current = ExprSyntax(call)
        }
        // A bare `.modifier` with no arguments (`.bold`) is a member access, not a call: skip
        // over it so the chain continues.
        self.root = root
        self.modifiers = modifiers
        self.outermost = current
    }

    func has(_ name: String) -> Bool { modifiers.contains { $0.calleeName == name } }
    func modifiers(named name: String) -> [FunctionCallExprSyntax] { modifiers.filter { $0.calleeName == name } }
    var names: Set<String> { Set(modifiers.compactMap(\.calleeName)) }

    /// `.accessibilityHidden(true)` or the older `.accessibility(hidden: true)`; or `.hidden()`,
    /// which takes the view out of both the screen and the accessibility tree (a layout
    /// placeholder). A `.hidden(flag)` of the app's own is not SwiftUI's and decides nothing.
    var isHiddenFromAccessibility: Bool {
        modifiers.contains { call in
            (call.calleeName == "hidden" && call.arguments.isEmpty && call.trailingClosure == nil)
                || (call.calleeName == "accessibilityHidden" && call.firstUnlabeledArgument?.booleanValue != false)
                || (call.calleeName == "accessibility" && call.argument("hidden")?.booleanValue == true)
        }
    }

    /// An explicit label: `.accessibilityLabel(…)` or `.accessibility(label:)`.
    var hasAccessibilityLabel: Bool {
        modifiers.contains { call in
            call.calleeName == "accessibilityLabel" || (call.calleeName == "accessibility" && call.argument("label") != nil)
        }
    }

    /// `.accessibilityElement(children: .combine | .ignore)`: children's labels are merged or replaced.
    var groupsChildren: Bool {
        modifiers.contains { call in
            guard call.calleeName == "accessibilityElement" else { return false }
            guard let children = call.argument("children") else { return true } // default is .ignore
            return children.memberName == "combine" || children.memberName == "ignore"
        }
    }

    /// `.accessibilityElement(children: .combine)`: one element whose label joins its children's.
    var combinesChildren: Bool {
        modifiers.contains { $0.calleeName == "accessibilityElement" && $0.argument("children")?.memberName == "combine" }
    }

    /// The traits added with `.accessibilityAddTraits(…)` or `.accessibility(addTraits:)`.
    var addedTraits: Set<String> {
        var traits: Set<String> = []
        for call in modifiers where call.calleeName == "accessibilityAddTraits"
            || (call.calleeName == "accessibility" && call.argument("addTraits") != nil) {
            let argument = call.argument("addTraits") ?? call.firstUnlabeledArgument
            guard let argument else { continue }
            for token in argument.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind { traits.insert(name) }
            }
        }
        return traits
    }
}

extension SyntaxProtocol {
    /// The view-builder calls this node sits in, innermost first: `Button { Image(…) }` gives
    /// the `Button` call for the image. Stops at declarations.
    var enclosingViewCalls: [FunctionCallExprSyntax] { enclosingViewCalls(memo: nil) }

    /// As `enclosingViewCalls`, remembering the answer for every closure passed on the way:
    /// sibling views share their containers, and walking up from each one again is the
    /// costliest part of pairing colours in a large view.
    func enclosingViewCalls(memo: EnclosingViewCallsMemo?) -> [FunctionCallExprSyntax] {
        var result: [FunctionCallExprSyntax] = []
        var pending: [(closure: SyntaxIdentifier, from: Int)] = []
        var current = Syntax(self).parent
        walk: while let node = current {
            // Kinds, not `is(_:)` casts: this walk runs for every coloured element. An `#if`
            // inside a view builder is not a declaration boundary: its views are the closure's.
            if node.kind != .variableDecl && node.kind != .ifConfigDecl && node.kind.isDeclaration { break }
            if node.kind == .closureExpr, let closure = node.as(ClosureExprSyntax.self) {
                if let known = memo?.containers[closure.id] {
                    result += known
                    break walk
                }
                pending.append((closure.id, result.count))
                var owner = closure.parent
                if owner?.is(LabeledExprSyntax.self) == true { owner = owner?.parent?.parent }
                if owner?.is(MultipleTrailingClosureElementSyntax.self) == true { owner = owner?.parent?.parent }
                if let call = owner?.as(FunctionCallExprSyntax.self) { result.append(call) }
            }
            if node.kind == .functionDecl || node.kind == .patternBinding { break }
            current = node.parent
        }
        if let memo {
            for entry in pending { memo.containers[entry.closure] = Array(result[entry.from...]) }
        }
        return result
    }
}

extension SyntaxKind {
    /// Whether nodes of this kind are `DeclSyntax` (what `is(DeclSyntax.self)` answers),
    /// without a cast. `using` declarations (experimental) occur only at file scope.
    var isDeclaration: Bool {
        switch self {
        case .accessorDecl, .actorDecl, .associatedTypeDecl, .classDecl, .deinitializerDecl, .editorPlaceholderDecl,
             .enumCaseDecl, .enumDecl, .extensionDecl, .functionDecl, .ifConfigDecl, .importDecl, .initializerDecl,
             .macroDecl, .macroExpansionDecl, .missingDecl, .operatorDecl, .poundSourceLocation, .precedenceGroupDecl,
             .protocolDecl, .structDecl, .subscriptDecl, .typeAliasDecl, .unexpectedCodeDecl, .variableDecl:
            true
        default:
            false
        }
    }
}

/// Per-file cache for `enclosingViewCalls(memo:)`.
final class EnclosingViewCallsMemo {
    var containers: [SyntaxIdentifier: [FunctionCallExprSyntax]] = [:]
}

extension FunctionCallExprSyntax {
    /// `Image(systemName:).font(.system(size: 8))` (through other modifiers),
    /// `UIImage.SymbolConfiguration(font:)`: this font sizes a symbol image, not text, and
    /// symbols scale by their own configuration.
    var sizesSymbolImage: Bool {
        var node = Syntax(self).parent
        while let current = node, !current.is(CodeBlockItemSyntax.self), !current.is(DeclSyntax.self) {
            if let outer = current.as(FunctionCallExprSyntax.self) {
                if outer.initializedTypeName == "SymbolConfiguration" { return true }
                if outer.calleeName == "font", outer.isMemberCallWithBase { return outer.fontModifierRoot?.calleeName == "Image" }
            }
            node = current.parent
        }
        return false
    }

    /// For a `.font(…)` modifier, the call its modifier chain starts from: `Text(…)` in
    /// `Text(…).bold().font(.title)`.
    var fontModifierRoot: FunctionCallExprSyntax? {
        guard calleeName == "font", isMemberCallWithBase else { return nil }
        return ModifierChain(containing: ExprSyntax(self)).root.as(FunctionCallExprSyntax.self)
    }
}

extension ExprSyntax {
    /// Whether this `#if` condition can hold only where a term `matches` does: the term itself,
    /// in parentheses, or one side of `a && b` (not of `||`, and not negated).
    func requiresConjunct(_ matches: (ExprSyntax) -> Bool) -> Bool {
        if matches(self) { return true }
        if let tuple = self.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return inner.expression.requiresConjunct(matches)
        }
        if let sequence = self.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            guard elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "&&" else { return false }
            return elements[0].requiresConjunct(matches) || elements[2].requiresConjunct(matches)
        }
        return false
    }
}
