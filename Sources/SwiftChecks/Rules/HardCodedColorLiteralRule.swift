import AuditModel
import SwiftSyntax

/// `Color(red:green:blue:)`, `UIColor(white:alpha:)`, `#colorLiteral(…)`, `Color(hex:)`: one
/// fixed colour, with no dark or increased-contrast variant for the system to switch to.
struct HardCodedColorLiteralRule: SourceRule {
    let description = RuleDescription(
        id: "hard-coded-color-literal",
        title: "Hard-coded colour with no light, dark or increased-contrast variants",
        platforms: .all,
        kind: .recommendation, certainty: .review,
        rationale: """
            A colour written as components or hex in source is one colour in every appearance. \
            Apple asks for light and dark variants of every custom colour, each with an \
            increased-contrast option, which an asset catalog colour set or a system colour \
            provides and a literal cannot. Whether the literal has enough contrast cannot be told \
            from source; that it has no variants to resolve to can.
            """,
        citations: [
            Citation("HIG › Color",
                     "If you define a custom color, make sure to supply light and dark variants, and an increased contrast option for each variant that provides a significantly higher amount of visual differentiation."),
            Citation("HIG › Accessibility",
                     "If your app doesn't provide this minimum contrast by default, ensure it at least provides a higher contrast color scheme when the system setting Increase Contrast is turned on."),
            Citation("SwiftUI › colorSchemeContrast",
                     "If you only need to provide different colors or images for different color scheme and contrast settings, do that in your app's Asset Catalog."),
        ],
        fix: """
            Define the colour as a colour set in the asset catalog with Any/Dark appearances and \
            High Contrast variants, and load it with `Color("Brand")` / `UIColor(named: "Brand")`; \
            or use a system colour (`Color(.systemBackground)`, `.label`, `.secondaryLabel`), which \
            already adapts. In code, a `UIColor { traits in … }` provider that switches on \
            `userInterfaceStyle` and `accessibilityContrast` also supplies the variants.
            """,
        limitations: """
            Literal components only (numbers, arithmetic on numbers such as `59 / 255`, hex \
            strings and integers); a colour computed from variables is not judged. Pure black, pure \
            white and fully transparent literals are not reported, as `.black`, `.white` and \
            `.clear` are not. A literal chosen by a condition on the colour scheme or contrast, or \
            inside a dynamic provider or a `light:`/`dark:` argument, counts as a variant even when \
            the increased-contrast variants are missing. Colours in `#Preview` and \
            `PreviewProvider` code are ignored. `.init(red:…)` with the type left to inference is \
            not recognised.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                extension Color {
                    static let brand = ↓Color(red: 0.12, green: 0.45, blue: 0.86)
                    static let accentSoft = ↓Color(hue: 0.6, saturation: 0.3, brightness: 0.9)
                    static let ink = ↓Color(.sRGB, red: 20 / 255, green: 22 / 255, blue: 28 / 255, opacity: 1)
                    static let mist = ↓Color(white: 0.92)
                }
                """, assets: ["Sources/Card.swift": """
                    import SwiftUI
                    let card = Text("Hi").foregroundStyle(Color.brand).tint(.accentSoft).background(Color.ink.opacity(0.1)).border(Color.mist)
                    """]),
            RuleExample("""
                import UIKit
                let warning = ↓UIColor(red: 1.0, green: 0.58, blue: 0.0, alpha: 1.0)
                let divider = ↓UIColor(white: 0.85, alpha: 1)
                let literal = ↓#colorLiteral(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)
                """),
            RuleExample("""
                import SwiftUI
                struct Banner: View {
                    var body: some View {
                        Text("Sale").foregroundStyle(↓Color(hex: "#FF3B30"))
                            .background(↓Color(hex: 0x1C1C1E))
                    }
                }
                """),
            RuleExample("""
                import UIKit
                let header = ↓UIColor(hex: 0x336699)
                let footer = ↓UIColor(rgb: 0x223344)
                """),
            RuleExample("""
                import AppKit
                let a = ↓NSColor(red: 0.5, green: 0.2, blue: 0.2, alpha: 1)
                let b = ↓NSColor(calibratedRed: 0.5, green: 0.2, blue: 0.2, alpha: 1)
                let c = ↓NSColor(srgbRed: 0.5, green: 0.2, blue: 0.2, alpha: 1)
                """),
        ],
        nonTriggering: [
            // A palette nothing in the repository reads never renders.
            RuleExample("""
                import SwiftUI
                enum BaseColors {
                    static let green80 = Color(red: 0.55, green: 0.85, blue: 0.6)
                    static var yellow95: Color { Color(hex: 0xFFF8E1) }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Card: View {
                    var body: some View {
                        Text("Hi")
                            .foregroundStyle(Color("Brand"))
                            .background(Color(.systemBackground))
                            .border(Color(uiColor: .label))
                    }
                }
                """),
            RuleExample("""
                import UIKit
                let brand = UIColor(named: "Brand")
                let surface = UIColor { traits in
                    traits.userInterfaceStyle == .dark ? UIColor(white: 0.1, alpha: 1) : UIColor(white: 0.96, alpha: 1)
                }
                let card = UIColor { $0.userInterfaceStyle == .dark ? UIColor(white: 0.1, alpha: 1) : .white }
                let tinted = UIColor(dynamicProvider: { _ in UIColor(red: 0.2, green: 0.3, blue: 0.4, alpha: 1) })
                """),
            RuleExample("""
                import SwiftUI
                #Preview {
                    Text("Sample").foregroundStyle(Color(red: 0.9, green: 0.1, blue: 0.1))
                }
                struct Card_Previews: PreviewProvider {
                    static var previews: some View { Color(hex: "#336699") }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Scrim: View {
                    @Environment(\\.colorScheme) private var scheme
                    var body: some View {
                        ZStack {
                            Color(white: 0, opacity: 0.4)
                            Color(red: 1, green: 1, blue: 1).opacity(0.2)
                            scheme == .dark ? Color(white: 0.15) : Color(white: 0.9)
                        }
                        .background(Color(light: Color(white: 0.98), dark: Color(white: 0.1)))
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Gradient: View {
                    let progress: Double
                    var body: some View {
                        Color(red: progress, green: 1 - progress, blue: 0.2)
                    }
                }
                """),
        ]
    )

    private static let componentLabels: Set<String> = [
        "red", "hue", "white", "calibratedRed", "srgbRed", "deviceRed", "displayP3Red", "calibratedWhite",
        "deviceWhite", "genericGamma22White", "calibratedHue", "deviceHue", "cyan", "deviceCyan",
    ]
    private static let hexLabels: Set<String> = ["hex", "hexString", "hexValue", "rgb", "rgba", "argb"]
    private static let alphaLabels: Set<String> = ["alpha", "opacity"]
    private static let colorTypes: Set<String> = ["Color", "UIColor", "NSColor"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: Self.colorTypes.union(["init"])) {
            guard let type = call.initializedTypeName, Self.colorTypes.contains(type),
                  let kind = Self.literalKind(call.arguments) else { continue }
            guard !Self.hasVariants(call), !AccessibilityLabels.isInPreview(call) else { continue }
            sink.report(call, message(for: call.normalizedText, kind: kind))
        }
        for macro in file.index.macroExpansions where macro.macroName.text == "colorLiteral" {
            guard let kind = Self.literalKind(macro.arguments), !Self.hasVariants(macro), !AccessibilityLabels.isInPreview(macro) else { continue }
            sink.report(macro, message(for: macro.normalizedText, kind: kind))
        }
    }

    private func message(for text: String, kind: String) -> String {
        """
        `\(text)` is a fixed \(kind) colour with no dark or increased-contrast variant: it looks \
        the same whatever appearance and Increase Contrast setting people choose
        """
    }

    /// "component" or "hex" when every colour argument is a literal (and not black, white or
    /// clear); `nil` otherwise.
    private static func literalKind(_ arguments: LabeledExprListSyntax) -> String? {
        let labels = arguments.compactMap { $0.label?.text }
        if labels.contains(where: componentLabels.contains) {
            var components: [Double] = []
            for argument in arguments {
                let label = argument.label?.text
                if label == nil { continue } // `.sRGB` colour space
                if let label, alphaLabels.contains(label) {
                    // A fixed colour faded by a variable is still a fixed colour.
                    if argument.expression.constantValue == 0 { return nil }
                    continue
                }
                guard let value = argument.expression.constantValue else { return nil }
                components.append(value)
            }
            // Hue/saturation/brightness with zero saturation or brightness is grey or black.
            if labels.contains("hue") { return "component" }
            if components.allSatisfy({ $0 == 0 }) || components.allSatisfy({ $0 == 1 }) { return nil }
            return "component"
        }
        if let argument = arguments.first(where: { $0.label.map { hexLabels.contains($0.text) } ?? false }) {
            guard let hex = hexDigits(argument.expression) else { return nil }
            let trimmed = hex.uppercased()
            if Set(trimmed) == ["0"] || trimmed.allSatisfy({ $0 == "F" }) { return nil }
            return "hex"
        }
        return nil
    }

    /// The digits of `"#FF0000"`, `"ff0000"` or `0xFF0000`.
    private static func hexDigits(_ expression: ExprSyntax) -> String? {
        if let string = expression.stringLiteralValue {
            var digits = string
            if digits.hasPrefix("#") { digits.removeFirst() }
            if digits.lowercased().hasPrefix("0x") { digits.removeFirst(2) }
            return !digits.isEmpty && digits.allSatisfy(\.isHexDigit) ? digits : nil
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            let text = integer.literal.text.filter { $0 != "_" }
            return text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        }
        return nil
    }

    /// Words of a condition that chooses by appearance or contrast (`scheme == .dark`,
    /// `traits.accessibilityContrast == .high`, `contrast == .increased`).
    private static let appearanceWords = [
        "colorscheme", "userinterfacestyle", "accessibilitycontrast", "appearance", "isdark", "darkmode",
        ".dark", ".light", ".increased", "highcontrast",
    ]
    private static let variantLabels: Set<String> = [
        "light", "dark", "lightHighContrast", "darkHighContrast", "highContrast", "increasedContrast", "any", "dynamicProvider",
    ]

    /// Whether the literal is one variant of an adaptive colour: inside a dynamic provider
    /// closure, a `light:`/`dark:` argument, or a choice made on the colour scheme or contrast.
    private static func hasVariants(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        while let ancestor = current {
            if ancestor.is(DeclSyntax.self) && !ancestor.is(VariableDeclSyntax.self) { return false }
            if let argument = ancestor.as(LabeledExprSyntax.self), let label = argument.label?.text,
               variantLabels.contains(label) {
                return true
            }
            if let closure = ancestor.as(ClosureExprSyntax.self), let owner = FunctionCallExprSyntax.owner(of: closure) {
                if let type = owner.initializedTypeName, type == "UIColor" || type == "NSColor" { return true }
                if FunctionCallExprSyntax.argumentLabel(of: closure) == "dynamicProvider" { return true }
            }
            if let ternary = ancestor.as(ExprSyntax.self).flatMap(TernaryParts.init),
               mentionsAppearance(ternary.conditionText) {
                return true
            }
            if let ifExpression = ancestor.as(IfExprSyntax.self), mentionsAppearance(ifExpression.conditions.sourceText) {
                return true
            }
            if let switchExpression = ancestor.as(SwitchExprSyntax.self), mentionsAppearance(switchExpression.subject.sourceText) {
                return true
            }
            current = ancestor.parent
        }
        return false
    }

    private static func mentionsAppearance(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return appearanceWords.contains { lowered.contains($0) }
    }
}
