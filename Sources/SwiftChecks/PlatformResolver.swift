import AuditModel
import SwiftSyntax

/// Decides which platforms a piece of code is compiled for: the project's platforms, narrowed
/// by the file's unconditional imports, narrowed by the `#if os(…)` clauses around the code.
struct PlatformResolver {
    let filePlatforms: PlatformSet

    init(project: PlatformSet?, imports: Set<String>, override: PlatformSet?) {
        if let override {
            filePlatforms = override
            return
        }
        let base = project ?? .all
        var fromImports = PlatformSet()
        if imports.contains("AppKit") || imports.contains("Cocoa") { fromImports.insert(PlatformSet(.macOS)) }
        if imports.contains("UIKit") { fromImports.formUnion(.uiKit) }
        if imports.contains("WatchKit") || imports.contains("ClockKit") { fromImports.insert(PlatformSet(.watchOS)) }
        if imports.contains("TVUIKit") { fromImports.insert(PlatformSet(.tvOS)) }
        if fromImports.isEmpty {
            filePlatforms = base
        } else {
            let narrowed = base.intersection(fromImports)
            // A project file that says iOS while this file imports AppKit: trust the import.
            filePlatforms = narrowed.isEmpty ? fromImports : narrowed
        }
    }

    /// Platforms at `node`, after every enclosing `#if`/`#elseif`/`#else` clause.
    func platforms(at node: Syntax, fileHasIfConfig: Bool) -> PlatformSet {
        guard fileHasIfConfig else { return filePlatforms }
        var result = filePlatforms
        var current = node.parent
        while let ancestor = current {
            if let clause = ancestor.as(IfConfigClauseSyntax.self),
               let decl = clause.parent?.parent?.as(IfConfigDeclSyntax.self) {
                if let clauseSet = Self.platforms(of: clause, in: decl) { result.formIntersection(clauseSet) }
            }
            current = ancestor.parent
        }
        return result
    }

    /// The set a clause selects: its own condition, minus every earlier clause's condition.
    static func platforms(of clause: IfConfigClauseSyntax, in decl: IfConfigDeclSyntax) -> PlatformSet? {
        var excluded = PlatformSet()
        var excludedKnown = true
        for earlier in decl.clauses {
            if earlier.id == clause.id { break }
            if let condition = earlier.condition, let set = evaluate(condition) {
                excluded.formUnion(set)
            } else {
                excludedKnown = false
            }
        }
        var own: PlatformSet?
        if let condition = clause.condition { own = evaluate(condition) } else { own = .all }
        let remaining: PlatformSet? = excludedKnown ? PlatformSet.all.subtracting(excluded) : nil
        switch (own, remaining) {
        case let (own?, remaining?): return own.intersection(remaining)
        case let (own?, nil): return own
        case let (nil, remaining?): return remaining == .all ? nil : remaining
        case (nil, nil): return nil
        }
    }

    /// `nil` when the condition does not constrain platforms (DEBUG, swift(>=5.9), …).
    static func evaluate(_ expression: ExprSyntax) -> PlatformSet? {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return evaluate(inner.expression)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return evaluate(prefix.expression).map { PlatformSet.all.subtracting($0) }
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return evaluate(sequence: Array(sequence.elements))
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return combine(evaluate(infix.leftOperand), infix.operator.trimmedDescription, evaluate(infix.rightOperand))
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), let name = call.calleeName,
              let argument = call.arguments.first?.expression.trimmedDescription else { return nil }
        switch name {
        case "os":
            return Platform(spelling: argument).map { PlatformSet($0) }
        case "canImport":
            switch argument {
            case "UIKit": return .uiKit
            case "AppKit", "Cocoa": return PlatformSet(.macOS)
            case "WatchKit": return PlatformSet(.watchOS)
            case "TVUIKit": return PlatformSet(.tvOS)
            default: return nil
            }
        case "targetEnvironment":
            return argument == "macCatalyst" ? PlatformSet(.iOS) : nil
        default:
            return nil
        }
    }

    /// `a || b && c` unfolded: `&&` binds tighter than `||`.
    private static func evaluate(sequence elements: [ExprSyntax]) -> PlatformSet? {
        var orGroups: [[ExprSyntax]] = [[]]
        for element in elements {
            if let op = element.as(BinaryOperatorExprSyntax.self), op.operator.text == "||" {
                orGroups.append([])
            } else {
                orGroups[orGroups.count - 1].append(element)
            }
        }
        var result: PlatformSet?? = .none
        for group in orGroups {
            var groupSet: PlatformSet? = nil
            for element in group where !element.is(BinaryOperatorExprSyntax.self) {
                groupSet = combine(groupSet, "&&", evaluate(element))
            }
            switch result {
            case .none: result = .some(groupSet)
            case .some(let soFar): result = .some(combine(soFar, "||", groupSet))
            }
        }
        return result ?? nil
    }

    private static func combine(_ lhs: PlatformSet?, _ op: String, _ rhs: PlatformSet?) -> PlatformSet? {
        switch op {
        case "&&":
            // An unknown conjunct does not widen: `os(iOS) && DEBUG` is still iOS-only.
            switch (lhs, rhs) {
            case let (l?, r?): return l.intersection(r)
            case let (l?, nil): return l
            case let (nil, r?): return r
            default: return nil
            }
        case "||":
            guard let lhs, let rhs else { return nil }
            return lhs.union(rhs)
        default:
            return nil
        }
    }
}
