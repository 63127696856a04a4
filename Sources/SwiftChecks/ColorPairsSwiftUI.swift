import AuditModel
import SwiftSyntax

/// SwiftUI pairs: an element (`Text`, `Button("…")`, `Image(systemName:)`, a shape) with the
/// foreground its own chain or an enclosing container sets (foreground style flows down the
/// environment), against the nearest background behind it.
struct SwiftUIColorPairs {
    let reader: ColorReader
    private let containersMemo = EnclosingViewCallsMemo()
    private let backgroundsMemo = BackgroundsMemo()

    /// Siblings share their containers: each container's level, and the background found from
    /// it outwards, are found once per file.
    private final class BackgroundsMemo {
        var results: [LevelKey: Search] = [:]
        /// Each container's level, built once per file.
        var containerLevels: [SyntaxIdentifier: Level] = [:]
        var modifierLevels: [SyntaxIdentifier: Level] = [:]
        /// Per view-builder statement list: how many of its statements show text.
        var textStatements: [SyntaxIdentifier: Int] = [:]
    }

    /// A container level: its call, and the view directly behind the element (a `ZStack`'s
    /// first child), which depends on where in the container the element is.
    private struct LevelKey: Hashable {
        let call: SyntaxIdentifier
        let behind: SyntaxIdentifier?
    }

    private enum Search {
        case found([ColorExpression], Syntax)
        case undescribable
        case notFound
    }

    /// What a view used as a background paints.
    private enum Layer {
        case color([ColorExpression], Syntax)
        /// Paints something that is not one colour (an image, a gradient, a shape filled with an
        /// inherited style): no verdict is possible.
        case opaque
        /// Paints nothing where the element is (a stroked outline, `Color.clear`, a `GeometryReader`).
        case transparent
        /// Not recognisably a background (a `VStack`): look further out.
        case notALayer
    }

    /// One step out from the element: its own chain, then each view it sits in.
    private struct Level {
        /// The chain's root name for the element itself and containers (`VStack`, `Button`);
        /// `nil` for a modifier whose content holds the element (`.overlay { … }`).
        let rootName: String?
        /// Modifiers whose environment reaches the element, innermost first.
        let environment: [FunctionCallExprSyntax]
        /// Every modifier of the chain: a background sits behind the whole view, overlays included.
        let chain: [FunctionCallExprSyntax]
        /// A view directly behind the element: the first child of its `ZStack`, the view an overlay covers.
        let behind: ExprSyntax?
        /// The container call this level is, and what is behind: nil for the element's own chain.
        var key: LevelKey? = nil
    }

    static let textElements: Set<String> = [
        "Text", "Label", "Button", "Link", "Toggle", "TextField", "SecureField", "TextEditor", "Menu", "Stepper",
        "DatePicker", "NavigationLink",
    ]
    /// Text only with a title argument; otherwise their label views are elements of their own.
    static let titledOnly: Set<String> = ["Label", "Button", "Link", "Toggle", "Menu", "Stepper", "DatePicker", "NavigationLink"]
    static let shapes: Set<String> = [
        "Circle", "Rectangle", "RoundedRectangle", "Capsule", "Ellipse", "UnevenRoundedRectangle", "ContainerRelativeShape",
    ]
    /// Controls whose tint colours a non-text part (the switch, the track, the bar).
    static let indicatorControls: Set<String> = ["Toggle", "Slider", "ProgressView", "Gauge"]
    /// Controls whose tint colours their label, as a button's does.
    static let tintedControls: Set<String> = ["Button", "Link", "Menu", "NavigationLink"]
    /// Containers that draw their own opaque background unless told not to.
    static let opaqueContainers: Set<String> = ["List", "Form", "Table"]
    /// Content presented elsewhere, on its own background, with its own environment.
    static let presentationBoundaries: Set<String> = [
        "sheet", "fullScreenCover", "popover", "alert", "confirmationDialog", "navigationDestination", "toolbar",
        "contextMenu", "swipeActions", "inspector", "searchSuggestions", "safeAreaBar", "tabItem",
    ]
    /// Controls whose trailing-closure content is presented in a system menu, not in place.
    static let menuContainers: Set<String> = ["Menu", "Picker"]
    /// Modifiers whose content is decoration or a shape, not something read against a background.
    static let backgroundLayers: Set<String> = [
        "background", "mask", "listRowBackground", "clipShape", "contentShape", "backgroundStyle",
        "containerBackground", "presentationBackground", "toolbarBackground", "accessibilityRepresentation",
        "accessibilityChildren",
    ]
    /// Modifiers that do not change the colour a background view paints.
    static let neutralModifiers: Set<String> = [
        "ignoresSafeArea", "edgesIgnoringSafeArea", "frame", "padding", "cornerRadius", "clipShape", "clipped",
        "shadow", "containerRelativeFrame", "offset", "position", "zIndex", "allowsHitTesting", "accessibilityHidden",
        "id", "transition", "animation", "contentShape", "scaleEffect", "rotationEffect", "preference",
        "anchorPreference", "onAppear", "onDisappear", "onChange", "onGeometryChange", "aspectRatio", "layoutPriority",
    ]
    /// Views that paint something other than one colour.
    static let opaqueViews: Set<String> = [
        "Image", "AsyncImage", "LinearGradient", "RadialGradient", "AngularGradient", "EllipticalGradient", "MeshGradient",
        "Color", "VideoPlayer", "Map", "Canvas", "TimelineView",
    ]
    static let transparentViews: Set<String> = ["GeometryReader", "EmptyView", "Spacer"]
    /// Any of these in a file means some colour may be set; a file with none has only defaults.
    static let colorModifiers = [
        "foregroundStyle", "foregroundColor", "tint", "accentColor", "fill", "stroke", "strokeBorder", "background",
        "listRowBackground", "ZStack",
    ]

    /// Foreground modifiers: an element under only these, with system colours, forms system
    /// pairs, which the contrast rules do not judge.
    static let foregroundModifiers: Set<String> = ["foregroundStyle", "foregroundColor", "fill", "stroke", "strokeBorder"]

    /// The pairs of the file. `judgeableOnly` leaves out elements whose every pair would be a
    /// system colour on a system colour or on the default background (what the contrast rules
    /// skip), without changing any other pair.
    func pairs(judgeableOnly: Bool = false) -> [ColorPair] {
        let index = reader.index
        guard Self.colorModifiers.contains(where: { index.callsByName[$0] != nil })
                || (reader.tintIsAppColor && index.callsByName["Button"] != nil) else { return [] }
        var result: [ColorPair] = []
        // Only an element inside a view whose chain sets a colour (or inside a ZStack, which can
        // draw one behind it) can form a pair. Those views' extents are found once, so the
        // costlier walk up each element's containers runs only where it can find something.
        // Neither loop needs source order: `colorPairs()` sorts the pairs.
        var extents: [Range<Int>] = []
        // With `judgeableOnly`: extents of foreground modifiers that set only system colours (or
        // none), and the content of overlays, whose covered view (`Color.red.overlay { … }`) can
        // be the background of a system foreground.
        var systemExtents: [Range<Int>] = [], overlayExtents: [Range<Int>] = []
        for name in Self.colorModifiers {
            for call in index.callsByName[name] ?? [] {
                let outer = name == "ZStack" ? ExprSyntax(call) : ModifierChain(containing: ExprSyntax(call)).outermost
                let extent = outer.position.utf8Offset..<outer.endPosition.utf8Offset
                if judgeableOnly, Self.foregroundModifiers.contains(name), setsOnlySystemColors(call) {
                    systemExtents.append(extent)
                } else {
                    extents.append(extent)
                }
            }
        }
        // A button draws its title in the tint: the app's accent colour, where it has one.
        if reader.tintIsAppColor {
            for call in index.callsByName["Button"] ?? [] where call.calledExpression.kind == .declReferenceExpr {
                let outer = ModifierChain(containing: ExprSyntax(call)).outermost
                extents.append(outer.position.utf8Offset..<outer.endPosition.utf8Offset)
            }
        }
        if judgeableOnly, !systemExtents.isEmpty {
            for call in index.callsByName["overlay"] ?? [] where call.isMemberCallWithBase {
                // The arguments and closures, not the view the overlay is applied to.
                overlayExtents.append(call.calledExpression.endPosition.utf8Offset..<call.endPosition.utf8Offset)
            }
        }
        for name in Self.elementNames {
            for element in index.callsByName[name] ?? [] {
                let offset = element.position.utf8Offset
                let covered = extents.contains { $0.contains(offset) }
                    || (systemExtents.contains { $0.contains(offset) } && overlayExtents.contains { $0.contains(offset) })
                guard covered else { continue }
                result += pairs(for: element)
            }
        }
        return result
    }

    /// `.foregroundStyle(.secondary)`, `.fill()`: a modifier that sets no colour but a system one.
    /// Unknown colours count as not system.
    private func setsOnlySystemColors(_ modifier: FunctionCallExprSyntax) -> Bool {
        guard let argument = modifier.firstUnlabeledArgument else { return true }
        guard let colors = reader.describe(argument, .swiftUI) else { return false }
        return colors.allSatisfy { color in
            guard case .system(let name) = color.base else { return false }
            return !(reader.tintIsAppColor && ["accentColor", "tint"].contains(name))
        }
    }

    /// Every call that can be an element: text, shapes, controls with indicators, images.
    static let elementNames = textElements.union(shapes).union(indicatorControls).union(["Image"])

    /// The pairs of one element inside a view that sets a colour.
    private func pairs(for element: FunctionCallExprSyntax) -> [ColorPair] {
        var result: [ColorPair] = []
        // `Text(…)` starts a chain; `.foo.Text(…)` or `x.Image(…)` are not views.
        guard element.calledExpression.kind == .declReferenceExpr, let name = element.calleeName else { return [] }
        let isSymbol = name == "Image" && element.argument("systemName") != nil
        let isShape = Self.shapes.contains(name)
        let isText = Self.textElements.contains(name)
            && (!Self.titledOnly.contains(name) || Self.hasTitle(element))
        let isIndicator = Self.indicatorControls.contains(name)
        guard isSymbol || isShape || isText || isIndicator, let levels = levels(of: element, isShape: isShape) else { return [] }
        if isText || isSymbol || isShape {
            result += pairs(for: element, levels: levels, isText: isText, isShape: isShape)
        }
        if isIndicator { result += indicatorPairs(for: element, levels: levels) }
        return result
    }

    /// `Button("Save")`, `Toggle(title, isOn:)`: a first unlabeled argument that is not a closure.
    private static func hasTitle(_ call: FunctionCallExprSyntax) -> Bool {
        guard let first = call.firstUnlabeledArgument else { return false }
        return !first.is(ClosureExprSyntax.self)
    }

    // MARK: Context

    /// The element's own chain, then each enclosing view out to a presentation boundary. `nil`
    /// when the element is itself a background, a mask, or a view passed as a non-content argument.
    private func levels(of element: FunctionCallExprSyntax, isShape: Bool) -> [Level]? {
        let own = ModifierChain(containing: ExprSyntax(element))
        if own.has("hidden") { return nil }
        var levels = [Level(rootName: element.calleeName, environment: own.modifiers, chain: own.modifiers, behind: nil)]
        if let argument = own.outermost.parent?.as(LabeledExprSyntax.self),
           let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
            if call.isMemberCallWithBase {
                // `.overlay(Text("New"))` is content; `.background(Circle())`, `.clipShape(Capsule())`,
                // `.accessibilityLabel(Text(…))` are not read against anything.
                guard call.calleeName == "overlay" else { return nil }
                levels.append(modifierLevel(call))
            } else {
                // `Section(header: Text(…))`: the call is the element's container.
                levels.append(containerLevel(call))
            }
        }
        for container in own.outermost.enclosingViewCalls(memo: containersMemo) {
            guard let name = container.calleeName else { continue }
            if Self.presentationBoundaries.contains(name) { break }
            if Self.menuContainers.contains(name), let content = container.trailingClosure,
               content.position.utf8Offset <= own.outermost.position.utf8Offset,
               own.outermost.endPosition.utf8Offset <= content.endPosition.utf8Offset {
                break
            }
            if container.isMemberCallWithBase {
                if Self.backgroundLayers.contains(name) { return nil }
                levels.append(modifierLevel(container))
                continue
            }
            if name == "ZStack", let (position, first) = Self.zStackPosition(of: own.outermost, in: container) {
                // A shape under the rest of a ZStack is the others' background, not an indicator.
                if position == 0, isShape { return nil }
                var level = containerLevel(container)
                if position > 0 {
                    level = Level(rootName: level.rootName, environment: level.environment, chain: level.chain, behind: first,
                                  key: LevelKey(call: container.id, behind: first.id))
                }
                levels.append(level)
                continue
            }
            levels.append(containerLevel(container))
        }
        return levels
    }

    private func containerLevel(_ call: FunctionCallExprSyntax) -> Level {
        if let known = backgroundsMemo.containerLevels[call.id] { return known }
        let chain = ModifierChain(containing: ExprSyntax(call))
        let level = Level(rootName: call.calleeName, environment: chain.modifiers, chain: chain.modifiers, behind: nil,
                          key: LevelKey(call: call.id, behind: nil))
        backgroundsMemo.containerLevels[call.id] = level
        return level
    }

    /// `.overlay { … }` content sits on the view the overlay is applied to, and receives the
    /// environment of the modifiers outside the overlay only.
    private func modifierLevel(_ call: FunctionCallExprSyntax) -> Level {
        if let known = backgroundsMemo.modifierLevels[call.id] { return known }
        let level = makeModifierLevel(call)
        backgroundsMemo.modifierLevels[call.id] = level
        return level
    }

    private func makeModifierLevel(_ call: FunctionCallExprSyntax) -> Level {
        let chain = ModifierChain(containing: ExprSyntax(call))
        let position = chain.modifiers.firstIndex { $0.id == call.id } ?? -1
        let outer = Array(chain.modifiers.dropFirst(position + 1))
        let host = call.calleeName == "overlay" ? call.calledExpression.as(MemberAccessExprSyntax.self)?.base : nil
        return Level(rootName: nil, environment: outer, chain: chain.modifiers, behind: host,
                     key: LevelKey(call: call.id, behind: host?.id))
    }

    /// Which child of the `ZStack` holds the element, and the first child.
    private static func zStackPosition(of element: ExprSyntax, in stack: FunctionCallExprSyntax) -> (Int, ExprSyntax)? {
        guard let closure = stack.trailingClosure ?? stack.closures.first,
              let first = closure.statements.first?.item.as(ExprSyntax.self) else { return nil }
        let offset = element.positionAfterSkippingLeadingTrivia.utf8Offset
        guard let position = closure.statements.firstIndex(where: {
            $0.position.utf8Offset <= offset && offset < $0.endPosition.utf8Offset
        }) else { return nil }
        return (closure.statements.distance(from: closure.statements.startIndex, to: position), first)
    }

    // MARK: Pairs

    private enum ButtonKind {
        case notAControl
        case plain
        case tinted
        case prominent
        case custom
    }

    private func pairs(for element: FunctionCallExprSyntax, levels: [Level], isText: Bool, isShape: Bool) -> [ColorPair] {
        if !isText, Self.drawsOwnColors(levels[0]) { return [] }
        // A symbol beside text in the same stack is not what tells anyone what the control or
        // row is: the text does (SC 1.4.11 covers graphics needed to understand the content);
        // a shape a property names as a background is what the view's content is drawn on.
        // A symbol that shows a state (a checkmark, a colour or a presence that changes with a
        // condition) is needed to understand the row, text or not.
        if !isText, isShape ? Self.isNamedBackground(element) : (hasTextBeside(element) && !Self.isStateCue(element)) {
            return []
        }
        let controlLevel = levels.firstIndex { $0.rootName.map(Self.tintedControls.contains) ?? false }
        let kind = buttonKind(levels, controlLevel: controlLevel)
        if kind == .custom { return [] }
        // A destructive button's title is drawn in the system red, not in the tint.
        let destructive = kind == .tinted && Self.isInDestructiveButton(element)

        let foreground = self.foreground(levels, isShape: isShape, tintFrom: kind == .tinted ? controlLevel : nil)
        let foregroundColors: [ColorExpression]
        let node: Syntax
        switch foreground {
        case .undescribable: return []
        case .found(let colors, let modifier): (foregroundColors, node) = (colors, modifier)
        case .notFound:
            // A button's label is drawn in its tint, a prominent button's in white on the tint.
            let fallback: ColorExpression = kind == .tinted ? .system(destructive ? "red" : "accentColor")
                : kind == .prominent ? .system("white") : .system("primary")
            (foregroundColors, node) = ([fallback], Syntax(element))
        }

        // An app modifier that styles the view (`.roundedButtonStyle()`) may set either colour:
        // what it leaves defaulted is not known here.
        let appStyled = levels[...(controlLevel ?? 0)].contains { level in
            level.chain.contains { $0.calleeName.map(Self.isAppStyleModifier) ?? false }
        }
        if appStyled, case .notFound = foreground { return [] }
        var backgroundColors: [ColorExpression?] = [nil]
        var backgroundNode: Syntax?
        let background = kind == .prominent ? tint(levels, from: controlLevel ?? 0) : self.background(levels)
        if appStyled, case .notFound = background { return [] }
        switch background {
        case .undescribable: return []
        case .found(let colors, let source): (backgroundColors, backgroundNode) = (colors, source)
        case .notFound: if kind == .prominent { backgroundColors = [.system("accentColor")] }
        }
        // Both defaulted: the system's own pairing, nothing the source chose; except a button's
        // tint, which is the app's accent colour (judged only where the app's catalog sets one).
        // A menu's items are drawn by the system in the label colour, not the tint.
        if case .notFound = foreground, backgroundNode == nil,
           kind != .tinted || destructive || !reader.tintIsAppColor || ImageAssetNameSpokenRule.isMenuItem(element) { return [] }

        let font = isText ? self.font(levels) : FontFacts()
        var result: [ColorPair] = []
        for foregroundColor in foregroundColors where !foregroundColor.isClear {
            for backgroundColor in backgroundColors {
                result.append(ColorPair(
                    foreground: foregroundColor, background: backgroundColor, isText: isText,
                    textStyle: font.textStyle, pointSize: font.pointSize, isBold: font.isBold ?? false,
                    node: node, backgroundNode: backgroundNode, element: Syntax(element)))
            }
        }
        return result
    }

    /// A switch, slider or progress bar coloured by `.tint`: a non-text indicator (SC 1.4.11).
    /// Only an explicit tint is paired; the default is the system's accent.
    private func indicatorPairs(for element: FunctionCallExprSyntax, levels: [Level]) -> [ColorPair] {
        guard case .found(let colors, let node) = tint(levels, from: 0) else { return [] }
        let background = self.background(levels)
        var backgroundColors: [ColorExpression?] = [nil]
        var backgroundNode: Syntax?
        switch background {
        case .undescribable: return []
        case .found(let found, let source): (backgroundColors, backgroundNode) = (found, source)
        case .notFound: break
        }
        return colors.filter { !$0.isClear }.flatMap { color in
            backgroundColors.map { backgroundColor in
                ColorPair(foreground: color, background: backgroundColor, isText: false, textStyle: nil, pointSize: nil,
                          isBold: false, node: node, backgroundNode: backgroundNode, element: Syntax(element))
            }
        }
    }

    /// SwiftUI's own `…Style` modifiers; any other modifier named so is the app's.
    static let systemStyleModifiers: Set<String> = [
        "buttonStyle", "labelStyle", "listStyle", "pickerStyle", "toggleStyle", "textFieldStyle", "menuStyle",
        "tabViewStyle", "datePickerStyle", "progressViewStyle", "gaugeStyle", "navigationViewStyle", "indexViewStyle",
        "groupBoxStyle", "controlGroupStyle", "disclosureGroupStyle", "formStyle", "tableStyle", "navigationSplitViewStyle",
        "textEditorStyle", "labeledContentStyle", "menuButtonStyle", "presentedWindowStyle", "windowStyle",
        "windowToolbarStyle", "foregroundStyle", "backgroundStyle", "listRowSeparatorTint", "symbolRenderingMode",
        "menuIndicator", "badgeProminence", "primitiveButtonStyle", "signInWithAppleButtonStyle", "productViewStyle",
        "subscriptionStoreControlStyle", "tipViewStyle", "menuBarExtraStyle", "searchDictationBehavior",
    ]

    static func isAppStyleModifier(_ name: String) -> Bool {
        name.hasSuffix("Style") && !systemStyleModifiers.contains(name)
    }

    /// The nearest `Button` holding the element (or the element itself) has `role: .destructive`.
    static func isInDestructiveButton(_ element: FunctionCallExprSyntax) -> Bool {
        var node: Syntax? = Syntax(element)
        while let current = node {
            switch current.kind {
            case .functionDecl, .variableDecl, .structDecl, .classDecl, .extensionDecl, .enumDecl: return false
            default: break
            }
            if let call = current.as(FunctionCallExprSyntax.self), call.calledExpression.kind == .declReferenceExpr,
               call.calleeName == "Button" {
                return call.arguments.contains { $0.label?.text == "role" && $0.expression.memberName == "destructive" }
            }
            node = current.parent
        }
        return false
    }

    /// `HStack { Image(systemName: "server.rack"); Text("Change Server") }`: the element is a
    /// statement of a view builder that also shows text.
    static func hasTextBeside(_ element: FunctionCallExprSyntax) -> Bool {
        guard let (item, list) = statement(of: element) else { return false }
        return list.contains { $0.id != item.id && showsText($0) }
    }

    /// As the static one, each list counted once: a stack of thousands of symbols would
    /// otherwise look at every sibling of each.
    private func hasTextBeside(_ element: FunctionCallExprSyntax) -> Bool {
        guard let (item, list) = Self.statement(of: element) else { return false }
        let count = backgroundsMemo.textStatements[list.id] ?? {
            let counted = list.reduce(0) { $0 + (Self.showsText($1) ? 1 : 0) }
            backgroundsMemo.textStatements[list.id] = counted
            return counted
        }()
        return count - (Self.showsText(item) ? 1 : 0) > 0
    }

    private static func statement(of element: FunctionCallExprSyntax) -> (CodeBlockItemSyntax, CodeBlockItemListSyntax)? {
        let outer = ModifierChain(containing: ExprSyntax(element)).outermost
        guard let item = outer.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) else {
            return nil
        }
        return (item, list)
    }

    private static func showsText(_ statement: CodeBlockItemSyntax) -> Bool {
        guard let expression = statement.item.as(ExprSyntax.self) else { return false }
        let root = ModifierChain(containing: expression).root.as(FunctionCallExprSyntax.self)
        guard let root, root.calledExpression.kind == .declReferenceExpr, let name = root.calleeName else { return false }
        return name == "Text" || (Self.titledOnly.contains(name) && Self.hasTitle(root))
    }

    /// `Image(systemName: "checkmark…")`, a symbol coloured by a condition
    /// (`.foregroundColor(selected ? .accentColor : .secondary)`) or shown only under one.
    static func isStateCue(_ element: FunctionCallExprSyntax) -> Bool {
        // A symbol chosen by a condition (`done ? "circle.fill" : "circle"`), or one whose name
        // says a state.
        guard let symbol = element.argument("systemName") else { return false }
        guard let name = symbol.stringLiteralValue else { return true }
        if ["checkmark", "exclamationmark", "xmark", "star.fill", "lock", ".slash", "badge"].contains(where: { ASCII.contains(name, $0) }) {
            return true
        }
        let chain = ModifierChain(containing: ExprSyntax(element))
        for modifier in chain.modifiers where ["foregroundColor", "foregroundStyle", "opacity", "symbolVariant"].contains(modifier.calleeName ?? "") {
            if let argument = modifier.arguments.first?.expression, TernaryParts(argument) != nil { return true }
        }
        return chain.outermost.parent?.parent?.parent?.parent?.kind == .ifExpr
    }

    /// A shape inside a property or method whose name says background (`private var background:
    /// some View`, `func cardBackground()`): what the view puts behind its content.
    static func isNamedBackground(_ element: FunctionCallExprSyntax) -> Bool {
        var node = element.parent
        while let current = node {
            if let binding = current.as(PatternBindingSyntax.self),
               let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                return name.lowercased().hasSuffix("background")
            }
            if let function = current.as(FunctionDeclSyntax.self) { return function.name.text.lowercased().hasSuffix("background") }
            if current.kind == .structDecl || current.kind == .classDecl || current.kind == .extensionDecl { return false }
            node = current.parent
        }
        return false
    }

    /// A symbol in its own colours (`.renderingMode(.original)`, `.symbolRenderingMode(.multicolor)`).
    private static func drawsOwnColors(_ level: Level) -> Bool {
        level.chain.contains { modifier in
            let name = modifier.calleeName
            let argument = modifier.firstUnlabeledArgument?.memberName
            return (name == "renderingMode" && argument == "original")
                || (name == "symbolRenderingMode" && argument == "multicolor")
        }
    }

    /// How the control the element belongs to colours its label: the nearest `.buttonStyle`
    /// from the control outwards. A `NavigationLink` in a list draws like plain text.
    private func buttonKind(_ levels: [Level], controlLevel: Int?) -> ButtonKind {
        guard let controlLevel else { return .notAControl }
        let outer = levels[controlLevel...]
        if levels[controlLevel].rootName == "NavigationLink",
           outer.contains(where: { $0.rootName.map(Self.opaqueContainers.contains) ?? false }) {
            return .plain
        }
        for level in outer {
            guard let style = level.environment.first(where: { $0.calleeName == "buttonStyle" }) else { continue }
            guard let argument = style.firstUnlabeledArgument, let name = argument.memberName else { return .custom }
            switch name {
            case "plain", "PlainButtonStyle": return .plain
            case "borderedProminent", "BorderedProminentButtonStyle": return .prominent
            case "bordered", "borderless", "automatic", "link", "BorderedButtonStyle", "BorderlessButtonStyle",
                 "DefaultButtonStyle", "LinkButtonStyle":
                return .tinted
            default: return .custom
            }
        }
        return .tinted
    }

    private func foreground(_ levels: [Level], isShape: Bool, tintFrom: Int?) -> Search {
        for (depth, level) in levels.enumerated() {
            for modifier in level.environment {
                guard let name = modifier.calleeName else { continue }
                switch name {
                case "foregroundStyle", "foregroundColor": break
                // A shape's own fill or stroke; a shape in a container is filled by the foreground style.
                case "fill", "stroke", "strokeBorder": guard depth == 0, isShape else { continue }
                case "tint", "accentColor": guard let tintFrom, depth >= tintFrom else { continue }
                default: continue
                }
                // `.stroke(lineWidth: 2)`, `.fill()`: drawn with the foreground style, set further out.
                guard let argument = modifier.firstUnlabeledArgument else { continue }
                guard let colors = reader.describe(argument, .swiftUI) else { return .undescribable }
                return .found(colors, Syntax(argument))
            }
        }
        return .notFound
    }

    private func tint(_ levels: [Level], from start: Int) -> Search {
        for level in levels.dropFirst(start) {
            for modifier in level.environment where modifier.calleeName == "tint" || modifier.calleeName == "accentColor" {
                guard let argument = modifier.firstUnlabeledArgument,
                      let colors = reader.describe(argument, .swiftUI) else { return .undescribable }
                return .found(colors, Syntax(argument))
            }
        }
        return .notFound
    }

    /// The nearest background, from the element's own chain outwards. Levels after the first are
    /// containers, the same for every element inside them, so what the search finds from each is
    /// remembered.
    private func background(_ levels: [Level]) -> Search {
        var visited: [LevelKey] = []
        func finish(_ result: Search) -> Search {
            for key in visited { backgroundsMemo.results[key] = result }
            return result
        }
        for level in levels {
            if let key = level.key {
                if let known = backgroundsMemo.results[key] { return finish(known) }
                visited.append(key)
            }
            if let result = backgroundAt(level) { return finish(result) }
        }
        return finish(.notFound)
    }

    /// What one level paints behind the element, or nil to look further out.
    private func backgroundAt(_ level: Level) -> Search? {
        if let behind = level.behind {
            switch layer(behind) {
            case .color(let colors, let node): if !colors.allSatisfy(\.isClear) { return .found(colors, node) }
            case .opaque: return .undescribable
            case .transparent, .notALayer: break
            }
        }
        for modifier in level.chain {
            switch backgroundModifier(modifier) {
            case .found(let colors, let node):
                if !colors.allSatisfy(\.isClear) { return .found(colors, node) }
            case .undescribable: return .undescribable
            case .notFound: break
            }
        }
        // Rows of a list or form sit on the list's own background, whatever is outside it.
        if let root = level.rootName, Self.opaqueContainers.contains(root),
           !level.chain.contains(where: { $0.calleeName == "scrollContentBackground" && $0.firstUnlabeledArgument?.memberName == "hidden" }) {
            return .notFound
        }
        return nil
    }

    private func backgroundModifier(_ modifier: FunctionCallExprSyntax) -> Search {
        guard let name = modifier.calleeName, name == "background" || name == "listRowBackground" else { return .notFound }
        if let argument = modifier.firstUnlabeledArgument, !argument.is(ClosureExprSyntax.self) {
            if let colors = reader.describe(argument, .swiftUI) { return .found(colors, Syntax(argument)) }
            switch layer(argument) {
            case .color(let colors, let node): return .found(colors, node)
            case .transparent: return .notFound
            case .opaque, .notALayer: return .undescribable
            }
        }
        if let closure = modifier.closures.first {
            guard let first = closure.statements.first?.item.as(ExprSyntax.self) else { return .notFound }
            switch layer(first) {
            case .color(let colors, let node): return .found(colors, node)
            case .transparent: return .notFound
            case .opaque, .notALayer: return .undescribable
            }
        }
        // `.background()` and `.background(in: shape)` draw the default background style.
        guard name == "background" else { return .notFound }
        return .found([.system("background")], Syntax(modifier))
    }

    /// What a view used as a background paints, seen through modifiers that do not change it.
    private func layer(_ expression: ExprSyntax) -> Layer {
        var current = expression
        while let call = current.as(FunctionCallExprSyntax.self), let name = call.calleeName,
              Self.neutralModifiers.contains(name),
              let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base {
            current = base
        }
        if let colors = reader.describe(current, .swiftUI) {
            return colors.allSatisfy(\.isClear) ? .transparent : .color(colors, Syntax(expression))
        }
        let chain = ModifierChain(containing: current)
        guard let root = chain.root.as(FunctionCallExprSyntax.self), let name = root.calleeName else {
            // `Color.red.blur(radius: 4)`: a colour changed by a modifier.
            let isColor = chain.root.as(MemberAccessExprSyntax.self).flatMap { $0.base.flatMap(ExprSyntax.dottedName) } == "Color"
            return isColor ? .opaque : .notALayer
        }
        if Self.shapes.contains(name) {
            for modifier in chain.modifiers {
                switch modifier.calleeName {
                case "fill", "foregroundStyle", "foregroundColor":
                    guard let argument = modifier.firstUnlabeledArgument else { return .opaque }
                    guard let colors = reader.describe(argument, .swiftUI) else { return .opaque }
                    return colors.allSatisfy(\.isClear) ? .transparent : .color(colors, Syntax(argument))
                case "stroke", "strokeBorder":
                    return .transparent
                default: continue
                }
            }
            return .opaque
        }
        if Self.opaqueViews.contains(name) { return .opaque }
        if Self.transparentViews.contains(name) { return .transparent }
        return .notALayer
    }

    // MARK: Fonts

    /// The nearest `.font`, and the nearest `.bold()` / `.fontWeight(…)`, which override the font's weight.
    private func font(_ levels: [Level]) -> FontFacts {
        var facts: FontFacts?
        var weight: Bool?
        for level in levels {
            for modifier in level.environment {
                switch modifier.calleeName {
                case "font" where facts == nil:
                    // An unknown font still hides any font set further out.
                    facts = modifier.firstUnlabeledArgument.flatMap { reader.font($0) } ?? FontFacts()
                case "bold" where weight == nil:
                    weight = modifier.firstUnlabeledArgument.map { $0.booleanValue == true } ?? true
                case "fontWeight" where weight == nil:
                    weight = modifier.firstUnlabeledArgument.map(ColorReader.isBoldWeight) ?? false
                default: continue
                }
            }
        }
        var result = facts ?? FontFacts()
        if let weight { result.isBold = weight }
        return result
    }
}
