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
        /// The constraint that gave `value`.
        var site: FunctionCallExprSyntax? { value.flatMap { sites[$0] } }

        /// `value`, or the other side's where this side is only tied to it.
        func resolved(other: Double?) -> Double? {
            sameAsOther ? (constants.isEmpty && !unsettled ? other : nil) : value
        }
    }

    static func measure(_ file: SourceFile) -> [UIKitHitRegion] {
        let anchors = file.index.calls(named: "constraint")
        let snapKit = file.index.calls(named: "makeConstraints")
        guard !anchors.isEmpty || !snapKit.isEmpty else { return [] }
        var sides: [Subject: [Side: SideFacts]] = [:]
        var order: [Subject] = []
        var context = Context(file)
        func record(_ written: String, at node: some SyntaxProtocol, _ side: Side, _ update: (inout SideFacts) -> Void) {
            let subject = context.subject(written, at: Syntax(node))
            if sides[subject] == nil { order.append(subject) }
            update(&sides[subject, default: [:]][side, default: SideFacts()])
        }
        for call in anchors {
            guard let anchor = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(MemberAccessExprSyntax.self),
                  let side = side(of: anchor.declName.baseName.text), let base = anchor.base else { continue }
            let object = Assignment.objectName(base)
            guard !object.isEmpty else { continue }
            if let constant = call.argument("equalToConstant")?.numberValue, call.arguments.count == 1 {
                let settled = isActivatedAsWritten(call)
                record(object, at: call, side) { facts in
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
                record(object, at: call, side) { $0.sameAsOther = true }
            } else {
                record(object, at: call, side) { $0.unsettled = true }
            }
        }
        for call in snapKit {
            guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(MemberAccessExprSyntax.self),
                  base.declName.baseName.text == "snp", let target = base.base, let closure = call.trailingClosure else { continue }
            let object = Assignment.objectName(target)
            guard !object.isEmpty else { continue }
            for statement in closure.statements {
                guard let equal = statement.item.as(FunctionCallExprSyntax.self) else {
                    // `stored = make.width.equalTo(24).constraint`: kept to be changed.
                    let value = statement.item.as(SequenceExprSyntax.self)?.elements.last.map(Syntax.init) ?? Syntax(statement.item)
                    for side in snapKitSides(value) { record(object, at: call, side) { $0.unsettled = true } }
                    continue
                }
                let named = snapKitSides(ExprSyntax(equal.calledExpression))
                guard !named.isEmpty else {
                    for side in snapKitSides(statement.item) { record(object, at: call, side) { $0.unsettled = true } }
                    continue
                }
                let isEqual = equal.calleeName == "equalTo" && equal.arguments.count == 1
                let argument = equal.arguments.first?.expression
                let size = argument.flatMap(sizeLiteral)
                for side in named {
                    let constant = isEqual ? (argument?.numberValue ?? size.map { side == .width ? $0.width : $0.height }) : nil
                    record(object, at: call, side) { facts in
                        guard let constant else { facts.unsettled = true; return }
                        facts.constants.insert(constant)
                        if facts.sites[constant] == nil { facts.sites[constant] = equal }
                    }
                }
            }
        }
        // Constraints remade, updated, removed or deactivated later, or reached through the
        // view's `constraints`: nothing is settled. Names are compared bare: a same-named view
        // of another type that is changed only costs a finding.
        var changed = Set<String>()
        for call in file.index.calls(named: ["remakeConstraints", "updateConstraints", "removeConstraints"]) {
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { continue }
            let base = member.as(MemberAccessExprSyntax.self).flatMap { $0.declName.baseName.text == "snp" ? $0.base : nil } ?? member
            changed.insert(lastName(Assignment.objectName(base)))
        }
        for call in file.index.calls(named: "deactivate") {
            for token in call.arguments.tokens(viewMode: .sourceAccurate) {
                if case .identifier = token.tokenKind { changed.insert(token.text) }
            }
        }
        for offset in file.index.references["constraints"] ?? [] {
            guard let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)),
                  let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), let base = member.base else { continue }
            changed.insert(lastName(Assignment.objectName(base)))
        }
        // A bar lays out its custom views and may widen their touch area.
        for call in file.index.calls(named: "UIBarButtonItem") {
            if let view = call.argument("customView") { changed.insert(lastName(Assignment.objectName(view))) }
        }
        let targets = file.targetsGivenInCode()
        var regions: [UIKitHitRegion] = []
        for subject in order where !changed.contains(subject.name) && !changed.contains(subject.written) {
            guard let facts = sides[subject], let type = subject.type, context.isButtonType(type) else { continue }
            // A side tied to the other takes its size; one both tied and constant is not settled.
            let width = facts[.width]?.resolved(other: facts[.height]?.value)
            let height = facts[.height]?.resolved(other: facts[.width]?.value)
            // Reported at the constraint of the smaller side the file sets itself.
            let measured = [facts[.width], facts[.height]].compactMap { $0 }
            let given = measured.filter { !$0.sameAsOther }.compactMap { side in side.site.flatMap { site in side.value.map { ($0, site) } } }
            guard width != nil || height != nil,
                  let site = given.min(by: { $0.0 < $1.0 })?.1 ?? measured.lazy.compactMap(\.site).first else { continue }
            if let owner = subject.ownerType, context.widensHitTesting(owner) { continue }
            let operated = [subject.name, subject.written].contains { targets.contains($0 + "@target") } || subject.madeWithAction
            regions.append(UIKitHitRegion(button: subject.name, constraint: site, width: width, height: height,
                                          requiredUse: operated ? [] : [subject.name + "@target"]))
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
    private static func lastName(_ object: String) -> String { String(object.split(separator: ".").last ?? "") }

    /// The view a constraint names: the property a closure initializer builds (`let followButton:
    /// UIButton = { let button = UIButton(…); …; return button }()` is `followButton`), a local of
    /// the function the constraint is in, or a stored property of the type around it.
    struct Subject: Hashable {
        /// As the code wrote it: `button`, `header.closeButton`.
        let written: String
        /// The property or local it is.
        let name: String
        /// Its type where the file declares it (annotation, else the initializer's), nil if unknown.
        let type: String?
        /// The type the constraint is written in.
        let ownerType: String?
        let madeWithAction: Bool
        /// Where it is declared: same-named locals of two functions are two buttons.
        var declaredAt: Int? = nil
    }

    /// Lookups shared by every constraint of the file, each computed once.
    struct Context {
        let file: SourceFile
        private var classes: [String: ClassDeclSyntax] = [:]
        private var widening: Set<String> = []
        private var shadowing: [SyntaxIdentifier: Set<String>] = [:]

        init(_ file: SourceFile) {
            self.file = file
            for declaration in file.index.typeDeclarations {
                if let declared = declaration.as(ClassDeclSyntax.self), classes[declared.name.text] == nil { classes[declared.name.text] = declared }
            }
            // `point(inside:with:)` or `hitTest(_:with:)` overridden in a class or an extension.
            for name in ["point", "hitTest"] {
                for declaration in file.index.declarations[name] ?? [] {
                    guard let function = declaration.as(FunctionDeclSyntax.self), function.modifiers.contains(where: { $0.name.text == "override" }),
                          name == "hitTest" || function.signature.parameterClause.parameters.first?.firstName.text == "inside",
                          let type = SourceFile.classOrExtendedType(around: function) else { continue }
                    widening.insert(type)
                }
            }
        }

        func widensHitTesting(_ type: String) -> Bool { widening.contains(type) }

        /// A `UIButton` (no extension of it widens its hit area), or a class of this file that
        /// inherits one and does not widen it. An app class declared elsewhere may, so it is
        /// not measured.
        func isButtonType(_ type: String) -> Bool {
            var current = type
            for _ in 0..<8 {
                if widening.contains(current) { return false }
                if current == "UIButton" { return true }
                guard let declaration = classes[current],
                      let superclass = declaration.inheritanceClause?.inheritedTypes.first?.type.typeName else { return false }
                current = superclass
            }
            return false
        }

        mutating func subject(_ written: String, at node: Syntax) -> Subject {
            let name = lastName(written)
            let ownerType = node.enclosingTypeDecl
            let ownerName = SourceFile.classOrExtendedType(around: node) ?? ownerType?.declaredTypeName
            let owner = node.enclosingCodeBlockOwner
            func make(_ binding: PatternBindingSyntax, as name: String) -> Subject {
                Subject(written: written, name: name, type: Self.type(of: binding), ownerType: ownerName, madeWithAction: Self.isMadeWithAction(binding, file),
                        declaredAt: binding.position.utf8Offset)
            }
            if written == name, let owner {
                // A closure parameter or loop variable of that name is some other view.
                if shadows(name, in: owner) { return Subject(written: written, name: name, type: nil, ownerType: ownerName, madeWithAction: false) }
                for declaration in file.index.declarations(name, in: owner) {
                    guard let binding = declaration.as(PatternBindingSyntax.self) else { continue }
                    if let property = owner.as(PatternBindingSyntax.self), property.id != binding.id,
                       let identifier = property.pattern.as(IdentifierPatternSyntax.self) {
                        // The property's own declaration says what it is and how it is made.
                        var subject = make(binding, as: identifier.identifier.text)
                        if subject.type == nil { subject = make(property, as: identifier.identifier.text) }
                        return Subject(written: written, name: subject.name, type: subject.type, ownerType: ownerName,
                                       madeWithAction: subject.madeWithAction || Self.isMadeWithAction(property, file),
                                       declaredAt: property.position.utf8Offset)
                    }
                    if binding.id != owner.id { return make(binding, as: name) }
                }
            }
            // A stored property: of the type the constraint is in, else the only one so named.
            let members = file.index.declarations(name, in: nil).compactMap { $0.as(PatternBindingSyntax.self) }.filter(Self.isStoredProperty)
            let inType = ownerType.map { type in members.filter { Syntax($0).enclosingTypeDecl?.id == type.id || SourceFile.classOrExtendedType(around: $0) == ownerName } } ?? []
            if let binding = inType.first ?? (members.count == 1 ? members.first : nil) { return make(binding, as: name) }
            return Subject(written: written, name: name, type: nil, ownerType: ownerName, madeWithAction: false)
        }

        private mutating func shadows(_ name: String, in owner: Syntax) -> Bool {
            if let known = shadowing[owner.id] { return known.contains(name) }
            var names = Set<String>()
            for token in owner.tokens(viewMode: .sourceAccurate) {
                guard case .identifier = token.tokenKind, let parent = token.parent else { continue }
                if parent.is(ClosureShorthandParameterSyntax.self) || parent.is(ClosureParameterSyntax.self) || parent.is(FunctionParameterSyntax.self) {
                    names.insert(token.text)
                } else if parent.is(IdentifierPatternSyntax.self), parent.parent?.is(ForStmtSyntax.self) == true {
                    names.insert(token.text)
                }
            }
            shadowing[owner.id] = names
            return names.contains(name)
        }

        /// The type an initializer makes where it names one (`= ExpandedHitButton(type: .custom)`
        /// under a `UIButton` annotation is that subclass), else the annotation; nil for an
        /// outlet, whose size the storyboard holds.
        static func type(of binding: PatternBindingSyntax) -> String? {
            if let variable = binding.parent?.parent?.as(VariableDeclSyntax.self),
               variable.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.sourceText == "IBOutlet" }) { return nil }
            if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) {
                if let callee = call.calleeName, callee.first?.isUppercase == true, call.calledExpression.is(DeclReferenceExprSyntax.self) { return callee }
                // `lazy var close = { let button = UIButton(type: .system) … return button }()`.
                if call.arguments.isEmpty, let closure = call.calledExpression.as(ClosureExprSyntax.self),
                   let first = closure.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first {
                    return type(of: first) ?? (binding.typeAnnotation == nil ? nil : binding.writtenTypeName)
                }
                if call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "systemButton" { return "UIButton" }
            }
            return binding.typeAnnotation?.type.sourceText.trimmingCharacters(in: ["!", "?"])
        }

        private static func isStoredProperty(_ binding: PatternBindingSyntax) -> Bool {
            binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.is(MemberBlockItemSyntax.self) == true
        }

        /// `UIButton(primaryAction:)`, or a closure initializer whose local is given an action.
        private static func isMadeWithAction(_ binding: PatternBindingSyntax, _ file: SourceFile) -> Bool {
            guard let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return false }
            if call.argument("primaryAction") != nil { return true }
            guard call.arguments.isEmpty, let closure = call.calledExpression.as(ClosureExprSyntax.self),
                  let local = closure.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
            else { return false }
            let name = local.identifier.text
            return closure.statements.contains { statement in
                guard let call = statement.item.as(FunctionCallExprSyntax.self), ["addTarget", "addAction"].contains(call.calleeName ?? ""),
                      let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return false }
                return Assignment.objectName(base) == name
            }
        }
    }
}
