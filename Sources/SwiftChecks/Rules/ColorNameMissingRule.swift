import AuditModel
import ColorAssets
import SwiftSyntax

/// `Color("Brnad")`: a name no asset catalog of the repository defines. The colour cannot be
/// resolved, so nothing about its contrast can be known, and at run time it is not the colour
/// anyone designed.
struct ColorNameMissingRule: SourceRule {
    let description = RuleDescription(
        id: "color-name-missing",
        title: "Colour name that no asset catalog defines",
        category: .colorAsset,
        kind: .advisory,
        severity: .warning,
        rationale: """
            A colour loaded by name from the main bundle must exist in one of the app's asset \
            catalogs. When it does not (a typo, a renamed or deleted set), SwiftUI logs an error and \
            `UIColor(named:)` returns nil, so the view falls back to a colour no one checked for \
            contrast in any appearance.
            """,
        citations: [Citation("SwiftUI › Color(_:bundle:)",
                             "Use this initializer to load a color from a color set stored in an Asset Catalog. The system determines which color within the set to use based on the environment at render time.")],
        fix: "Correct the name to an existing colour set, or add the colour set (with light, dark and increased-contrast variants) to the asset catalog.",
        limitations: """
            Only judged when the repository has asset catalogs. Names built at run time \
            (`Color("avatar\\(index)")`) and colours from other bundles (`bundle:`/`in:`) are not judged. \
            `UIColor(named:)` with a fallback (`?? .systemOrange`, `if let`) is not reported: a colour \
            someone chose renders. A name that differs from a set only in letter case goes to review.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").foregroundStyle(Color(↓"Brnad")) }
                }
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
            RuleExample("""
                import UIKit
                let tint = UIColor(named: ↓"Accent")
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                let a = Color("Brand")
                let b = UIColor(named: "Brand")
                let c = Color("Partner", bundle: partnerBundle)
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
            // Without any asset catalog in the repository, nothing can be said.
            RuleExample("""
                import SwiftUI
                let a = Color("Brand")
                """),
            // A fallback someone chose renders when the set is missing.
            RuleExample("""
                import UIKit
                let insulin = UIColor(named: "insulin") ?? .systemOrange
                func tint() -> UIColor {
                    if let partner = UIColor(named: "Partner") { return partner }
                    guard let accent = UIColor(named: "Accent") else { return .tintColor }
                    return accent
                }
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
        ],
        needsReview: [
            // Only the letter case differs from a set that exists.
            RuleExample("""
                import SwiftUI
                let a = Color(↓"brand")
                """, assets: ["Assets.xcassets/Brand.colorset/Contents.json": ColorNameMissingRule.brandSet]),
        ]
    )

    static let brandSet = """
        { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb",
          "components" : { "red" : "0.1", "green" : "0.4", "blue" : "0.9", "alpha" : "1" } } } ] }
        """

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let catalog = file.context.colors
        guard !catalog.sets.isEmpty || !catalog.errors.isEmpty else { return }
        for use in file.colorNameLiterals where catalog.color(named: use.name) == nil {
            // A set that exists but failed to parse is color-set-unreadable's finding.
            if catalog.errors.contains(where: { $0.path.hasSuffix("/\(use.name).colorset/Contents.json") }) { continue }
            if Self.hasFallback(use.call) { continue }
            let callee = use.call.calleeName ?? "Color"
            let lowered = use.name.lowercased()
            if let near = catalog.sets.first(where: { $0.name.lowercased() == lowered })?.name {
                sink.report(use.call, at: use.literal,
                            "`\(callee)` names colour set \"\(use.name)\"; the asset catalogs define \"\(near)\", which differs only in letter case: check on a device that the set loads, and spell it as defined",
                            certainty: .review)
                continue
            }
            sink.report(use.call, at: use.literal, "`\(callee)` names colour set \"\(use.name)\", which no asset catalog in the repository defines")
        }
    }

    /// `UIColor(named:) ?? fallback`, or the optional bound in `if let` / `guard let`: when the
    /// set is missing, the code's own fallback renders.
    static func hasFallback(_ call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call)
        // Through wrappers that keep the optional: `(UIColor(named: "x"))`, `UIColor(named: "x")?.cgColor`.
        while let parent = node.parent, keepsTheOptional(parent) { node = parent }
        guard let parent = node.parent else { return false }
        if let list = parent.as(ExprListSyntax.self) {
            // A sequence not yet folded: `UIColor(named: "x") ?? .systemOrange`.
            let elements = Array(list)
            if let index = elements.firstIndex(where: { $0.id == node.id }), index + 1 < elements.count,
               elements[index + 1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" { return true }
        }
        if let infix = parent.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == node.id,
           infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" { return true }
        if parent.is(InitializerClauseSyntax.self), parent.parent?.is(OptionalBindingConditionSyntax.self) == true { return true }
        return false
    }

    private static func keepsTheOptional(_ node: Syntax) -> Bool {
        if node.is(TupleExprSyntax.self) || node.is(OptionalChainingExprSyntax.self) || node.is(MemberAccessExprSyntax.self) { return true }
        // The element and element list of a parenthesised expression.
        if node.is(LabeledExprSyntax.self) { return node.parent?.parent?.is(TupleExprSyntax.self) == true }
        if node.is(LabeledExprListSyntax.self) { return node.parent?.is(TupleExprSyntax.self) == true }
        return false
    }
}
