import AuditModel
import SwiftSyntax

/// UIKit labels styled as titles (a title text style, or a fixed semibold-or-heavier size at
/// least `title3`'s) that nothing in their file gives the header trait. A cell's labels title
/// their rows, not sections; a label that shows a value (a count, a price, a time) by its name
/// is a value; one inside a view that is itself one accessibility element is not read alone.
struct UIKitTitleLabel {
    /// The label as the code names it (the property a closure initializer builds it for).
    let name: String
    let fontAssignment: Assignment
    /// `.title1`, or `24 pt bold`.
    let style: String

    static let titleStyles: Set<String> = ["largeTitle", "title1", "title2", "title3"]
    static let heavyWeights: Set<String> = ["semibold", "bold", "heavy", "black"]
    /// Words of a label's name that say it shows a value, not a title.
    static let valueWords = ["value", "count", "amount", "price", "balance", "time", "clock", "number", "percent", "score",
                             "digit", "code", "emoji", "icon", "symbol", "badge", "temperature", "speed", "total", "date",
                             "duration", "stat", "initial", "avatar", "placeholder"]

    static func find(_ file: SourceFile) -> [UIKitTitleLabel] {
        let fonts = file.index.assignments.filter { $0.targetProperty == "font" && !$0.targetObject.isEmpty }
        guard !fonts.isEmpty, let title3 = file.reference.iosTextStyleSizes["Large (default)"]?["title3"] else { return [] }
        var handled = Set<String>()
        for assignment in file.index.assignments {
            guard let property = assignment.targetProperty, let object = assignment.targetObject.split(separator: ".").last.map(String.init) else { continue }
            if ["accessibilityTraits", "isAccessibilityElement", "accessibilityElementsHidden", "isHidden"].contains(property) { handled.insert(object) }
            // `navigationItem.titleView = titleLabel`: the bar's title.
            if property == "titleView", let value = assignment.value.first { handled.insert(Assignment.objectName(value)) }
        }
        // `label.accessibilityTraits.insert(.header)`, `.formUnion(…)`, `|= .header`: any use of
        // the label's traits is the file deciding them.
        for offset in file.index.references["accessibilityTraits"] ?? [] {
            guard let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)),
                  let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), let owner = member.base else { continue }
            handled.insert(String(Assignment.objectName(owner).split(separator: ".").last ?? ""))
        }
        var seen = Set<String>()
        var labels: [UIKitTitleLabel] = []
        // A section header view's one label heads its section, whatever its font.
        for type in file.index.typeDeclarations where isSectionHeaderView(type) {
            let range = type.position.utf8Offset..<type.endPosition.utf8Offset
            let own = fonts.filter { range.contains($0.node.position.utf8Offset) }
            guard let assignment = own.first, file.platforms(at: Syntax(assignment.node)).contains(.iOS) else { continue }
            let written = Set(own.map { String($0.targetObject.split(separator: ".").last ?? "") })
            let names = Set(own.compactMap { labelName(String($0.targetObject.split(separator: ".").last ?? ""), file, at: $0) })
            guard names.count == 1, let name = names.first, !handled.contains(name), handled.isDisjoint(with: written), !isValueName(name),
                  !isCellOrSingleElement(type, file, cellsToo: false) else { continue }
            seen.insert(name)
            labels.append(UIKitTitleLabel(name: name, fontAssignment: assignment, style: "the one label of the section header view `\(type.declaredTypeName ?? "")`"))
        }
        for assignment in fonts {
            guard let value = assignment.value.first, assignment.value.count == 1,
                  let style = titleStyle(of: value, title3: title3),
                  file.platforms(at: Syntax(assignment.node)).contains(.iOS) else { continue }
            let own = String(assignment.targetObject.split(separator: ".").last ?? "")
            guard let name = labelName(own, file, at: assignment), !handled.contains(own), !handled.contains(name),
                  !seen.contains(name), !isValueName(name), !isValueName(own) else { continue }
            if let type = Syntax(assignment.node).enclosingTypeDecl, isCellOrSingleElement(type, file) { continue }
            seen.insert(name)
            labels.append(UIKitTitleLabel(name: name, fontAssignment: assignment, style: style))
        }
        return labels
    }

    /// `.preferredFont(forTextStyle: .title1)`, `UIFontMetrics(forTextStyle: .title2).scaledFont(for: …)`,
    /// `.systemFont(ofSize: 24, weight: .bold)`, `.boldSystemFont(ofSize: 22)`, also through
    /// `UIFontMetrics.default.scaledFont(for:)` and a chained `.withSize`-free call on them.
    static func titleStyle(of expression: ExprSyntax, title3: Double) -> String? {
        var current: ExprSyntax? = expression
        var steps = 0
        while let node = current, steps < 8 {
            steps += 1
            guard let call = node.as(FunctionCallExprSyntax.self) else {
                current = node.as(MemberAccessExprSyntax.self)?.base
                continue
            }
            switch call.calleeName {
            case "preferredFont":
                guard let style = call.argument("forTextStyle")?.memberName else { return nil }
                return titleStyles.contains(style) ? "the `.\(style)` text style" : nil
            case "scaledFont":
                if let metrics = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(FunctionCallExprSyntax.self),
                   metrics.calleeName == "UIFontMetrics", let style = metrics.argument("forTextStyle")?.memberName {
                    return titleStyles.contains(style) ? "the `.\(style)` text style" : nil
                }
                current = call.argument("for")
            case "systemFont":
                guard let size = call.argument("ofSize")?.numberValue, let weight = call.argument("weight")?.memberName,
                      heavyWeights.contains(weight), size >= title3 else { return nil }
                return "a \(weight) \(size.points) pt font"
            case "boldSystemFont":
                guard let size = call.argument("ofSize")?.numberValue, size >= title3 else { return nil }
                return "a bold \(size.points) pt font"
            case "withSize":
                return nil
            default:
                current = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
            }
        }
        return nil
    }

    /// A `UILabel` declared so in the file: the property, or the local a property's closure
    /// initializer makes (`let titleLabel: UILabel = { let label = UILabel(); label.font = …;
    /// return label }()` is `titleLabel`).
    private static func labelName(_ own: String, _ file: SourceFile, at assignment: Assignment) -> String? {
        guard !own.isEmpty else { return nil }
        let owner = Syntax(assignment.node).enclosingCodeBlockOwner
        let local = assignment.targetObject == own ? owner.map { file.index.declarations(own, in: $0) } ?? [] : []
        for declaration in local + file.index.declarations(own, in: nil) {
            guard let binding = declaration.as(PatternBindingSyntax.self), let type = binding.writtenTypeName else { continue }
            guard type == "UILabel" else { return nil }
            if let property = owner?.as(PatternBindingSyntax.self), property.id != binding.id, local.contains(declaration),
               let identifier = property.pattern.as(IdentifierPatternSyntax.self) {
                return identifier.identifier.text
            }
            return own
        }
        return nil
    }

    /// A `UITableViewHeaderFooterView` subclass or a class named as a section's header
    /// (`TableHeaderViewCell`, `SectionHeaderView`); not a footer, nor a screen's or a list's
    /// own header (`tableHeaderView`'s content is no section heading).
    static func isSectionHeaderView(_ type: Syntax) -> Bool {
        guard let declaration = type.as(ClassDeclSyntax.self) else { return false }
        let name = declaration.name.text
        let superclass = declaration.inheritanceClause?.inheritedTypes.first?.type.typeName ?? ""
        guard !name.contains("Footer") else { return false }
        if superclass == "UITableViewHeaderFooterView" { return true }
        guard ["UITableViewCell", "UICollectionReusableView", "UICollectionViewCell", "UIView"].contains(superclass) else { return false }
        return name.contains("SectionHeader") || name.hasSuffix("HeaderViewCell") || name.hasSuffix("HeaderCell")
    }

    static func isValueName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return valueWords.contains { lowered.contains($0) }
    }

    /// A table or collection cell (its labels title a row), or a view that makes itself one
    /// accessibility element (its labels are read as part of it).
    private static func isCellOrSingleElement(_ type: Syntax, _ file: SourceFile, cellsToo: Bool = true) -> Bool {
        let name = type.declaredTypeName ?? ""
        let superclass = type.as(ClassDeclSyntax.self)?.inheritanceClause?.inheritedTypes.first?.type.typeName ?? ""
        if cellsToo, name.hasSuffix("Cell") || superclass.hasSuffix("Cell") { return true }
        let range = type.position.utf8Offset..<type.endPosition.utf8Offset
        return file.index.assignments.contains { assignment in
            assignment.targetObject.isEmpty && range.contains(assignment.node.position.utf8Offset)
                && ["isAccessibilityElement", "accessibilityElements"].contains(assignment.targetProperty ?? "")
        }
    }
}
