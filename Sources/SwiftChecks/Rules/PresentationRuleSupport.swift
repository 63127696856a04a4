import SwiftSyntax

// Shared by the font, colour, presentation and timing rules. Every query here filters the
// file's one index by source range or climbs a node's ancestors; none walks the tree again.

extension SyntaxProtocol {
    /// Byte offsets of the node's text, trivia excluded.
    var offsetRange: Range<Int> {
        positionAfterSkippingLeadingTrivia.utf8Offset..<endPositionBeforeTrailingTrivia.utf8Offset
    }

    /// Whether `other`'s text lies within this node's text.
    func spans(_ other: some SyntaxProtocol) -> Bool {
        let outer = offsetRange
        let inner = other.offsetRange
        return outer.lowerBound <= inner.lowerBound && inner.upperBound <= outer.upperBound
    }
}

extension Syntax {
    /// The members of a type or extension declaration (shallow: no walk).
    var memberDecls: [DeclSyntax] {
        if let decl = self.as(ClassDeclSyntax.self) { return decl.memberBlock.members.map(\.decl) }
        if let decl = self.as(StructDeclSyntax.self) { return decl.memberBlock.members.map(\.decl) }
        if let decl = self.as(EnumDeclSyntax.self) { return decl.memberBlock.members.map(\.decl) }
        if let decl = self.as(ActorDeclSyntax.self) { return decl.memberBlock.members.map(\.decl) }
        if let decl = self.as(ExtensionDeclSyntax.self) { return decl.memberBlock.members.map(\.decl) }
        return []
    }
}

extension SyntaxProtocol {
    /// The inheritance clause of a type declaration, as written (`UILabel`, `View`).
    var inheritedTypeNames: [String]? {
        let clause: InheritanceClauseSyntax?
        if let decl = self.as(ClassDeclSyntax.self) { clause = decl.inheritanceClause }
        else if let decl = self.as(StructDeclSyntax.self) { clause = decl.inheritanceClause }
        else if let decl = self.as(ExtensionDeclSyntax.self) { clause = decl.inheritanceClause }
        else if let decl = self.as(EnumDeclSyntax.self) { clause = decl.inheritanceClause }
        else { return nil }
        return clause?.inheritedTypes.map { $0.type.typeName } ?? []
    }
}

extension FunctionCallExprSyntax {
    /// The type an initializer call builds: `UIColor(…)`, `UIColor.init(…)`, `SwiftUI.Color(…)`
    /// → "UIColor" / "Color". `nil` for method calls and `.init(…)` with no written type.
    var initializedTypeName: String? {
        if let reference = calledExpression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            return name.first?.isUppercase == true ? name : nil
        }
        if let member = calledExpression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            if name == "init" {
                guard let base = member.base?.sourceText else { return nil }
                return base.split(separator: ".").last.map(String.init)
            }
            return name.first?.isUppercase == true && member.base != nil ? name : nil
        }
        if let specialized = calledExpression.as(GenericSpecializationExprSyntax.self),
           let reference = specialized.expression.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text
        }
        return nil
    }

    /// The call whose closure (trailing or argument) `closure` is, if any.
    static func owner(of closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        var owner = closure.parent
        if owner?.is(LabeledExprSyntax.self) == true { owner = owner?.parent?.parent }
        if owner?.is(MultipleTrailingClosureElementSyntax.self) == true { owner = owner?.parent?.parent }
        return owner?.as(FunctionCallExprSyntax.self)
    }

    /// The label under which `closure` is passed (`execute`, `dynamicProvider`); `nil` when trailing.
    static func argumentLabel(of closure: ClosureExprSyntax) -> String? {
        if let labeled = closure.parent?.as(LabeledExprSyntax.self) { return labeled.label?.text }
        if let element = closure.parent?.as(MultipleTrailingClosureElementSyntax.self) { return element.label.text }
        return nil
    }
}

/// `condition ? a : b` as SwiftParser leaves it (an unfolded sequence), nested ternaries included.
struct TernaryParts {
    /// The elements before the first `?` and between later `:`/`?`: what the choice depends on.
    let conditions: [ExprSyntax]
    /// Every value the expression can take.
    let branches: [ExprSyntax]

    var conditionText: String { conditions.map(\.sourceText).joined(separator: " ") }

    init?(_ expression: ExprSyntax) {
        self.init(elements: [expression])
    }

    /// From the elements of an unfolded sequence, e.g. the right-hand side of an `Assignment`.
    init?(elements: [ExprSyntax]) {
        guard let parts = Self.parse(elements) else { return nil }
        (conditions, branches) = parts
    }

    private static func parse(_ elements: [ExprSyntax]) -> ([ExprSyntax], [ExprSyntax])? {
        if elements.count == 1, var expression = elements.first {
            while let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
                  let inner = tuple.elements.first, inner.label == nil {
                expression = inner.expression
            }
            if let folded = expression.as(TernaryExprSyntax.self) {
                return ([folded.condition], [folded.thenExpression, folded.elseExpression])
            }
            guard let sequence = expression.as(SequenceExprSyntax.self) else { return nil }
            return parse(Array(sequence.elements))
        }
        guard let lastTernary = elements.lastIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
              lastTernary == elements.count - 2, let last = elements.last else { return nil }
        var conditions: [ExprSyntax] = []
        var branches: [ExprSyntax] = []
        for element in elements.dropLast() {
            if let ternary = element.as(UnresolvedTernaryExprSyntax.self) {
                branches.append(ternary.thenExpression)
            } else {
                conditions.append(element)
            }
        }
        guard !conditions.isEmpty else { return nil }
        branches.append(last)
        return (conditions, branches)
    }
}

/// Splits an identifier into lower-cased words: `showToastBanner` → show, toast, banner;
/// `isHUDVisible` → is, hud, visible.
func identifierWords(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
        if character == "_" || character == "$" || character.isNumber {
            if !current.isEmpty { words.append(current.lowercased()) }
            current = ""
            continue
        }
        if character.isUppercase, !current.isEmpty {
            let previousIsLower = current.last?.isLowercase == true
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            if previousIsLower || nextIsLower {
                words.append(current.lowercased())
                current = ""
            }
        }
        current.append(character)
    }
    if !current.isEmpty { words.append(current.lowercased()) }
    return words
}

extension SourceFile {
    /// Calls whose text lies inside `node` (not `node` itself).
    func calls(inside node: some SyntaxProtocol) -> [FunctionCallExprSyntax] {
        let range = node.offsetRange
        return index.calls.filter { call in
            call.id != node.id && range.lowerBound <= call.positionAfterSkippingLeadingTrivia.utf8Offset
                && call.endPositionBeforeTrailingTrivia.utf8Offset <= range.upperBound
        }
    }

    /// `a.b = c` statements whose text lies inside `node`.
    func assignments(inside node: some SyntaxProtocol) -> [Assignment] {
        let range = node.offsetRange
        return index.assignments.filter { range.contains($0.node.positionAfterSkippingLeadingTrivia.utf8Offset) }
    }
}
