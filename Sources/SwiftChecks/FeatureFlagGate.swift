import SwiftSyntax

/// Code that runs only on one side of a feature flag (`if FeatureFlags.newComposer { … } else
/// { … }`): which side a release build takes is configuration (a default, a remote switch, a
/// debug menu), not something the source settles, so a claim there is for a person to check.
enum FeatureFlagGate {
    /// The flag condition `node` sits under: directly in an `if` branch on a flag, or in a
    /// property or function of its type that this file uses only inside such branches.
    static func condition(around node: some SyntaxProtocol, in file: SourceFile) -> String? {
        if let direct = branchCondition(around: Syntax(node)) { return direct }
        guard let member = enclosingMemberName(of: Syntax(node)), let offsets = file.index.references[member], !offsets.isEmpty,
              offsets.count <= 16 else { return nil }
        var gate: String?
        for offset in offsets {
            guard let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)),
                  let condition = branchCondition(around: Syntax(token)) else { return nil }
            gate = gate ?? condition
        }
        return gate
    }

    /// The condition of the nearest enclosing `if` branch, when it reads a feature flag.
    private static func branchCondition(around node: Syntax) -> String? {
        var current = node
        while let parent = current.parent {
            if let branch = parent.as(IfExprSyntax.self), current.id != Syntax(branch.conditions).id, readsFlag(branch.conditions) {
                return branch.conditions.sourceText
            }
            if parent.is(FunctionDeclSyntax.self) || parent.is(PatternBindingSyntax.self) || parent.is(ClosureExprSyntax.self) {
                return nil
            }
            current = parent
        }
        return nil
    }

    private static func readsFlag(_ conditions: ConditionElementListSyntax) -> Bool {
        conditions.tokens(viewMode: .sourceAccurate).contains { token in
            guard case .identifier(let name) = token.tokenKind else { return false }
            // `FeatureFlags.x`, `Features.isOn(.x)`, `isFeatureEnabled(…)`, a bare `Flags.x`;
            // not `modifierFlags`, an option set.
            return name.lowercased().contains("feature") || name == "Flags"
        }
    }

    private static func enclosingMemberName(of node: Syntax) -> String? {
        var current = node
        while let parent = current.parent {
            if let function = parent.as(FunctionDeclSyntax.self) { return function.name.text }
            if let binding = parent.as(PatternBindingSyntax.self) {
                return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            }
            if parent.is(ClosureExprSyntax.self) && parent.parent?.is(PatternBindingSyntax.self) != true { return nil }
            current = parent
        }
        return nil
    }
}
