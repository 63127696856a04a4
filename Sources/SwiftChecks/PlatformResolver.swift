import AuditModel
import SwiftSyntax

/// Decides which platforms a piece of code is compiled for: the project's platforms, narrowed
/// by the file's unconditional imports, narrowed by the `#if os(…)` clauses around the code.
struct PlatformResolver {
    let filePlatforms: PlatformSet
    /// The project or the config names the platforms; otherwise they are inferred from imports
    /// (UIKit could mean iOS, tvOS, visionOS or watchOS) or unknown.
    let isDeclared: Bool

    /// The oldest versions the file is built for.
    var deploymentTargets: DeploymentTargets = .unknown

    init(project: PlatformSet?, imports: Set<String>, override: PlatformSet?, deploymentTargets: DeploymentTargets = .unknown) {
        self.deploymentTargets = deploymentTargets
        isDeclared = override != nil || project != nil
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

    /// Whether the platforms at `node` are stated (project, config, or an enclosing `#if` with
    /// a platform condition) rather than guessed from imports.
    func isDeclared(at node: Syntax, fileHasIfConfig: Bool) -> Bool {
        if isDeclared { return true }
        guard fileHasIfConfig else { return false }
        var current = node.parent
        while let ancestor = current {
            if let clause = ancestor.as(IfConfigClauseSyntax.self),
               let decl = clause.parent?.parent?.as(IfConfigDeclSyntax.self),
               Self.platforms(of: clause, in: decl) != nil {
                return true
            }
            current = ancestor.parent
        }
        return false
    }

    /// Platforms at `node`, after every enclosing `#if`/`#elseif`/`#else` clause and every
    /// availability check that decides whether it runs.
    func platforms(at node: Syntax, fileHasIfConfig: Bool, fileHasAvailabilityCheck: Bool = true) -> PlatformSet {
        let compiled = compiledPlatforms(at: node, fileHasIfConfig: fileHasIfConfig)
        guard fileHasAvailabilityCheck else { return compiled }
        // Mac Catalyst checks iOS versions; its code is left as it is.
        if compiled == PlatformSet(.macOS), !filePlatforms.contains(.macOS) { return compiled }
        return compiled.intersection(runningPlatforms(at: node))
    }

    /// The platforms on which the availability checks around `node` let it run. The `else` of
    /// `if #available(iOS 16, *)` (alone in its condition) runs only on the platforms it names
    /// whose deployment target is older than the version: elsewhere `*` passes, and from iOS
    /// 16 on so does the check. The body of `if #unavailable(iOS 16)`, or of a `guard
    /// #available`'s `else`, likewise.
    func runningPlatforms(at node: Syntax) -> PlatformSet {
        var running = PlatformSet.all
        var child = node
        var current = node.parent
        while let ancestor = current {
            if let branch = ancestor.as(IfExprSyntax.self) {
                if child.id == branch.body.id {
                    for element in branch.conditions {
                        if let check = element.condition.as(AvailabilityConditionSyntax.self), check.availabilityKeyword.tokenKind == .poundUnavailable {
                            running.formIntersection(platformsFailing(check))
                        }
                    }
                } else if let elseBody = branch.elseBody, child.id == Syntax(elseBody).id, branch.conditions.count == 1,
                          let check = branch.conditions.first?.condition.as(AvailabilityConditionSyntax.self),
                          check.availabilityKeyword.tokenKind == .poundAvailable {
                    running.formIntersection(platformsFailing(check))
                }
            } else if let guardStatement = ancestor.as(GuardStmtSyntax.self), child.id == guardStatement.body.id,
                      guardStatement.conditions.count == 1,
                      let check = guardStatement.conditions.first?.condition.as(AvailabilityConditionSyntax.self),
                      check.availabilityKeyword.tokenKind == .poundAvailable {
                running.formIntersection(platformsFailing(check))
            }
            child = ancestor
            current = ancestor.parent
        }
        return running
    }

    /// Where `#available(…)` can be false (and `#unavailable(…)` true): the platforms it names
    /// with a version the deployment target does not guarantee. Everything, for a check this
    /// cannot read.
    private func platformsFailing(_ check: AvailabilityConditionSyntax) -> PlatformSet {
        var failing = PlatformSet()
        for argument in check.availabilityArguments {
            switch argument.argument {
            case .token: continue
            case .availabilityVersionRestriction(let restriction):
                var name = restriction.platform.text
                if name.hasSuffix("ApplicationExtension") { name.removeLast("ApplicationExtension".count) }
                // Mac Catalyst has its own versions; Platform's spelling would read it as iOS.
                if name == "macCatalyst" { continue }
                guard let platform = Platform(spelling: name) else { continue }
                guard let tuple = restriction.version,
                      let version = DeploymentTargets.version(tuple.sourceText) else { return .all }
                if !deploymentTargets.guarantees(platform, version) { failing.insert(PlatformSet(platform)) }
            default: return .all
            }
        }
        return failing
    }

    private func compiledPlatforms(at node: Syntax, fileHasIfConfig: Bool) -> PlatformSet {
        guard fileHasIfConfig else { return filePlatforms }
        var result = filePlatforms
        var current = node.parent
        while let ancestor = current {
            if let clause = ancestor.as(IfConfigClauseSyntax.self),
               let decl = clause.parent?.parent?.as(IfConfigDeclSyntax.self) {
                // Mac Catalyst runs iOS code on the Mac, with the Mac's rules: no Dynamic Type
                // setting, Mac control sizes.
                if let condition = clause.condition, Self.requiresCatalyst(condition) { return PlatformSet(.macOS) }
                if let clauseSet = Self.platforms(of: clause, in: decl) { result.formIntersection(clauseSet) }
            }
            current = ancestor.parent
        }
        return result
    }

    /// `targetEnvironment(macCatalyst)`, alone or joined with `&&`: true only in a Catalyst build.
    static func requiresCatalyst(_ condition: ExprSyntax) -> Bool {
        condition.requiresConjunct { term in
            guard let call = term.as(FunctionCallExprSyntax.self) else { return false }
            return call.calleeName == "targetEnvironment" && call.arguments.first?.expression.sourceText == "macCatalyst"
        }
    }

    /// What a `#if` condition says about platforms: the code is compiled only for platforms in
    /// `set`; when `exact`, it is compiled for every one of them too, so the condition can be
    /// negated (`#else`, `!`). `os(iOS)` is exact; `targetEnvironment(macCatalyst)` is not
    /// (Catalyst is iOS code, but not all iOS code is Catalyst).
    struct Condition {
        var set: PlatformSet
        var exact: Bool
    }

    /// The set a clause selects: its own condition, minus every earlier clause's exact condition.
    static func platforms(of clause: IfConfigClauseSyntax, in decl: IfConfigDeclSyntax) -> PlatformSet? {
        var excluded = PlatformSet()
        var excludedKnown = true
        for earlier in decl.clauses {
            if earlier.id == clause.id { break }
            if let condition = earlier.condition, let known = evaluate(condition), known.exact {
                excluded.formUnion(known.set)
            } else {
                // `#if os(iOS) && DEBUG` may be false on iOS: its #else can still be iOS code.
                excludedKnown = false
            }
        }
        let own: PlatformSet? = clause.condition.map { evaluate($0)?.set } ?? .all
        let remaining: PlatformSet? = excludedKnown ? PlatformSet.all.subtracting(excluded) : nil
        switch (own, remaining) {
        case let (own?, remaining?): return own.intersection(remaining)
        case let (own?, nil): return own
        case let (nil, remaining?): return remaining == .all ? nil : remaining
        case (nil, nil): return nil
        }
    }

    /// `nil` when the condition does not constrain platforms (DEBUG, swift(>=5.9), …).
    static func evaluate(_ expression: ExprSyntax) -> Condition? {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return evaluate(inner.expression)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            guard let inner = evaluate(prefix.expression), inner.exact else { return nil }
            return Condition(set: PlatformSet.all.subtracting(inner.set), exact: true)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return evaluate(sequence: Array(sequence.elements))
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return combine(evaluate(infix.leftOperand), infix.operator.sourceText, evaluate(infix.rightOperand))
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), let name = call.calleeName,
              let argument = call.arguments.first?.expression.sourceText else { return nil }
        switch name {
        case "os":
            return Platform(spelling: argument).map { Condition(set: PlatformSet($0), exact: true) }
        case "canImport":
            switch argument {
            case "UIKit": return Condition(set: .uiKit, exact: true)
            case "AppKit", "Cocoa": return Condition(set: PlatformSet(.macOS), exact: true)
            case "WatchKit": return Condition(set: PlatformSet(.watchOS), exact: true)
            case "TVUIKit": return Condition(set: PlatformSet(.tvOS), exact: true)
            default: return nil
            }
        case "targetEnvironment":
            return argument == "macCatalyst" ? Condition(set: PlatformSet(.iOS), exact: false) : nil
        default:
            return nil
        }
    }

    /// `a || b && c` unfolded: `&&` binds tighter than `||`.
    private static func evaluate(sequence elements: [ExprSyntax]) -> Condition? {
        var orGroups: [[ExprSyntax]] = [[]]
        for element in elements {
            if let op = element.as(BinaryOperatorExprSyntax.self), op.operator.text == "||" {
                orGroups.append([])
            } else {
                orGroups[orGroups.count - 1].append(element)
            }
        }
        var result: Condition?? = .none
        for group in orGroups {
            var groupCondition: Condition?? = .none
            for element in group where !element.is(BinaryOperatorExprSyntax.self) {
                let value = evaluate(element)
                switch groupCondition {
                case .none: groupCondition = .some(value)
                case .some(let soFar): groupCondition = .some(combine(soFar, "&&", value))
                }
            }
            let value = groupCondition ?? nil
            switch result {
            case .none: result = .some(value)
            case .some(let soFar): result = .some(combine(soFar, "||", value))
            }
        }
        return result ?? nil
    }

    private static func combine(_ lhs: Condition?, _ op: String, _ rhs: Condition?) -> Condition? {
        switch op {
        case "&&":
            // An unknown conjunct does not widen (`os(iOS) && DEBUG` is still iOS-only) but makes
            // the whole inexact: it may be false on iOS.
            switch (lhs, rhs) {
            case let (l?, r?): return Condition(set: l.set.intersection(r.set), exact: l.exact && r.exact)
            case let (l?, nil): return Condition(set: l.set, exact: false)
            case let (nil, r?): return Condition(set: r.set, exact: false)
            default: return nil
            }
        case "||":
            guard let lhs, let rhs else { return nil }
            return Condition(set: lhs.set.union(rhs.set), exact: lhs.exact && rhs.exact)
        default:
            return nil
        }
    }
}
