import SwiftSyntax

// Shared by tap-gesture-missing-trait, custom-toggle-missing-trait and gesture-without-alternative,
// so that each gesture is classified once and every defect is reported by exactly one of them:
// a single tap that toggles state belongs to the toggle rule, any other single tap to the tap
// rule, and every other gesture (long press, drag, pinch, rotation, multi-tap) to the
// alternative rule.

/// A SwiftUI gesture attached to a view with `.onTapGesture`, `.onLongPressGesture`, `.gesture`,
/// `.simultaneousGesture` or `.highPriorityGesture`.
struct SwiftUIGestureUse {
    enum Kind { case singleTap, other }

    let modifier: FunctionCallExprSyntax
    let kind: Kind
    /// How messages name it: "`.onTapGesture`", "`DragGesture`", "`.onTapGesture(count: 2)`".
    let name: String
    /// Where findings point: the modifier's name, or the gesture value passed to `.gesture(_:)`.
    let anchor: Syntax
    /// The closures run when the gesture is recognised; `nil` when the action is not a literal
    /// closure (`perform: save`), so nothing can be said about what it does.
    let actions: [ClosureExprSyntax]?

    static let attachingModifiers: Set<String> = [
        "onTapGesture", "onLongPressGesture", "gesture", "simultaneousGesture", "highPriorityGesture",
    ]

    init?(_ call: FunctionCallExprSyntax, index: SourceIndex) {
        guard let callee = call.calleeName, Self.attachingModifiers.contains(callee) else { return nil }
        let nameNode: Syntax
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            guard member.base != nil else { return nil }
            nameNode = Syntax(member.declName)
        } else if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            nameNode = Syntax(reference) // `onTapGesture { … }` on an implicit `self`
        } else {
            return nil
        }
        modifier = call
        switch callee {
        case "onTapGesture":
            var count = 1.0
            if let argument = call.argument("count") {
                // A computed count could be 1 or 2: neither rule can say which, so neither reports.
                guard let value = argument.numberValue else { return nil }
                count = value
            }
            kind = count <= 1 ? .singleTap : .other
            name = count <= 1 ? "`.onTapGesture`" : "`.onTapGesture(count: \(Int(count)))`"
            anchor = nameNode
            actions = Self.performClosure(call)
        case "onLongPressGesture":
            // `minimumDuration: 0` is the touch-down idiom for a press-highlighted tap target.
            if call.argument("minimumDuration")?.numberValue == 0 {
                kind = .singleTap
                name = "`.onLongPressGesture(minimumDuration: 0)`"
            } else {
                kind = .other
                name = "`.onLongPressGesture`"
            }
            anchor = nameNode
            actions = Self.performClosure(call)
        default:
            guard let value = call.firstUnlabeledArgument, !value.is(NilLiteralExprSyntax.self) else { return nil }
            var gesture = GestureValue()
            gesture.collect(value, index: index, depth: 0)
            guard let first = gesture.components.first else { return nil }
            if let complex = gesture.components.first(where: { !$0.isSingleTap }) {
                kind = .other
                name = complex.display
            } else {
                kind = .singleTap
                name = first.display
            }
            anchor = Syntax(value)
            actions = gesture.hasOpaqueParts ? nil : gesture.closures
        }
    }

    /// The `perform:` closure, or the trailing closure when `perform:` is not written out.
    private static func performClosure(_ call: FunctionCallExprSyntax) -> [ClosureExprSyntax]? {
        if let perform = call.argument("perform") {
            return perform.as(ClosureExprSyntax.self).map { [$0] }
        }
        return call.trailingClosure.map { [$0] }
    }

    /// SwiftUI views that are controls: they already carry their own trait and action.
    static let controls: Set<String> = [
        "Button", "Toggle", "Link", "NavigationLink", "Menu", "Picker", "Stepper", "Slider", "TextField",
        "SecureField", "TextEditor", "DatePicker", "MultiDatePicker", "ColorPicker", "ShareLink", "EditButton",
        "PasteButton", "RenameButton", "PhotosPicker", "SignInWithAppleButton",
    ]

    /// The control the gesture is attached to or sits inside (`Button { Image(…).onTapGesture … }`).
    func control(in chain: ModifierChain) -> String? {
        if let root = chain.root.as(FunctionCallExprSyntax.self), let name = root.calleeName,
           Self.controls.contains(name) {
            return name
        }
        return modifier.enclosingViewCalls.lazy.compactMap(\.calleeName).first { Self.controls.contains($0) }
    }

    /// `.onTapGesture {}`, `.highPriorityGesture(DragGesture())`: attached on purpose to keep
    /// touches from reaching a parent, and does nothing itself.
    var doesNothing: Bool {
        guard let actions else { return false }
        return actions.allSatisfy { $0.statements.isEmpty }
    }
}

/// What a `Gesture` value is made of: `TapGesture(count: 2).onEnded { … }`, a `let drag = …`,
/// `SimultaneousGesture(a, b)`, `a.exclusively(before: b)`.
struct GestureValue {
    struct Component {
        let display: String
        let isSingleTap: Bool
    }
    var components: [Component] = []
    var closures: [ClosureExprSyntax] = []

    private static let composites: Set<String> = ["SimultaneousGesture", "ExclusiveGesture", "SequenceGesture"]
    private static let combinators: Set<String> = ["simultaneously", "exclusively", "sequenced"]
    private static let callbacks: Set<String> = ["onEnded", "onChanged", "updating"]

    /// A callback that is not a literal closure (`.onEnded(perform: handle)`) or a gesture that
    /// could not be resolved: what it does is unknown.
    var hasOpaqueParts = false

    mutating func collect(_ expression: ExprSyntax, index: SourceIndex, depth: Int) {
        // `action != nil ? TapGesture().onEnded { … } : nil`: the gesture is whichever branch is
        // not `nil` (a view with no action gets none).
        if let ternary = TernaryParts(expression) {
            for branch in ternary.branches where !branch.is(NilLiteralExprSyntax.self) { collect(branch, index: index, depth: depth) }
            return
        }
        var current = expression
        var combined: [ExprSyntax] = []
        // Down the `.onEnded { … }.exclusively(before: …)` chain to the gesture it starts from.
        while let call = current.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base {
            let name = member.declName.baseName.text
            if Self.combinators.contains(name) {
                combined.append(contentsOf: call.arguments.map(\.expression))
            } else if Self.callbacks.contains(name) {
                if call.closures.isEmpty { hasOpaqueParts = true }
                closures.append(contentsOf: call.closures)
            }
            current = base
        }
        collectRoot(current, index: index, depth: depth)
        for expression in combined { collect(expression, index: index, depth: depth) }
    }

    private mutating func collectRoot(_ current: ExprSyntax, index: SourceIndex, depth: Int) {
        if let call = current.as(FunctionCallExprSyntax.self), let name = call.calleeName {
            if name == "TapGesture" || name == "SpatialTapGesture" {
                let countArgument = call.argument("count")
                let count = countArgument == nil ? 1 : countArgument?.numberValue
                if let count, count <= 1 {
                    components.append(Component(display: "`\(name)`", isSingleTap: true))
                } else {
                    let shown = countArgument?.sourceText ?? "?"
                    components.append(Component(display: "`\(name)(count: \(shown))`", isSingleTap: false))
                }
            } else if Self.composites.contains(name) {
                for argument in call.arguments { collect(argument.expression, index: index, depth: depth) }
            } else if name.hasSuffix("Gesture") {
                components.append(Component(display: "`\(name)`", isSingleTap: false))
            } else {
                hasOpaqueParts = true
                components.append(Component(display: "the gesture `\(call.normalizedText.prefix(40))`", isSingleTap: false))
            }
            return
        }
        // `let drag = DragGesture()…` or `var drag: some Gesture { DragGesture()… }` in the same
        // file: look through the declaration.
        let reference = current.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? current.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        if let reference, depth < 3, let bound = Self.declaredValue(reference, index) {
            collect(bound, index: index, depth: depth + 1)
            return
        }
        hasOpaqueParts = true
        components.append(Component(display: "the gesture `\(current.normalizedText.prefix(40))`", isSingleTap: false))
    }
    /// The initializer of `let name = …`, or the single expression of a computed property's getter.
    private static func declaredValue(_ name: String, _ index: SourceIndex) -> ExprSyntax? {
        if let bound = index.bindings[name]?.last { return bound }
        for declaration in index.declarations(name, in: nil) {
            guard let accessors = declaration.as(PatternBindingSyntax.self)?.accessorBlock?.accessors else { continue }
            let statements = accessors.as(CodeBlockItemListSyntax.self)
                ?? accessors.as(AccessorDeclListSyntax.self)?
                    .first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
            guard let last = statements?.last?.item else { continue }
            if let expression = last.as(ExprSyntax.self) { return expression }
            if let returned = last.as(ReturnStmtSyntax.self)?.expression { return returned }
        }
        return nil
    }
}

/// What the action of a tap does, read from the calls and assignments the index already holds.
enum TapAction {
    /// The value a tap flips: `isOn.toggle()` or `isOn = !isOn` → "isOn".
    static func toggledValue(in ranges: [Range<Int>], _ file: SourceFile) -> String? {
        guard !ranges.isEmpty else { return nil }
        func inside(_ node: some SyntaxProtocol) -> Bool {
            let offset = node.position.utf8Offset
            return ranges.contains { $0.contains(offset) }
        }
        for call in file.index.calls(named: "toggle") where call.arguments.isEmpty
            && call.trailingClosure == nil && inside(call) {
            if let base = call.calleeBaseText { return base }
        }
        for assignment in file.index.assignments where assignment.value.count == 1 && inside(assignment.node) {
            guard let negation = assignment.value[0].as(PrefixOperatorExprSyntax.self),
                  negation.operator.text == "!",
                  negation.expression.sourceText == assignment.target.sourceText else { continue }
            return assignment.target.sourceText
        }
        return nil
    }

    static func ranges(of closures: [ClosureExprSyntax]?) -> [Range<Int>] {
        (closures ?? []).map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
    }

    /// Every statement only gives up keyboard focus (`focused = false`, `hideKeyboard()`,
    /// `endEditing(true)`): the tap-outside-to-dismiss-the-keyboard idiom, not a control.
    static func onlyDismissesKeyboard(_ closures: [ClosureExprSyntax]?) -> Bool {
        guard let closures, !closures.isEmpty else { return false }
        let statements = closures.flatMap { Array($0.statements) }
        guard !statements.isEmpty else { return false }
        return statements.allSatisfy { statement in
            if let sequence = statement.item.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return false }
                let value = elements[2].sourceText
                return elements[0].sourceText.lowercased().contains("focus") && (value == "false" || value == "nil")
            }
            // The statement's identifiers, read from its tokens: printing every tap closure to
            // search its text cost more than the rest of the rule.
            return statement.item.tokens(viewMode: .sourceAccurate).contains { token in
                guard case .identifier(let name) = token.tokenKind else { return false }
                return ["resignFirstResponder", "endEditing", "hideKeyboard", "dismissKeyboard"].contains(name)
            }
        }
    }
}

/// A UIKit or AppKit gesture recognizer created in code, with the counts configured on it.
struct RecognizerUse {
    let call: FunctionCallExprSyntax
    let type: String
    /// numberOfTapsRequired / numberOfClicksRequired, 1 unless configured.
    let taps: Double
    /// numberOfTouchesRequired, 1 unless configured.
    let touches: Double
    /// The method named by `action: #selector(…)`.
    let actionName: String?

    static let tapTypes: Set<String> = ["UITapGestureRecognizer", "NSClickGestureRecognizer"]

    /// `nil` when `call` is not `<type>(…)` for one of `types`, or when a count is computed.
    init?(_ call: FunctionCallExprSyntax, types: Set<String>, _ file: SourceFile) {
        guard let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
              types.contains(reference.baseName.text) else { return nil }
        self.call = call
        type = reference.baseName.text
        let variable = Self.boundName(of: call)
        guard let taps = Self.configured(["numberOfTapsRequired", "numberOfClicksRequired"], on: variable, call, file),
              let touches = Self.configured(["numberOfTouchesRequired"], on: variable, call, file) else { return nil }
        self.taps = taps
        self.touches = touches
        actionName = Self.selectorName(call.argument("action"))
    }

    var isSingleTap: Bool { Self.tapTypes.contains(type) && taps <= 1 && touches <= 1 }

    /// `let tap = Recognizer(…)` → "tap"; `self.doubleTap = Recognizer(…)` → "doubleTap".
    private static func boundName(of call: FunctionCallExprSyntax) -> String? {
        if let clause = call.parent?.as(InitializerClauseSyntax.self),
           let binding = clause.parent?.as(PatternBindingSyntax.self) {
            return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        if let list = call.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].id == call.id {
                return Assignment.objectName(elements[0])
            }
        }
        return nil
    }

    /// The literal assigned to `variable.<property>` in the enclosing function, else the type;
    /// 1 when never assigned; `nil` when assigned something that is not a literal.
    private static func configured(_ properties: Set<String>, on variable: String?, _ call: FunctionCallExprSyntax,
                                   _ file: SourceFile) -> Double? {
        guard let variable else { return 1 }
        var function: Syntax? = call.parent
        while let node = function, !node.is(FunctionDeclSyntax.self), !node.is(InitializerDeclSyntax.self),
              !node.is(AccessorDeclSyntax.self) {
            function = node.parent
        }
        func lastAssignment(in scope: Syntax?) -> Assignment? {
            let range = scope.map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
            return file.index.assignments.last { assignment in
                assignment.targetObject == variable && properties.contains(assignment.targetProperty ?? "")
                    && range.map { $0.contains(assignment.node.position.utf8Offset) } != false
            }
        }
        // A property created in `init` may be configured in `viewDidLoad`: fall back to the type.
        guard let last = function.flatMap({ lastAssignment(in: $0) }) ?? lastAssignment(in: call.enclosingTypeDecl) else {
            return 1
        }
        return last.value.count == 1 ? last.value[0].numberValue : nil
    }

    private static func selectorName(_ expression: ExprSyntax?) -> String? {
        guard let macro = expression?.as(MacroExpansionExprSyntax.self), macro.macroName.text == "selector",
              let target = macro.arguments.first?.expression else { return nil }
        if let reference = target.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return target.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    /// Whether the selector's method, declared in the same type, flips a value.
    func actionToggles(_ file: SourceFile) -> String? {
        guard let actionName else { return nil }
        let methods = file.index.declarations(actionName, in: call.enclosingTypeDecl)
            .compactMap { $0.as(FunctionDeclSyntax.self)?.body }
        let ranges = methods.map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
        return TapAction.toggledValue(in: ranges, file)
    }
}

/// What the UIKit/AppKit code of one type (or file) tells assistive technologies about its
/// elements: traits and roles it adds, and the actions it exposes. Read per type because UIKit
/// configures a view across `init`, `viewDidLoad` and overrides.
struct ObjectAccessibility {
    /// Trait and role names added anywhere in the scope: `.button`, `.selected`, `.checkBox`, …
    private(set) var traits: Set<String> = []
    let activates: Bool
    let customActions: Bool
    let value: Bool
    let contextMenu: Bool
    let adjustsOrScrolls: Bool

    init(scope: Syntax?, _ file: SourceFile) {
        let index = file.index
        let range = scope.map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
        func inScope(_ node: some SyntaxProtocol) -> Bool { range?.contains(node.position.utf8Offset) ?? true }
        func declares(_ names: [String]) -> Bool { names.contains { !index.declarations($0, in: scope).isEmpty } }
        func reads(_ names: [String]) -> Bool { names.contains { index.references($0, in: scope) } }

        for call in index.calls where inScope(call) {
            let name = call.calleeName ?? ""
            if ["insert", "formUnion", "union", "update"].contains(name),
               call.calleeBaseText?.contains("accessibilityTraits") == true {
                traits.formUnion(Self.memberNames(in: call.arguments))
            } else if name == "setAccessibilityRole" || name == "setAccessibilitySubrole" {
                traits.formUnion(Self.memberNames(in: call.arguments))
            }
        }
        for assignment in index.assignments where inScope(assignment.node)
            && ["accessibilityTraits", "accessibilityRole"].contains(assignment.targetProperty ?? "") {
            for value in assignment.value { traits.formUnion(Self.memberNames(in: value)) }
        }
        // `override var accessibilityTraits { … }` and `override func accessibilityRole() -> … { .button }`.
        for name in ["accessibilityTraits", "accessibilityRole", "accessibilitySubrole"] {
            for declaration in index.declarations(name, in: scope) {
                if let binding = declaration.as(PatternBindingSyntax.self) {
                    if let accessors = binding.accessorBlock { traits.formUnion(Self.memberNames(in: accessors)) }
                    if let initializer = binding.initializer { traits.formUnion(Self.memberNames(in: initializer)) }
                } else if let body = declaration.as(FunctionDeclSyntax.self)?.body {
                    traits.formUnion(Self.memberNames(in: body))
                }
            }
        }
        activates = declares(["accessibilityActivate", "accessibilityPerformPress"])
        customActions = reads(["accessibilityCustomActions", "setAccessibilityCustomActions", "UIAccessibilityCustomAction",
                               "NSAccessibilityCustomAction"])
            || declares(["accessibilityCustomActions"])
        value = reads(["accessibilityValue", "setAccessibilityValue"]) || declares(["accessibilityValue"])
        // AppKit's `override func menu(for:)`; a `let menu = …` property is not a context menu.
        let menuOverride = index.declarations("menu", in: scope).contains { $0.is(FunctionDeclSyntax.self) }
        contextMenu = reads(["UIContextMenuInteraction"]) || declares(["contextMenuInteraction"]) || menuOverride
            || index.assignments.contains { inScope($0.node) && $0.targetProperty == "menu" }
        adjustsOrScrolls = declares(["accessibilityIncrement", "accessibilityDecrement", "accessibilityScroll",
                                     "accessibilityPerformEscape", "accessibilityPerformIncrement",
                                     "accessibilityPerformDecrement", "accessibilityPerformShowMenu"])
    }

    /// `.button`, `UIAccessibilityTraits.link`, `[.button, .selected]` → member names after a dot.
    static func memberNames(in node: some SyntaxProtocol) -> Set<String> {
        var names: Set<String> = []
        var previous: TokenSyntax?
        for token in node.tokens(viewMode: .sourceAccurate) {
            if case .identifier(let name) = token.tokenKind, previous?.text == "." { names.insert(name) }
            previous = token
        }
        return names
    }
}

extension ExprSyntax {
    /// A short name for the view a modifier is applied to: `Image(systemName: "star")`, `HStack { … }`.
    var shortViewDescription: String {
        let text = normalizedText
        if text.count <= 48 { return "`\(text)`" }
        if let call = self.as(FunctionCallExprSyntax.self), let name = call.calleeName {
            return call.arguments.isEmpty && call.trailingClosure != nil ? "`\(name) { … }`" : "`\(name)(…)`"
        }
        return "`\(text.prefix(45))…`"
    }
}

extension Syntax {
    /// `class AvatarView` → "AvatarView"; `extension Foo` → "Foo".
    var declaredTypeName: String {
        if let decl = self.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = self.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = self.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = self.as(ActorDeclSyntax.self) { return decl.name.text }
        if let decl = self.as(ExtensionDeclSyntax.self) { return decl.extendedType.sourceText }
        return "this type"
    }
}
