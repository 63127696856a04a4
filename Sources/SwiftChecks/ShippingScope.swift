import SwiftSyntax

extension SourceFile {
    /// Code that never reaches a user: `#if DEBUG` (or `TARGET_INTERFACE_BUILDER`) branches and
    /// previews. A finding there is not about the shipped app.
    func isNonShipping(_ node: some SyntaxProtocol) -> Bool {
        if isInPreview(node) { return true }
        guard index.hasIfConfig else { return false }
        var current = Syntax(node).parent
        while let syntax = current {
            if let clause = syntax.as(IfConfigClauseSyntax.self), let condition = clause.condition,
               Self.isDebugOnly(condition), clause.poundKeyword.tokenKind == .poundIf || clause.poundKeyword.tokenKind == .poundElseif {
                return true
            }
            current = syntax.parent
        }
        return false
    }

    /// `DEBUG`, `DEBUG && os(iOS)`: true only in debug builds. `!DEBUG` and `DEBUG || X` are not.
    static func isDebugOnly(_ condition: ExprSyntax) -> Bool {
        if let reference = condition.as(DeclReferenceExprSyntax.self) {
            return ["DEBUG", "TARGET_INTERFACE_BUILDER"].contains(reference.baseName.text)
        }
        if let sequence = condition.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            guard elements.count == 3, let operatorToken = elements[1].as(BinaryOperatorExprSyntax.self),
                  operatorToken.operator.text == "&&" else { return false }
            return isDebugOnly(elements[0]) || isDebugOnly(elements[2])
        }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return isDebugOnly(only.expression)
        }
        return false
    }

    /// The name of the member property `node` lies in, when whether it ever renders depends on
    /// something reading that property: a static or instance property of a type or extension
    /// (a palette constant, a style's sample data). Not `body` (SwiftUI reads it), not an
    /// override or an `@objc`/Interface Builder property (the frameworks read those by name),
    /// and not when a function, initializer or accessor-free local scope comes first.
    func memberPropertyRequiringUse(around node: some SyntaxProtocol) -> String? {
        var current = Syntax(node).parent
        while let syntax = current {
            if let variable = syntax.as(VariableDeclSyntax.self) {
                guard variable.parent?.is(MemberBlockItemSyntax.self) == true,
                      variable.bindings.count == 1,
                      let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      name != "body",
                      !variable.modifiers.contains(where: { ["override", "dynamic"].contains($0.name.text) }),
                      !variable.attributes.contains(where: { attribute in
                          guard let attribute = attribute.as(AttributeSyntax.self) else { return true }
                          return Self.frameworkReadAttributes.contains(attribute.attributeName.trimmedDescription)
                      }) else { return nil }
                return name
            }
            if syntax.is(FunctionDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self) || syntax.is(SubscriptDeclSyntax.self)
                || syntax.is(DeinitializerDeclSyntax.self) || syntax.is(MemberBlockSyntax.self) || syntax.is(SourceFileSyntax.self) {
                return nil
            }
            current = syntax.parent
        }
        return nil
    }

    private static let frameworkReadAttributes: Set<String> = [
        "objc", "IBOutlet", "IBInspectable", "NSManaged", "IBAction", "GKInspectable",
    ]
}
