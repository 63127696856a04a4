import AuditModel
import SwiftSyntax

/// The size a UIKit button created in code is given by constant size constraints in the same
/// file: `closeButton.widthAnchor.constraint(equalToConstant: 24)` made active (`.isActive =
/// true`, `NSLayoutConstraint.activate([…])`), or SnapKit's `make.size.equalTo(24)` inside
/// `closeButton.snp.makeConstraints`. Only what the file settles is measured: a constraint kept
/// in a variable or property (code may change its constant), given a priority, or relating the
/// anchor to another view's leaves that side unknown, as does a second, different constant.
struct UIKitHitRegion {
    /// The button as the code names it (`closeButton`, `header.closeButton`).
    let button: String
    /// The constraint that gives the smaller known side, where the finding is reported.
    let constraint: FunctionCallExprSyntax
    let width: Double?
    let height: Double?
    /// `button@target`, where no code in the file gives the button an action: the finding holds
    /// only where some file does.
    let requiredUse: [String]

    private enum Side { case width, height }

    /// What the file says of one side of one button.
    private struct SideFacts {
        var constants: Set<Double> = []
        /// A relation, a priority, a stored constraint or a lower bound of another size.
        var unsettled = false
        /// `widthAnchor.constraint(equalTo: heightAnchor)`: this side is the other's.
        var sameAsOther = false
        var sites: [Double: FunctionCallExprSyntax] = [:]

        var value: Double? { unsettled || constants.count != 1 ? nil : constants.first }
    }

    static func measure(_ file: SourceFile) -> [UIKitHitRegion] {
        let anchors = file.index.calls(named: "constraint")
        let snapKit = file.index.calls(named: "makeConstraints")
        guard !anchors.isEmpty || !snapKit.isEmpty else { return [] }
        var sides: [String: [Side: SideFacts]] = [:]
        var order: [String] = []
        func record(_ object: String, _ side: Side, _ update: (inout SideFacts) -> Void) {
            if sides[object] == nil { order.append(object) }
            update(&sides[object, default: [:]][side, default: SideFacts()])
        }
        for call in anchors {
            guard let anchor = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(MemberAccessExprSyntax.self),
                  let side = side(of: anchor.declName.baseName.text), let base = anchor.base else { continue }
            let object = Assignment.objectName(base)
            guard !object.isEmpty else { continue }
            if let constant = call.argument("equalToConstant")?.numberValue, call.arguments.count == 1 {
                let settled = isActivatedAsWritten(call)
                record(object, side) { facts in
                    if settled {
                        facts.constants.insert(constant)
                        if facts.sites[constant] == nil { facts.sites[constant] = call }
                    } else {
                        facts.unsettled = true
                    }
                }
            } else if call.argument("lessThanOrEqualToConstant") != nil {
                // An upper bound: the content may draw it smaller, never larger.
                continue
            } else if let other = call.argument("equalTo")?.as(MemberAccessExprSyntax.self), call.arguments.count == 1,
                      let otherSide = Self.side(of: other.declName.baseName.text), otherSide != side,
                      let otherBase = other.base, Assignment.objectName(otherBase) == object, isActivatedAsWritten(call) {
                record(object, side) { $0.sameAsOther = true }
            } else {
                record(object, side) { $0.unsettled = true }
            }
        }
        for call in snapKit {
            guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(MemberAccessExprSyntax.self),
                  base.declName.baseName.text == "snp", let target = base.base, let closure = call.trailingClosure else { continue }
            let object = Assignment.objectName(target)
            guard !object.isEmpty else { continue }
            for statement in closure.statements {
                guard let equal = statement.item.as(FunctionCallExprSyntax.self) else {
                    // `make.width.equalTo(24).priority(…)` and anything else unread: not settled.
                    for side in snapKitSides(statement.item) { record(object, side) { $0.unsettled = true } }
                    continue
                }
                let named = snapKitSides(ExprSyntax(equal.calledExpression))
                guard !named.isEmpty else {
                    for side in snapKitSides(statement.item) { record(object, side) { $0.unsettled = true } }
                    continue
                }
                let isEqual = equal.calleeName == "equalTo" && equal.arguments.count == 1
                let argument = equal.arguments.first?.expression
                let size = argument.flatMap(sizeLiteral)
                for side in named {
                    let constant = isEqual ? (argument?.numberValue ?? size.map { side == .width ? $0.width : $0.height }) : nil
                    record(object, side) { facts in
                        guard let constant else { facts.unsettled = true; return }
                        facts.constants.insert(constant)
                        if facts.sites[constant] == nil { facts.sites[constant] = equal }
                    }
                }
            }
        }
        // Constraints remade or updated later: nothing is settled.
        var changed = Set<String>()
        for call in file.index.calls(named: ["remakeConstraints", "updateConstraints"]) {
            if let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(MemberAccessExprSyntax.self)?.base {
                changed.insert(Assignment.objectName(base))
            }
        }
        let targets = file.targetsGivenInCode()
        // A bar lays out its custom views and may widen their touch area.
        for call in file.index.calls(named: "UIBarButtonItem") {
            if let view = call.argument("customView") { changed.insert(Assignment.objectName(view)) }
        }
        var regions: [UIKitHitRegion] = []
        for object in order where !changed.contains(object) {
            guard let facts = sides[object] else { continue }
            var width = facts[.width]?.value, height = facts[.height]?.value
            if width == nil, facts[.width]?.sameAsOther == true, facts[.width]?.unsettled == false, facts[.width]?.constants.isEmpty == true { width = height }
            if height == nil, facts[.height]?.sameAsOther == true, facts[.height]?.unsettled == false, facts[.height]?.constants.isEmpty == true { height = width }
            // A side that is both a constant and a relation is not settled.
            if facts[.width]?.sameAsOther == true, !(facts[.width]?.constants.isEmpty ?? true) { width = nil }
            if facts[.height]?.sameAsOther == true, !(facts[.height]?.constants.isEmpty ?? true) { height = nil }
            guard width != nil || height != nil else { continue }
            let sites = [facts[.width]?.value.flatMap { facts[.width]?.sites[$0] }, facts[.height]?.value.flatMap { facts[.height]?.sites[$0] }]
            guard let site = zip([width, height], sites).compactMap({ size, site in size.flatMap { value in site.map { (value, $0) } } })
                .min(by: { $0.0 < $1.0 })?.1 ?? sites.compactMap({ $0 }).first else { continue }
            guard let name = buttonName(object, file, at: site) else { continue }
            let own = String(object.split(separator: ".").last ?? "")
            let operated = [name, own].contains { targets.contains($0 + "@target") || isGivenActionWhereMade($0, file, targets: targets) }
            regions.append(UIKitHitRegion(button: name == own ? object : name, constraint: site, width: width, height: height,
                                          requiredUse: operated ? [] : [name + "@target"]))
        }
        return regions
    }

    private static func side(of anchor: String) -> Side? {
        switch anchor {
        case "widthAnchor": return .width
        case "heightAnchor": return .height
        default: return nil
        }
    }

    /// `make.width`, `make.size`, `make.width.height`, `$0.height`: the sides a SnapKit chain names.
    private static func snapKitSides(_ expression: some SyntaxProtocol) -> [Side] {
        var sides: [Side] = []
        var current: ExprSyntax? = ExprSyntax(expression)
        while let node = current {
            if let member = node.as(MemberAccessExprSyntax.self) {
                switch member.declName.baseName.text {
                case "width": sides.append(.width)
                case "height": sides.append(.height)
                case "size": sides += [.width, .height]
                default: break
                }
                current = member.base
            } else if let call = node.as(FunctionCallExprSyntax.self) {
                current = call.calledExpression
            } else {
                current = nil
            }
        }
        return sides
    }

    /// `CGSize(width: 24, height: 24)` with literal sides.
    private static func sizeLiteral(_ expression: ExprSyntax) -> (width: Double, height: Double)? {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.calleeName == "CGSize",
              let width = call.argument("width")?.numberValue, let height = call.argument("height")?.numberValue else { return nil }
        return (width, height)
    }

    /// `….constraint(equalToConstant: 24).isActive = true`, or an element of the array
    /// `NSLayoutConstraint.activate` takes. A constraint kept in a variable, given a priority
    /// or activated some other way may change, and is not read.
    private static func isActivatedAsWritten(_ call: FunctionCallExprSyntax) -> Bool {
        if let member = call.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isActive",
           let sequence = member.parent?.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            return elements.count == 3 && elements[0].id == member.id && elements[1].is(AssignmentExprSyntax.self)
                && elements[2].as(BooleanLiteralExprSyntax.self)?.literal.text == "true"
        }
        // element › element list › array › argument › argument list › the call.
        guard let element = call.parent?.as(ArrayElementSyntax.self),
              let activate = element.parent?.parent?.parent?.parent?.parent?.as(FunctionCallExprSyntax.self) else { return false }
        return activate.calleeName == "activate" && activate.calleeBaseText == "NSLayoutConstraint"
    }

    // A `UIButton`, or a class of this file that inherits one and does not widen what can be
    // hit (`point(inside:with:)`, `hitTest(_:with:)`), declared with that type in the file. An
    // app class declared elsewhere may widen it, so it is not measured; nor is a button in a
    // type that decides its own hit-testing.
    /// The button's name: the property a closure initializer builds it for (`let followButton:
    /// UIButton = { let button = UIButton(…); …; return button }()` is `followButton`), else
    /// its own. Nil when it is not such a button.
    private static func buttonName(_ object: String, _ file: SourceFile, at node: FunctionCallExprSyntax) -> String? {
        let name = String(object.split(separator: ".").last ?? "")
        guard !name.isEmpty else { return nil }
        if let owner = Syntax(node).enclosingTypeDecl, overridesHitTesting(owner) { return nil }
        // A local of the function or property initializer the constraint is in comes first.
        let owner = Syntax(node).enclosingCodeBlockOwner
        let local = object == name ? owner.map { file.index.declarations(name, in: $0) } ?? [] : []
        for declaration in local + file.index.declarations(name, in: nil) {
            guard let binding = declaration.as(PatternBindingSyntax.self) else { continue }
            let type = binding.writtenTypeName ?? closureInitializerType(binding)
            guard let type else { continue }
            guard isButtonType(type, file, depth: 0) else { return nil }
            if let property = owner?.as(PatternBindingSyntax.self), property.id != binding.id, local.contains(declaration),
               let identifier = property.pattern.as(IdentifierPatternSyntax.self) {
                return identifier.identifier.text
            }
            return name
        }
        return nil
    }

    /// `lazy var close = { let button = UIButton(type: .system) … return button }()`.
    private static func closureInitializerType(_ binding: PatternBindingSyntax) -> String? {
        guard let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
              let closure = call.calledExpression.as(ClosureExprSyntax.self),
              let first = closure.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first else { return nil }
        return first.writtenTypeName
    }

    private static func isButtonType(_ type: String, _ file: SourceFile, depth: Int) -> Bool {
        if type == "UIButton" { return true }
        guard depth < 8, let declaration = file.index.typeDeclarations.first(where: { $0.declaredTypeName == type })?.as(ClassDeclSyntax.self),
              !overridesHitTesting(Syntax(declaration)),
              let superclass = declaration.inheritanceClause?.inheritedTypes.first?.type.typeName else { return false }
        return isButtonType(superclass, file, depth: depth + 1)
    }

    private static func overridesHitTesting(_ type: Syntax) -> Bool {
        let members = type.as(ClassDeclSyntax.self)?.memberBlock.members ?? type.as(StructDeclSyntax.self)?.memberBlock.members
        return members?.contains { member in
            guard let function = member.decl.as(FunctionDeclSyntax.self),
                  function.modifiers.contains(where: { $0.name.text == "override" }) else { return false }
            return function.name.text == "hitTest"
                || (function.name.text == "point" && function.signature.parameterClause.parameters.first?.firstName.text == "inside")
        } ?? false
    }

    /// `UIButton(type: .system, primaryAction: …)` or `UIButton(primaryAction:)`: the action
    /// comes with the button.
    /// The closure that makes it gives its local an action (`let button = UIButton(); button.addTarget(…)`).
    private static func isGivenActionWhereMade(_ name: String, _ file: SourceFile, targets: Set<String>) -> Bool {
        file.index.declarations(name, in: nil).contains { declaration in
            guard let binding = declaration.as(PatternBindingSyntax.self),
                  let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return false }
            if call.argument("primaryAction") != nil { return true }
            guard call.arguments.isEmpty, let closure = call.calledExpression.as(ClosureExprSyntax.self),
                  let local = closure.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
            else { return false }
            return targets.contains(local.identifier.text + "@target")
        }
    }
}
