import AuditModel
import SwiftSyntax

/// `target = value` as written (SwiftParser leaves sequences unfolded: `[target, =, value…]`).
struct Assignment {
    let node: SequenceExprSyntax
    let target: ExprSyntax
    /// The elements right of `=` (more than one for `a = b ?? c`).
    let value: [ExprSyntax]
    /// `self.label.font` → "label"; `titleLabel?.font` → "titleLabel"; `font` → "". Computed once
    /// here: several rules compare it for every assignment in the file.
    let targetObject: String
    /// The assigned property: `label.font` → "font".
    let targetProperty: String?

    init(node: SequenceExprSyntax, target: ExprSyntax, value: [ExprSyntax]) {
        self.node = node
        self.target = target
        self.value = value
        if let member = target.as(MemberAccessExprSyntax.self), let base = member.base {
            targetObject = Self.objectName(base)
        } else {
            targetObject = ""
        }
        targetProperty = target.memberName
    }

    var valueText: String { value.map(\.sourceText).joined(separator: " ") }

    /// `self.titleLabel?` → "titleLabel"; `self` → "". Names are built from tokens where the
    /// expression is a dotted name, which is far cheaper than printing it.
    static func objectName(_ base: ExprSyntax) -> String {
        var text = ExprSyntax.dottedName(base) ?? base.sourceText
        text.removeAll { $0 == "?" || $0 == "!" }
        if text.hasPrefix("self.") { text.removeFirst(5) }
        return text == "self" ? "" : text
    }
}

/// Everything the rules look up, gathered in one walk of the tree so no rule walks it again.
final class SourceIndex: SyntaxVisitor {
    private(set) var calls: [FunctionCallExprSyntax] = []
    /// Calls by callee name (`calleeName`), so a rule reads only the calls it is about: each
    /// rule filtering every call by name would cost more than the walk itself.
    private(set) var callsByName: [String: [FunctionCallExprSyntax]] = [:]
    private(set) var assignments: [Assignment] = []
    /// Identifier → offsets of references (`foo`, `.foo`, `\.foo`), for "does this scope read X".
    private(set) var references: [String: [Int]] = [:]
    /// Names of properties declared with `@ScaledMetric`: values that scale with Dynamic Type.
    private(set) var scaledMetricNames: Set<String> = []
    /// `let name = <call>` bindings: name → initializer call.
    private(set) var bindings: [String: [ExprSyntax]] = [:]
    /// Unconditional top-level imports (first path component), and all imports.
    private(set) var topLevelImports: Set<String> = []
    var hasIfConfig: Bool { !ifConfigClauses.isEmpty }
    /// Every `#if`/`#elseif`/`#else` clause of the file.
    private(set) var ifConfigClauses: [IfConfigClauseSyntax] = []
    /// The file holds an `#available` or `#unavailable` check.
    private(set) var hasAvailabilityCheck = false
    /// Struct and class declarations, for rules about a whole type.
    private(set) var typeDeclarations: [Syntax] = []
    /// Declared function and property names → their declarations (`FunctionDeclSyntax`,
    /// `PatternBindingSyntax`): "does this type override `accessibilityActivate()`", which
    /// `references` cannot answer because a declaration's own name is not a reference.
    private(set) var declarations: [String: [Syntax]] = [:]
    /// `#colorLiteral(…)`, `#Preview { … }` and other freestanding macros used as expressions.
    private(set) var macroExpansions: [MacroExpansionExprSyntax] = []
    /// Freestanding macros used as declarations (`#Preview { … }` among a type's members).
    private(set) var macroDeclarations: [MacroExpansionDeclSyntax] = []

    /// String literals of one plain segment that read as an identifier (`SettingsScene`): what
    /// code may pass as a storyboard identifier.
    private(set) var identifierLiterals: Set<String> = []

    init(_ tree: SourceFileSyntax) {
        super.init(viewMode: .sourceAccurate)
        walk(tree)
    }

    override func visit(_ node: AvailabilityConditionSyntax) -> SyntaxVisitorContinueKind {
        hasAvailabilityCheck = true
        return .visitChildren
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        if node.segments.count == 1, let segment = node.segments.first?.as(StringSegmentSyntax.self) {
            let text = segment.content.text
            if (2...64).contains(text.utf8.count), ASCII.isIdentifier(text) { identifierLiterals.insert(text) }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        if let name = node.calleeName { callsByName[name, default: []].append(node) }
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        macroExpansions.append(node)
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        macroDeclarations.append(node)
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) {
            assignments.append(Assignment(node: node, target: elements[0], value: Array(elements[2...])))
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        references[node.baseName.text, default: []].append(node.position.utf8Offset)
        // `Strings.FacetView`: a capitalised member of a capitalised name, a nested type or a
        // module's type (see `SourceFile.typeUseFacts`).
        if node.baseName.text.first?.isUppercase == true, let member = node.parent?.as(MemberAccessExprSyntax.self),
           member.declName.id == node.id, let base = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
           base.first?.isUppercase == true {
            qualifiers[node.position.utf8Offset] = base
        }
        return .visitChildren
    }

    /// For a capitalised name written after a capitalised one (`Strings.FacetView`), by where
    /// it is written: the name before it.
    private(set) var qualifiers: [Int: String] = [:]

    override func visit(_ node: KeyPathPropertyComponentSyntax) -> SyntaxVisitorContinueKind {
        references[node.declName.baseName.text, default: []].append(node.position.utf8Offset)
        return .visitChildren
    }

    /// Types named in type position (`let row: BadgeRow`, `[BadgeRow]`, `: BadgeView`), not as
    /// the subject of an `extension`: with `references`, what tells a type is used.
    private(set) var typeReferences: Set<String> = []
    /// Where each of `typeReferences` is named.
    private(set) var typeReferenceOffsets: [String: [Int]] = [:]

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        if node.parent?.is(ExtensionDeclSyntax.self) != true {
            typeReferences.insert(node.name.text)
            typeReferenceOffsets[node.name.text, default: []].append(node.position.utf8Offset)
        }
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        typeDeclarations.append(Syntax(node))
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        typeDeclarations.append(Syntax(node))
        return .visitChildren
    }

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        ifConfigClauses += node.clauses
        return .visitChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let module = node.path.first?.name.text, node.ancestor(IfConfigDeclSyntax.self) == nil {
            topLevelImports.insert(module)
        }
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let isScaled = node.attributes.contains { element in
            element.as(AttributeSyntax.self)?.attributeName.as(IdentifierTypeSyntax.self)?.name.text == "ScaledMetric"
        }
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if isScaled { scaledMetricNames.insert(name) }
            if let value = binding.initializer?.value { bindings[name, default: []].append(value) }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        declarations[node.name.text, default: []].append(Syntax(node))
        return .visitChildren
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            declarations[name, default: []].append(Syntax(node))
        }
        return .visitChildren
    }

    /// The file's one declaration of `name` when it is a function with a body (a helper a view
    /// calls): nil when there is none, several, or it is not a function.
    func soleFunction(named name: String) -> FunctionDeclSyntax? {
        guard let nodes = declarations[name], nodes.count == 1, let function = nodes[0].as(FunctionDeclSyntax.self),
              function.body != nil else { return nil }
        return function
    }

    /// The declarations of `name` inside `scope` (the whole file when `nil`).
    func declarations(_ name: String, in scope: Syntax?) -> [Syntax] {
        guard let nodes = declarations[name] else { return [] }
        guard let scope else { return nodes }
        let range = scope.position.utf8Offset..<scope.endPosition.utf8Offset
        return nodes.filter { range.contains($0.position.utf8Offset) }
    }

    func calls(named name: String) -> [FunctionCallExprSyntax] { callsByName[name] ?? [] }

    /// The calls to any of `names`, in source order.
    func calls(named names: Set<String>) -> [FunctionCallExprSyntax] {
        var result: [FunctionCallExprSyntax] = []
        for name in names { result.append(contentsOf: callsByName[name] ?? []) }
        return result.sorted { $0.position.utf8Offset < $1.position.utf8Offset }
    }

    /// Whether `name` is referenced anywhere inside `scope` (the whole file when `nil`).
    func references(_ name: String, in scope: Syntax?) -> Bool {
        guard let offsets = references[name] else { return false }
        guard let scope else { return true }
        let range = scope.position.utf8Offset..<scope.endPosition.utf8Offset
        return offsets.contains { range.contains($0) }
    }
}
