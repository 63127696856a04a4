import SwiftSyntax

/// A colour as the source names it. Resolving it (asset catalogs, system colour tables,
/// appearances) is the contrast checker's job: source alone cannot say what `Color("Brand")` is.
public enum ColorExpression: Hashable, Sendable, Codable {
    /// `Color("Brand")`, `UIColor(named: "Brand")`, `NSColor(named:)`, and Xcode's generated
    /// symbols `Color(.brand)` / `.brand`: the colour set's name as written.
    case asset(String)
    /// `.red`, `.primary`, `Color(.systemBackground)`, `UIColor.label`, `NSColor.labelColor`:
    /// the name as written, without the `Color.` / `UIColor.` / `NSColor.` prefix. SwiftUI's
    /// `.red` is the adaptive system red; UIKit's and AppKit's fixed `.red`, `.white`,
    /// `.darkGray`… are documented constants and come out as `.literal`.
    case system(String)
    /// Components as written (0…1). `colorSpace` uses asset catalog spellings: `srgb`,
    /// `extended-srgb`, `display-p3`, `extended-linear-srgb`, `extended-gray`, `gray-gamma-22`,
    /// and for AppKit's calibrated/device initializers `generic-rgb`, `device-rgb`,
    /// `generic-gray`, `device-gray`. Grey literals repeat the white value in red, green and blue.
    case literal(colorSpace: String, red: Double, green: Double, blue: Double, alpha: Double)
    /// `.red.opacity(0.5)`, `UIColor.black.withAlphaComponent(0.6)`.
    indirect case opacity(ColorExpression, Double)

    /// A stable spelling for cache digests: `String(describing:)` of an enum goes through
    /// reflection, which cost a warm re-scan more than hashing the tokens did.
    public var digestInput: String {
        switch self {
        case .asset(let name): return "a:" + name
        case .system(let name): return "s:" + name
        case .literal(let space, let red, let green, let blue, let alpha): return "l:\(space),\(red),\(green),\(blue),\(alpha)"
        case .opacity(let inner, let opacity): return "o:\(opacity)(" + inner.digestInput + ")"
        }
    }

    /// Fully transparent: shows whatever is behind, so it is no background and no foreground.
    var isClear: Bool {
        switch self {
        case .system(let name): return name == "clear"
        case .literal(_, _, _, _, let alpha): return alpha == 0
        case .opacity(let color, let alpha): return alpha == 0 || color.isClear
        case .asset: return false
        }
    }
}

/// A foreground drawn over a background, as far as one file shows them.
public struct ColorPair: Sendable {
    public var foreground: ColorExpression
    /// `nil`: nothing in the file sets one; the caller assumes the system background and says so.
    public var background: ColorExpression?
    /// Text (SC 1.4.3) or a non-text indicator such as a shape, an SF Symbol or a switch (SC 1.4.11).
    public var isText: Bool
    /// UIKit text style name (`body`, `caption1`, `title1`…) when the source sets one.
    /// `nil` when no font is set: SwiftUI's and UIKit's default is then `body`.
    public var textStyle: String?
    /// A fixed point size, when the source gives one (`.system(size: 11)`, `systemFont(ofSize: 11)`).
    public var pointSize: Double?
    /// Bold for WCAG's large-text rule: bold, heavy or black. Semibold is not bold.
    public var isBold: Bool
    /// Where a finding points: the colour argument of the foreground modifier (`.gray` in
    /// `.foregroundStyle(.gray)`: a modifier call's own position is the start of its chain,
    /// possibly lines above), the UIKit assignment or `setTitleColor` call, or the element
    /// itself when only the background is set.
    public var node: Syntax
    /// Where the background comes from: the colour argument of `.background(…)` /
    /// `.listRowBackground(…)` / `.tint(…)` (prominent buttons), the colour view (a `ZStack`'s
    /// first child, a `.background { … }` layer), or the `x.backgroundColor = …` assignment.
    public var backgroundNode: Syntax?
    /// The view the colours apply to: the SwiftUI element (`Text("…")`, `Circle()`), or the
    /// UIKit assignment or declaration. Several elements can share one inherited foreground
    /// modifier, and the finding should name which one fails.
    public var element: Syntax
}

extension SourceFile {
    /// Foreground/background pairs in this file, in source order. Built from the shared index
    /// and parent links only: no second walk of the tree. `judgeableOnly`: see
    /// `SwiftUIColorPairs.pairs(judgeableOnly:)`.
    func colorPairs(judgeableOnly: Bool = false) -> [ColorPair] {
        let reader = ColorReader(index: index, assetSymbols: context.colorSymbols, tokens: context.colorTokens,
                                 namespaces: context.colorNamespaces,
                                 tintIsAppColor: context.accentColorIsSet
                                     ?? (context.colors.color(named: "AccentColor", near: path)?.values.isEmpty == false))
        var pairs = SwiftUIColorPairs(reader: reader).pairs(judgeableOnly: judgeableOnly)
        pairs += PlatformColorPairs(reader: reader).pairs()
        // UIKit pairs come out of a dictionary; sort for a stable order, keeping the order of
        // ternary branches that share a node.
        return pairs.enumerated().sorted {
            ($0.element.element.position.utf8Offset, $0.element.node.position.utf8Offset, $0.offset)
                < ($1.element.element.position.utf8Offset, $1.element.node.position.utf8Offset, $1.offset)
        }.map(\.element)
    }
}

/// Which framework's names a shorthand uses: SwiftUI's `.red` is the adaptive system red,
/// UIKit's and AppKit's `.red` a fixed pure red.
enum ColorNaming {
    case swiftUI
    case platform
}

/// Font facts that decide WCAG's large-text threshold.
struct FontFacts {
    var textStyle: String?
    var pointSize: Double?
    var isBold: Bool?
}

/// Describes colour and font expressions symbolically. Anything it cannot name for certain
/// (a parameter, a function call, a gradient) is `nil`: a contrast verdict on a guess is worse
/// than none.
struct ColorReader {
    let index: SourceIndex
    /// Xcode's generated asset symbols of the repository's catalogs (`background` → "Background").
    var assetSymbols: [String: String] = [:]
    /// The colours the app names in other files (`ColorTokens`).
    var tokens: [String: ColorToken] = [:]
    /// The colours the app names through its own types in other files (`ColorNamespaces`).
    var namespaces: ColorNamespaces = .empty
    /// The app's catalog sets an `AccentColor`: buttons' default tint and `.accentColor` are
    /// then a colour the app chose, not the system's.
    var tintIsAppColor = false
    /// Declarations by name and owning type, grouped once per file: a name declared in
    /// thousands of types would otherwise be scoped again for every use.
    private let scopes = ScopeMemo()

    private final class ScopeMemo {
        var byOwner: [String: [String: [Syntax]]] = [:]
    }

    /// `Color(…)` / `UIColor(…)` written as `.init(…)` where the type is known.
    func describeInitializer(_ call: FunctionCallExprSyntax, as type: String) -> [ColorExpression]? {
        initializer(call, type, depth: 0)
    }

    func describe(_ expression: ExprSyntax, _ naming: ColorNaming) -> [ColorExpression]? {
        describe(expression, naming, depth: 0)
    }

    /// The right-hand side of an assignment, unfolded (`a ?? b` and `c ? a : b` are several elements).
    func describe(elements: [ExprSyntax], _ naming: ColorNaming) -> [ColorExpression]? {
        describe(elements: elements, naming, depth: 0)
    }

    private func describe(elements: [ExprSyntax], _ naming: ColorNaming, depth: Int) -> [ColorExpression]? {
        if elements.count == 1, let only = elements.first { return describe(only, naming, depth: depth) }
        if let ternary = TernaryParts(elements: elements) { return describe(branches: ternary.branches, naming, depth: depth) }
        // `UIColor(named: "Brand") ?? .label`: the fallback shows only when the asset is missing.
        if elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
            return describe(elements[0], naming, depth: depth)
        }
        return nil
    }

    private func describe(branches: [ExprSyntax], _ naming: ColorNaming, depth: Int) -> [ColorExpression]? {
        var result: [ColorExpression] = []
        for branch in branches {
            guard let colors = describe(branch, naming, depth: depth + 1) else { return nil }
            for color in colors where !result.contains(color) { result.append(color) }
        }
        return result
    }

    private func describe(_ expression: ExprSyntax, _ naming: ColorNaming, depth: Int) -> [ColorExpression]? {
        // Constants can refer to constants; a cycle in broken code must not recurse forever.
        guard depth < 8 else { return nil }
        let next = depth + 1
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
           let inner = tuple.elements.first, inner.label == nil {
            return describe(inner.expression, naming, depth: next)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return describe(forced.expression, naming, depth: next) }
        if let optional = expression.as(OptionalChainingExprSyntax.self) {
            return describe(optional.expression, naming, depth: next)
        }
        if let ternary = TernaryParts(expression) { return describe(branches: ternary.branches, naming, depth: next) }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return describe(elements: Array(sequence.elements), naming, depth: next)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) { return describe(member, naming, depth: next) }
        if let call = expression.as(FunctionCallExprSyntax.self) { return describe(call, naming, depth: next) }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            // A `let` in this file is as good as its value; a parameter or a `var` is not known here.
            // The name must mean that `let` where it is used: the file's only declaration of it,
            // not a parameter around the use, and a member of the type the use is in.
            let name = reference.baseName.text
            guard !Self.isParameter(name, around: Syntax(reference)) else { return nil }
            // Of the declarations called so, those visible here (in a type the use is in, or at
            // file scope) must be one `let` with a value.
            let owners = scopes.byOwner[name] ?? {
                let grouped = Dictionary(grouping: index.declarations[name] ?? []) { Self.typeName(of: $0.enclosingTypeDecl) ?? "" }
                scopes.byOwner[name] = grouped
                return grouped
            }()
            var visible = owners[""] ?? []
            var type = Syntax(reference).enclosingTypeDecl
            while let current = type, visible.count < 2 {
                if let owner = Self.typeName(of: current) { visible += owners[owner] ?? [] }
                type = current.enclosingTypeDecl
            }
            guard visible.count == 1, let binding = visible[0].as(PatternBindingSyntax.self), let value = binding.initializer?.value,
                  let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self),
                  declaration.bindingSpecifier.tokenKind == .keyword(.let) else { return nil }
            return describe(value, naming, depth: next)
        }
        if let macro = expression.as(MacroExpansionExprSyntax.self), macro.macroName.text == "colorLiteral" {
            return components(macro.arguments, red: "red", alpha: "alpha", space: "srgb").map { [$0] }
        }
        return nil
    }

    private func describe(_ member: MemberAccessExprSyntax, _ naming: ColorNaming, depth: Int) -> [ColorExpression]? {
        let name = member.declName.baseName.text
        guard let base = member.base else { return named(name, naming, owners: Self.colorOwners, depth: depth) }
        // CALayer colours are ignored, but `UIColor.red.cgColor` is still UIColor.red.
        if name == "cgColor" { return describe(base, naming, depth: depth) }
        guard let baseName = ExprSyntax.dottedName(base) else { return nil }
        switch baseName {
        case "Color", "SwiftUI.Color":
            return named(name, .swiftUI, owners: Self.colorOwners, depth: depth)
        case "UIColor", "NSColor", "UIKit.UIColor", "AppKit.NSColor":
            return named(name, .platform, owners: Self.colorOwners, depth: depth)
        default:
            // `Palette.text`: a constant of a type declared in this file; an instance's property is not known.
            let owner = baseName.split(separator: ".").last.map(String.init) ?? baseName
            if let value = constant(named: name, in: [owner]) { return describe(value, naming, depth: depth) }
            // `Palette.text`, `BeamColor.Generic.text.swiftUI`: declared in another file.
            return namespaces.color(base: baseName, member: name).map { [$0] }
        }
    }

    private func named(_ name: String, _ naming: ColorNaming, owners: Set<String>, depth: Int) -> [ColorExpression]? {
        // `extension Color { static let brand = Color(red: …) }` in this file: its value, not an
        // asset, even when it shadows a style name such as `.background`.
        if let value = constant(named: name, in: owners) { return describe(value, naming, depth: depth) }
        if index.declarations[name]?.contains(where: { Self.typeName(of: $0.enclosingTypeDecl).map(owners.contains) ?? false }) == true {
            return nil // a computed colour of this file: not known
        }
        // A colour the app declares in another file. A style's name (`.background`) stays the
        // style unless the app declares it on ShapeStyle: `Color.background` does not shadow
        // `.foregroundStyle(.background)`.
        if let token = tokens[name], index.declarations[name] == nil,
           !Self.materialsAndStyles.contains(name) || token.owners.contains("ShapeStyle") {
            return [token.value]
        }
        if Self.materialsAndStyles.contains(name) { return nil }
        if naming == .platform, let fixed = Self.fixedPlatformColors[name] { return [fixed] }
        // Xcode generates `Color.x`, `ShapeStyle.x` (where Self == Color), `UIColor.x`,
        // `NSColor.x` and `ColorResource.x` for a colour set, except a member the type already
        // has (`Color.secondary`, `UIColor.label`: it warns and leaves that one out). So a set
        // named "Background" is what `Color.background`, `Color(.background)` and
        // `UIColor.background` mean.
        if assetSymbols[name] != nil, !Self.ownMembers(naming).contains(name) { return [.asset(name)] }
        if Self.systemNames.contains(name) { return [.system(name)] }
        // Declared here but computed or variable: not an asset symbol, and not known.
        if index.declarations[name] != nil { return nil }
        // Otherwise Xcode's generated asset symbol (`Color.brand`, `UIColor.brand`, `Color(.brand)`).
        return [.asset(name)]
    }

    private func describe(_ call: FunctionCallExprSyntax, _ naming: ColorNaming, depth: Int) -> [ColorExpression]? {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
           member.declName.baseName.text != "init" {
            let name = member.declName.baseName.text
            // `Color.red.opacity(0.5)`; anything else called on a colour (`mix`, `gradient`, a
            // view modifier) changes it in ways a name cannot carry.
            guard name == "opacity" || name == "withAlphaComponent", call.arguments.count == 1,
                  let argument = call.arguments.first, argument.label == nil,
                  let alpha = Self.number(argument.expression),
                  let colors = describe(base, naming, depth: depth) else {
                // `SwiftUI.Color(…)` is an initializer even though it is written as a member.
                if name.first?.isUppercase == true, let type = call.initializedTypeName { return initializer(call, type, depth: depth) }
                return nil
            }
            // SwiftUI and UIKit clamp opacity to 0...1; so does every sum made with it.
            let clamped = min(max(alpha, 0), 1)
            return colors.map { .opacity($0, clamped) }
        }
        guard let type = call.initializedTypeName else { return nil }
        return initializer(call, type, depth: depth)
    }

    private func initializer(_ call: FunctionCallExprSyntax, _ type: String, depth: Int) -> [ColorExpression]? {
        // `UIColor { traits in … }`: a dynamic provider, one colour per appearance.
        guard call.trailingClosure == nil else { return nil }
        let arguments = call.arguments
        let labels = Set(arguments.compactMap { $0.label?.text })
        switch type {
        case "Color":
            if labels.contains("red") {
                let space = call.firstUnlabeledArgument.map { Self.swiftUIColorSpaces[$0.memberName ?? ""] }
                guard let resolved = space ?? "srgb" else { return nil }
                return components(arguments, red: "red", alpha: "opacity", space: resolved).map { [$0] }
            }
            if labels.contains("white") {
                let space = call.firstUnlabeledArgument.map { Self.swiftUIColorSpaces[$0.memberName ?? ""] }
                guard let resolved = space ?? "srgb" else { return nil }
                return white(arguments, label: "white", alpha: "opacity", space: resolved).map { [$0] }
            }
            if labels.contains("hue") { return hue(arguments, label: "hue", alpha: "opacity", space: "srgb").map { [$0] } }
            if labels.contains("hex") { return hex(arguments).map { [$0] } }
            if let platform = call.argument("uiColor") ?? call.argument("nsColor") {
                return describe(platform, .platform, depth: depth + 1)
            }
            guard labels.subtracting(["bundle"]).isEmpty, let first = call.firstUnlabeledArgument else { return nil }
            // An interpolated name is not known.
            if first.is(StringLiteralExprSyntax.self) { return first.stringLiteralValue.map { [.asset($0)] } }
            // `Color(.systemBackground)`, `Color(UIColor.label)`, `Color(.brand)` (a ColorResource).
            return describe(first, .platform, depth: depth + 1)
        case "UIColor", "NSColor":
            if let name = call.argument("named") {
                if let value = name.stringLiteralValue { return [.asset(value)] }
                // `NSColor(named: NSColor.Name("Brand"))`
                if let wrapped = name.as(FunctionCallExprSyntax.self), wrapped.calleeName == "Name",
                   let value = wrapped.firstUnlabeledArgument?.stringLiteralValue {
                    return [.asset(value)]
                }
                return nil
            }
            for (label, space) in Self.platformComponentInitializers where labels.contains(label) {
                return components(arguments, red: label, alpha: "alpha", space: space).map { [$0] }
            }
            for (label, space) in Self.platformWhiteInitializers where labels.contains(label) {
                return white(arguments, label: label, alpha: "alpha", space: space).map { [$0] }
            }
            for (label, space) in Self.platformHueInitializers where labels.contains(label) {
                return hue(arguments, label: label, alpha: "alpha", space: space).map { [$0] }
            }
            if labels.contains("hex") { return hex(arguments).map { [$0] } }
            // `UIColor(Color.accentColor)`, `UIColor(.red)`, `NSColor(.brand)`: the one unlabeled
            // initializer takes a SwiftUI `Color`, so `.red` is SwiftUI's adaptive red.
            guard labels.isEmpty, arguments.count == 1, let first = call.firstUnlabeledArgument else { return nil }
            return describe(first, .swiftUI, depth: depth + 1)
        default:
            return nil
        }
    }

    // MARK: Literals

    private func components(_ arguments: LabeledExprListSyntax, red: String, alpha: String, space: String) -> ColorExpression? {
        guard let r = Self.value(red, in: arguments), let g = Self.value("green", in: arguments),
              let b = Self.value("blue", in: arguments), let a = Self.alpha(alpha, in: arguments) else { return nil }
        return .literal(colorSpace: space, red: r, green: g, blue: b, alpha: a)
    }

    private func white(_ arguments: LabeledExprListSyntax, label: String, alpha: String, space: String) -> ColorExpression? {
        guard let w = Self.value(label, in: arguments), let a = Self.alpha(alpha, in: arguments) else { return nil }
        return .literal(colorSpace: space, red: w, green: w, blue: w, alpha: a)
    }

    private func hue(_ arguments: LabeledExprListSyntax, label: String, alpha: String, space: String) -> ColorExpression? {
        guard let h = Self.value(label, in: arguments), let s = Self.value("saturation", in: arguments),
              let v = Self.value("brightness", in: arguments), let a = Self.alpha(alpha, in: arguments) else { return nil }
        let (r, g, b) = Self.rgb(hue: h, saturation: s, brightness: v)
        return .literal(colorSpace: space, red: r, green: g, blue: b, alpha: a)
    }

    /// `Color(hex: "#1C1C1E")`, `UIColor(hex: 0x1C1C1E)`: not Apple API but a near-universal
    /// extension. Only six digits are read; eight could be RGBA or ARGB depending on who wrote it.
    private func hex(_ arguments: LabeledExprListSyntax) -> ColorExpression? {
        guard let argument = arguments.first(where: { $0.label?.text == "hex" })?.expression else { return nil }
        var digits: String
        if let string = argument.stringLiteralValue {
            digits = string
            if digits.hasPrefix("#") { digits.removeFirst() }
        } else if let integer = argument.as(IntegerLiteralExprSyntax.self) {
            digits = integer.literal.text.filter { $0 != "_" }
            guard digits.lowercased().hasPrefix("0x") else { return nil }
            digits.removeFirst(2)
        } else {
            return nil
        }
        guard digits.count == 6, let value = Int(digits, radix: 16),
              let alpha = Self.alpha("alpha", in: arguments), let opacity = Self.alpha("opacity", in: arguments)
        else { return nil }
        let a = alpha * opacity
        return .literal(colorSpace: "srgb", red: Double((value >> 16) & 0xFF) / 255,
                        green: Double((value >> 8) & 0xFF) / 255, blue: Double(value & 0xFF) / 255, alpha: a)
    }

    private static func value(_ label: String, in arguments: LabeledExprListSyntax) -> Double? {
        guard let expression = arguments.first(where: { $0.label?.text == label })?.expression else { return nil }
        return number(expression)
    }

    /// Absent means opaque; present but not a constant means unknown.
    private static func alpha(_ label: String, in arguments: LabeledExprListSyntax) -> Double? {
        guard let expression = arguments.first(where: { $0.label?.text == label })?.expression else { return 1 }
        return number(expression)
    }

    /// A literal or arithmetic on literals (`59 / 255`, `CGFloat(0.5)`).
    static func number(_ expression: ExprSyntax) -> Double? { expression.constantValue }

    static func rgb(hue: Double, saturation: Double, brightness: Double) -> (Double, Double, Double) {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h.rounded(.down)) % 6
        let f = h - h.rounded(.down)
        let v = brightness
        let p = v * (1 - saturation), q = v * (1 - saturation * f), t = v * (1 - saturation * (1 - f))
        switch sector {
        case 0: return (v, t, p)
        case 1: return (q, v, p)
        case 2: return (p, v, t)
        case 3: return (p, q, v)
        case 4: return (t, p, v)
        default: return (v, p, q)
        }
    }

    // MARK: Constants declared in this file

    /// The initializer of the one `let` called `name` in this file, declared in a type or
    /// extension named in `owners` (anywhere when `nil`). Several candidates: unknown.
    private func constant(named name: String, in owners: Set<String>?) -> ExprSyntax? {
        guard let values = index.bindings[name] else { return nil }
        let candidates = values.filter { value in
            guard let binding = value.parent?.parent?.as(PatternBindingSyntax.self),
                  let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self),
                  declaration.bindingSpecifier.tokenKind == .keyword(.let) else { return false }
            guard let owners else { return true }
            return Self.typeName(of: declaration.enclosingTypeDecl).map(owners.contains) ?? false
        }
        guard candidates.count == 1, owners != nil || values.count == 1 else { return nil }
        return candidates.first
    }

    /// A function, initializer or closure around `node` takes a parameter called `name`.
    static func isParameter(_ name: String, around node: Syntax) -> Bool {
        var current = node.parent
        while let scope = current {
            if let function = scope.as(FunctionDeclSyntax.self),
               function.signature.parameterClause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) {
                return true
            }
            if let initializer = scope.as(InitializerDeclSyntax.self),
               initializer.signature.parameterClause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) {
                return true
            }
            if let closure = scope.as(ClosureExprSyntax.self), let parameters = closure.signature?.parameterClause {
                switch parameters {
                case .simpleInput(let names): if names.contains(where: { $0.name.text == name }) { return true }
                case .parameterClause(let clause):
                    if clause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) { return true }
                @unknown default: return true
                }
            }
            current = scope.parent
        }
        return false
    }

    private static func typeName(of declaration: Syntax?) -> String? {
        guard let declaration else { return nil }
        if let type = declaration.as(StructDeclSyntax.self) { return type.name.text }
        if let type = declaration.as(EnumDeclSyntax.self) { return type.name.text }
        if let type = declaration.as(ClassDeclSyntax.self) { return type.name.text }
        if let type = declaration.as(ActorDeclSyntax.self) { return type.name.text }
        if let type = declaration.as(ExtensionDeclSyntax.self) {
            return type.extendedType.typeName.split(separator: ".").last.map(String.init)
        }
        return nil
    }

    // MARK: Fonts

    /// `.body`, `.system(size: 11, weight: .bold)`, `.title.bold()`, `Font.custom(_, size:)`,
    /// `UIFont.preferredFont(forTextStyle:)`, `.systemFont(ofSize:weight:)`, `.boldSystemFont(ofSize:)`,
    /// `UIFontMetrics(…).scaledFont(for:)`. `nil` when the font is not one of these.
    func font(_ expression: ExprSyntax, depth: Int = 0) -> FontFacts? {
        guard depth < 8 else { return nil }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            if let style = Self.textStyles[name] { return FontFacts(textStyle: style) }
            return nil
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self),
           let value = constant(named: reference.baseName.text, in: nil) {
            return font(value, depth: depth + 1)
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), let name = call.calleeName else { return nil }
        let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        let isBold = call.argument("weight").map(Self.isBoldWeight)
        switch name {
        case "system":
            var facts = FontFacts(pointSize: call.argument("size").flatMap(Self.number), isBold: isBold)
            if let style = call.firstUnlabeledArgument?.memberName { facts.textStyle = Self.textStyles[style] }
            return facts.textStyle == nil && facts.pointSize == nil ? nil : facts
        case "custom":
            guard let size = (call.argument("size") ?? call.argument("fixedSize")).flatMap(Self.number) else { return nil }
            return FontFacts(pointSize: size)
        case "preferredFont":
            guard let style = call.argument("forTextStyle")?.memberName.flatMap({ Self.textStyles[$0] }) else { return nil }
            return FontFacts(textStyle: style)
        case "systemFont", "monospacedSystemFont", "monospacedDigitSystemFont", "italicSystemFont":
            guard let size = call.argument("ofSize").flatMap(Self.number) else { return nil }
            return FontFacts(pointSize: size, isBold: isBold)
        case "boldSystemFont":
            return FontFacts(pointSize: call.argument("ofSize").flatMap(Self.number), isBold: true)
        case "UIFont", "NSFont", "init":
            guard call.argument("name") != nil, let size = call.argument("size").flatMap(Self.number) else { return nil }
            return FontFacts(pointSize: size)
        case "scaledFont":
            return call.argument("for").flatMap { font($0, depth: depth + 1) }
        case "Font":
            return call.firstUnlabeledArgument.flatMap { font($0, depth: depth + 1) }
        case "withSize":
            guard let base, let size = call.firstUnlabeledArgument.flatMap(Self.number) else { return nil }
            var facts = font(base, depth: depth + 1) ?? FontFacts()
            facts.pointSize = size
            return facts
        case "bold", "weight":
            guard let base, var facts = font(base, depth: depth + 1) else { return nil }
            facts.isBold = name == "bold" ? true : call.firstUnlabeledArgument.map(Self.isBoldWeight)
            return facts
        case "italic", "monospaced", "monospacedDigit", "smallCaps", "lowercaseSmallCaps", "uppercaseSmallCaps",
             "leading", "width", "tracking", "kerning":
            return base.flatMap { font($0, depth: depth + 1) }
        default:
            return nil
        }
    }

    /// WCAG's "bold" for large text. Semibold is lighter than bold and does not count.
    static func isBoldWeight(_ expression: ExprSyntax) -> Bool {
        expression.memberName.map { ["bold", "heavy", "black"].contains($0) } ?? false
    }

    // MARK: Names

    /// SwiftUI font names and UIKit/AppKit text style names, as UIKit names them.
    static let textStyles: [String: String] = [
        "largeTitle": "largeTitle", "title": "title1", "title1": "title1", "title2": "title2", "title3": "title3",
        "headline": "headline", "subheadline": "subheadline", "body": "body", "callout": "callout",
        "footnote": "footnote", "caption": "caption1", "caption1": "caption1", "caption2": "caption2",
        "extraLargeTitle": "extraLargeTitle", "extraLargeTitle2": "extraLargeTitle2",
    ]

    /// Types whose extensions declare colour constants used as `.name`.
    static let colorOwners: Set<String> = ["Color", "UIColor", "NSColor", "ShapeStyle"]

    static let swiftUIColorSpaces: [String: String] = [
        "sRGB": "srgb", "displayP3": "display-p3", "sRGBLinear": "extended-linear-srgb",
    ]
    static let platformComponentInitializers: [(String, String)] = [
        ("red", "extended-srgb"), ("srgbRed", "srgb"), ("displayP3Red", "display-p3"),
        ("calibratedRed", "generic-rgb"), ("deviceRed", "device-rgb"),
    ]
    static let platformWhiteInitializers: [(String, String)] = [
        ("white", "extended-gray"), ("genericGamma22White", "gray-gamma-22"),
        ("calibratedWhite", "generic-gray"), ("deviceWhite", "device-gray"),
    ]
    static let platformHueInitializers: [(String, String)] = [
        ("hue", "extended-srgb"), ("calibratedHue", "generic-rgb"), ("deviceHue", "device-rgb"),
    ]

    /// Materials, gradients and hierarchical styles that are not one colour.
    static let materialsAndStyles: Set<String> = [
        "ultraThinMaterial", "thinMaterial", "regularMaterial", "thickMaterial", "ultraThickMaterial", "bar",
        "foreground",
    ]

    /// UIKit's and AppKit's fixed colours: documented component values, not adaptive.
    static let fixedPlatformColors: [String: ColorExpression] = {
        func gray(_ white: Double) -> ColorExpression {
            .literal(colorSpace: "extended-gray", red: white, green: white, blue: white, alpha: 1)
        }
        func rgb(_ r: Double, _ g: Double, _ b: Double) -> ColorExpression {
            .literal(colorSpace: "extended-srgb", red: r, green: g, blue: b, alpha: 1)
        }
        return [
            "black": gray(0), "white": gray(1), "gray": gray(0.5), "darkGray": gray(1.0 / 3), "lightGray": gray(2.0 / 3),
            "red": rgb(1, 0, 0), "green": rgb(0, 1, 0), "blue": rgb(0, 0, 1), "cyan": rgb(0, 1, 1),
            "yellow": rgb(1, 1, 0), "magenta": rgb(1, 0, 1), "orange": rgb(1, 0.5, 0), "purple": rgb(0.5, 0, 0.5),
            "brown": rgb(0.6, 0.4, 0.2),
        ]
    }()

    /// Static members SwiftUI's `Color` declares itself: Xcode generates no asset symbol of these names.
    static let swiftUIColorMembers: Set<String> = [
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown",
        "white", "gray", "black", "clear", "primary", "secondary", "accentColor",
    ]
    /// Names in `systemNames` that only SwiftUI has (styles, not `UIColor`/`NSColor` members).
    static let swiftUIOnlyNames: Set<String> = [
        "mint", "teal", "indigo", "pink", "primary", "secondary", "tertiary", "quaternary", "quinary", "accentColor",
        "tint", "background", "placeholder", "fill", "selection", "windowBackground",
    ]
    static let platformColorMembers: Set<String> = systemNames.subtracting(swiftUIOnlyNames)

    /// Members the type that `naming` reads from has itself, which an asset symbol cannot take.
    /// `Color(.x)` reads from `ColorResource` or `UIColor`/`NSColor`: with both, it is ambiguous
    /// in Swift, and the system colour is kept.
    static func ownMembers(_ naming: ColorNaming) -> Set<String> {
        naming == .swiftUI ? swiftUIColorMembers : platformColorMembers
    }

    /// Adaptive colours and styles the system defines, by the names SwiftUI, UIKit and AppKit use.
    static let systemNames: Set<String> = [
        // SwiftUI
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown",
        "white", "gray", "black", "clear", "primary", "secondary", "tertiary", "quaternary", "quinary",
        "accentColor", "tint", "background", "separator", "placeholder", "link", "fill", "selection",
        "windowBackground",
        // UIKit
        "systemRed", "systemOrange", "systemYellow", "systemGreen", "systemMint", "systemTeal", "systemCyan",
        "systemBlue", "systemIndigo", "systemPurple", "systemPink", "systemBrown", "systemGray", "systemGray2",
        "systemGray3", "systemGray4", "systemGray5", "systemGray6", "label", "secondaryLabel", "tertiaryLabel",
        "quaternaryLabel", "placeholderText", "opaqueSeparator", "systemBackground",
        "secondarySystemBackground", "tertiarySystemBackground", "systemGroupedBackground",
        "secondarySystemGroupedBackground", "tertiarySystemGroupedBackground", "systemFill", "secondarySystemFill",
        "tertiarySystemFill", "quaternarySystemFill", "lightText", "darkText", "tintColor",
        "groupTableViewBackground",
        // AppKit
        "labelColor", "secondaryLabelColor", "tertiaryLabelColor", "quaternaryLabelColor", "quinaryLabel",
        "textColor", "placeholderTextColor", "selectedTextColor", "textBackgroundColor",
        "selectedTextBackgroundColor", "keyboardFocusIndicatorColor", "unemphasizedSelectedTextColor",
        "unemphasizedSelectedTextBackgroundColor", "linkColor", "separatorColor", "selectedContentBackgroundColor",
        "unemphasizedSelectedContentBackgroundColor", "selectedMenuItemTextColor", "gridColor", "headerTextColor",
        "controlAccentColor", "controlColor", "controlBackgroundColor", "controlTextColor",
        "disabledControlTextColor", "selectedControlColor", "selectedControlTextColor",
        "alternateSelectedControlTextColor", "windowBackgroundColor", "windowFrameTextColor",
        "underPageBackgroundColor", "findHighlightColor", "highlightColor", "shadowColor", "quinarySystemFill",
    ]
}
