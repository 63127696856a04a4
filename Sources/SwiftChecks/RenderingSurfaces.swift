import SwiftSyntax

/// Views drawn where the person's text size does not reach them as it does on screen: rendered
/// offscreen into a picture of a fixed size (`ImageRenderer`), or placed in an area the system
/// sizes (the Dynamic Island's compact and minimal regions, accessory widgets on the Lock
/// Screen and the watch face). Whether text there must grow, and can, is a person's check on a
/// device, not a claim the source settles.
extension SourceFile {
    /// Widgets and Live Activities are built with WidgetKit (and ActivityKit): only their files
    /// have system-sized regions and families.
    var buildsWidgets: Bool { index.topLevelImports.contains("WidgetKit") || index.topLevelImports.contains("ActivityKit") }

    /// Trailing-closure labels of `DynamicIsland` whose regions the system sizes.
    static let systemSizedRegions: Set<String> = ["compactLeading", "compactTrailing", "minimal"]

    /// Whether `node` lies directly in a region the system sizes (`DynamicIsland { … } minimal: { … }`),
    /// or in the branch a widget or Live Activity takes for such a family (`case .accessoryCircular:`,
    /// `if activityFamily == .small`: the watch's Smart Stack and CarPlay).
    static func isInSystemSizedRegion(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        var child = Syntax(node)
        while let syntax = current {
            if let switchCase = syntax.as(SwitchCaseSyntax.self), case .case(let label) = switchCase.label,
               label.caseItems.allSatisfy({ isSystemSizedFamily($0.pattern.sourceText) }) { return true }
            if let branch = syntax.as(IfExprSyntax.self), child.id == Syntax(branch.body).id,
               branch.conditions.contains(where: { isSystemSizedFamilyTest($0.condition) }) { return true }
            if syntax.is(ClosureExprSyntax.self) {
                if let element = syntax.parent?.as(MultipleTrailingClosureElementSyntax.self),
                   systemSizedRegions.contains(element.label.text) { return true }
                if let argument = syntax.parent?.as(LabeledExprSyntax.self), let label = argument.label?.text,
                   systemSizedRegions.contains(label) { return true }
            }
            if syntax.is(MemberBlockSyntax.self) || syntax.is(SourceFileSyntax.self) { return false }
            child = syntax
            current = syntax.parent
        }
        return false
    }

    /// `activityFamily == .small`, `family == .accessoryCircular`: a family variable compared
    /// with a system-sized family.
    private static func isSystemSizedFamilyTest(_ condition: ConditionElementSyntax.Condition) -> Bool {
        guard case .expression(let expression) = condition,
              let elements = expression.as(SequenceExprSyntax.self).map({ Array($0.elements) }), elements.count == 3,
              elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "==" else { return false }
        return elements[0].sourceText.lowercased().contains("family") && isSystemSizedFamily(elements[2].sourceText)
    }

    /// `.accessoryCircular`, `.accessoryRectangular`, `.accessoryInline`, `.accessoryCorner`, and
    /// `.small` (a Live Activity's supplemental family).
    static func isSystemSizedFamily(_ pattern: String) -> Bool {
        pattern.hasPrefix(".accessory") || pattern == ".small"
    }

    /// `View@offscreen` for each view type `ImageRenderer(content:)` draws, and `View@systemSized`
    /// for each view type placed in a system-sized area, with the view types their bodies build
    /// in this file (a snapshot view that wraps the content view).
    func renderingSurfaceFacts() -> Set<String> {
        var offscreen = Set<String>(), systemSized = Set<String>()
        for call in index.calls(named: "ImageRenderer") {
            guard let content = call.argument("content") else { continue }
            if let name = constructedViewName(content) { offscreen.insert(name) }
        }
        var accessoryWidgets = Set<String>()
        if buildsWidgets {
            // Views built in a Dynamic Island region or a family branch the system sizes.
            for call in index.calls {
                if let name = Self.viewTypeName(call), Self.isInSystemSizedRegion(call) { systemSized.insert(name) }
            }
            // A widget offered only in accessory families (`.supportedFamilies([.accessoryCircular])`).
            for families in index.calls(named: "supportedFamilies") {
                guard let list = families.arguments.first?.expression.as(ArrayExprSyntax.self), !list.elements.isEmpty,
                      list.elements.allSatisfy({ $0.expression.memberName?.hasPrefix("accessory") == true }),
                      let widget = Syntax(families).enclosingTypeDecl?.declaredTypeName else { continue }
                accessoryWidgets.insert(widget)
            }
        }
        let inBar = viewTypesPutInBars()
        // Most files have none of these: the file's who-builds-what map is made only when needed.
        guard !offscreen.isEmpty || !systemSized.isEmpty || !accessoryWidgets.isEmpty || !inBar.isEmpty else { return [] }
        let built = viewTypesBuiltByType()
        for widget in accessoryWidgets { systemSized.formUnion(built[widget] ?? []) }
        return Set(closureOf(offscreen, built).map { $0 + FileResult.offscreenMarker })
            .union(closureOf(systemSized, built).map { $0 + FileResult.systemSizedMarker })
            .union(closureOf(inBar, built).map { $0 + FileResult.inBarMarker })
    }

    /// View types put in a navigation bar or toolbar: built inside `.toolbar { … }` or a
    /// `ToolbarItem`, or hosted (`UIHostingController(rootView: Title())`) by a function that
    /// sets a bar's title view or a bar button's custom view. The bar lays them out, as it does
    /// its own titles, which keep their size: Apple asks for the Large Content Viewer there.
    private func viewTypesPutInBars() -> Set<String> {
        var inBar = Set<String>()
        if !index.calls(named: SwiftUIHitRegion.barContainers).isEmpty {
            for call in index.calls {
                guard let name = Self.viewTypeName(call), !SourceFile.frameworkTypeNames.contains(name) else { continue }
                // Through stacks and labels only: a `NavigationLink`'s destination or a sheet
                // opened from a bar button is a screen of its own.
                let containers = call.enclosingViewCalls
                guard let bar = containers.firstIndex(where: { SwiftUIHitRegion.barContainers.contains($0.calleeName ?? "") }),
                      containers[..<bar].allSatisfy({ Self.barContentWrappers.contains($0.calleeName ?? "") }) else { continue }
                inBar.insert(name)
            }
        }
        for hosting in index.calls(named: "UIHostingController") {
            guard let root = hosting.argument("rootView"), let name = constructedViewName(root),
                  let scope = Self.enclosingMemberScope(of: Syntax(hosting)),
                  scope.tokens(viewMode: .sourceAccurate).contains(where: { ["titleView", "customView"].contains($0.text) }) else { continue }
            inBar.insert(name)
        }
        return inBar
    }

    /// The function, initializer or accessor `node` lies in, or the member it initialises.
    private static func enclosingMemberScope(of node: Syntax) -> Syntax? {
        var current = node.parent
        while let syntax = current {
            switch syntax.kind {
            case .functionDecl, .initializerDecl, .accessorDecl, .memberBlockItem: return syntax
            case .codeBlockItem where syntax.parent?.parent?.is(SourceFileSyntax.self) == true: return syntax
            default: current = syntax.parent
            }
        }
        return nil
    }

    private static let barContentWrappers: Set<String> = ["HStack", "VStack", "ZStack", "Group", "Button", "Menu", "Label", "ControlGroup", "ViewThatFits"]

    /// `roots` and every type the file's declarations of them build, transitively.
    private func closureOf(_ roots: Set<String>, _ built: [String: Set<String>]) -> Set<String> {
        var reached = roots, queue = Array(roots)
        while let name = queue.popLast() {
            for next in built[name] ?? [] where reached.insert(next).inserted { queue.append(next) }
        }
        return reached
    }

    /// `Snapshot(…)`, or a local `view` that a `let view = Snapshot(…)` of the file gives.
    private func constructedViewName(_ expression: ExprSyntax) -> String? {
        if let call = expression.as(FunctionCallExprSyntax.self) { return Self.viewTypeName(call) }
        if let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            for value in index.bindings[name] ?? [] {
                if let call = value.as(FunctionCallExprSyntax.self), let type = Self.viewTypeName(call) { return type }
            }
        }
        return nil
    }

    /// Per type declared in the file: the capitalised types its code constructs.
    private func viewTypesBuiltByType() -> [String: Set<String>] {
        var built: [String: Set<String>] = [:]
        for call in index.calls {
            guard let name = Self.viewTypeName(call), let owner = Syntax(call).enclosingTypeDecl?.declaredTypeName,
                  owner != name else { continue }
            built[owner, default: []].insert(name)
        }
        return built
    }

    /// `Name(…)` with a capitalised plain name: a type being constructed.
    private static func viewTypeName(_ call: FunctionCallExprSyntax) -> String? {
        guard call.calledExpression.is(DeclReferenceExprSyntax.self), let name = call.calleeName,
              name.first?.isUppercase == true else { return nil }
        return name
    }
}

extension FileResult {
    /// In `assignedMembers`: `View@offscreen`, a view some code draws into a picture with
    /// `ImageRenderer` (see `SourceFile.renderingSurfaceFacts`).
    public static let offscreenMarker = "@offscreen"
    /// In `assignedMembers`: `View@systemSized`, a view placed where the system sizes the area.
    public static let systemSizedMarker = "@systemSized"
    /// In `assignedMembers`: `View@inBar`, a view put in a navigation bar or toolbar.
    public static let inBarMarker = "@inBar"
}
