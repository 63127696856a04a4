import SwiftSyntax

/// What the app's own SwiftUI views do to the accessibility of whatever file shows them: a
/// component that draws its `name` as `Image(name)`, one that is tappable without a button
/// trait, one that hides its text behind `.accessibilityElement(children: .ignore)` with no
/// label. Each is a fact of the declaring file (in `referencedNames`, cached with it); a file
/// that constructs such a view is checked again with the facts (`ProjectContext.componentFacts`)
/// and reports the use, so the finding lands where the reviewer sees the control and goes when
/// the component is fixed.
public enum ViewComponents {
    /// `assetImage:Icon.name`: `Icon(name: "x")` shows `Image(name)` with no label of its own
    /// (`Icon._` for an unlabelled initializer argument). Lowercase first: never a type name.
    static let assetImagePrefix = "assetImage:"
    /// `tapOnly:ButtonLabel`: the view's body is made tappable with a single-tap gesture and
    /// carries no button or link trait, nor an accessibility action.
    static let tapOnlyPrefix = "tapOnly:"
    /// `tapOnlyWhenGiven:ButtonLabel.action`: as `tapOnly:`, where the use passes the closure
    /// its taps run (`{trailing}` for a trailing closure); with none, nothing is tappable.
    static let tapOnlyWhenGivenPrefix = "tapOnlyWhenGiven:"
    static let trailingLabel = "{trailing}"
    /// `control:IconCell`: the view holds a SwiftUI control; `tapOnly:Row>IconCell` says the
    /// tappable `Row` shows `IconCell`, and is no `tapOnly:` fact if that is a control.
    static let controlPrefix = "control:"
    /// `nameless:ActionableButton`: the view is one actionable element
    /// (`.accessibilityElement(children: .ignore)` with a button trait or a tap) that sets no
    /// label anywhere in its type: every use is a control with no name.
    static let namelessPrefix = "nameless:"

    static let prefixes = [assetImagePrefix, tapOnlyPrefix, tapOnlyWhenGivenPrefix, namelessPrefix]
    /// `assetImage:Tooltip.icon>Icon.name`: `Tooltip` hands its `icon` to `Icon(name:)`; it
    /// shows an asset name if `Icon` does.
    static let forwardMarker = ">"

    /// The facts uses stand on, resolved across files (`resolvingComponentFacts`), without the
    /// forwarding and control facts that only resolution reads.
    /// `ambiguous`: names more than one file declares a view by (`view:` facts), whose facts
    /// are not about one view.
    public static func useFacts(_ referenced: Set<String>, ambiguous: Set<String> = []) -> Set<String> {
        resolvingComponentFacts(referenced).filter { fact in
            isComponentFact(fact) && !fact.contains(forwardMarker) && !ambiguous.contains(typeName(of: fact))
        }
    }

    /// The view names more than one of these files declares (each file's `referencedNames`).
    public static func ambiguousViewNames(_ files: [Set<String>]) -> Set<String> {
        var seen = Set<String>(), twice = Set<String>()
        for names in files {
            for name in names where name.hasPrefix(declaredViewPrefix) {
                let view = String(name.dropFirst(declaredViewPrefix.count))
                if !seen.insert(view).inserted { twice.insert(view) }
            }
        }
        return twice
    }

    /// Adds `assetImage:Tooltip.icon` for each view that hands its string to one that shows
    /// it (`assetImage:Icon.name`), through any number of such hands, and drops the tap facts of
    /// views that show a control of the app's own: once every file's facts are known.
    static func resolvingComponentFacts(_ referenced: Set<String>) -> Set<String> {
        var forwards: [(fact: String, target: String)] = []
        for entry in referenced where entry.hasPrefix(assetImagePrefix) {
            guard let marker = entry.range(of: forwardMarker) else { continue }
            forwards.append((String(entry[..<marker.lowerBound]), assetImagePrefix + entry[marker.upperBound...]))
        }
        var resolved = referenced
        // A tappable view that shows a control of the app's own: that control is what VoiceOver offers.
        for entry in referenced where entry.hasPrefix(tapOnlyPrefix) {
            guard let marker = entry.range(of: forwardMarker) else { continue }
            resolved.remove(entry)
            guard referenced.contains(controlPrefix + entry[marker.upperBound...]) else { continue }
            let view = entry[entry.index(entry.startIndex, offsetBy: tapOnlyPrefix.count)..<marker.lowerBound]
            resolved.remove(tapOnlyPrefix + view)
            for fact in referenced where fact.hasPrefix(tapOnlyWhenGivenPrefix + view + ".") { resolved.remove(fact) }
        }
        guard !forwards.isEmpty else { return resolved }
        var grew = true
        while grew {
            grew = false
            for (fact, target) in forwards where resolved.contains(target) && !resolved.contains(fact) {
                resolved.insert(fact)
                grew = true
            }
        }
        return resolved
    }

    /// Components of an app's own, for the rules' examples: each rule judges where they are used.
    static let exampleComponents = """
        import SwiftUI
        struct Icon: View {
            let name: String
            var size: CGFloat = 16
            var body: some View { Image(name).resizable().frame(width: size, height: size) }
        }
        struct CloseButton: View {
            let icon: String
            let action: () -> Void
            init(_ icon: String, action: @escaping () -> Void) { self.icon = icon; self.action = action }
            var body: some View { Button(action: action) { Image(icon) } }
        }
        struct Tooltip: View {
            var icon: String?
            var title: String
            var body: some View {
                HStack {
                    if let icon { Icon(name: icon) }
                    Text(title)
                }
            }
        }
        struct Glyph: View {
            let symbol: String
            var body: some View { Image(systemName: symbol) }
        }
        struct Badge: View {
            let name: String
            let title: String
            var body: some View { Image(name).accessibilityLabel(title) }
        }
        struct ButtonLabel: View {
            let text: String
            var action: (() -> Void)?
            init(_ text: String, action: (() -> Void)? = nil) { self.text = text; self.action = action }
            var body: some View {
                HStack { Text(text) }
                    .padding(6)
                    .simultaneousGesture(action != nil ? TapGesture().onEnded { action?() } : nil)
            }
        }
        struct PlainButton: View {
            let text: String
            let action: () -> Void
            var body: some View {
                Text(text).onTapGesture { action() }.accessibilityAddTraits(.isButton)
            }
        }
        struct ToolbarButton: View {
            var icon: String
            var action: (() -> Void)?
            var body: some View {
                Icon(name: icon)
                    .accessibilityElement()
                    .accessibilityAddTraits(.isButton)
                    .simultaneousGesture(TapGesture().onEnded { action?() })
            }
        }
        struct SearchField: View {
            @Binding var query: String
            @State private var editing = false
            var body: some View {
                HStack { Image(systemName: "magnifyingglass"); TextField("Search", text: $query) }
                    .onTapGesture { editing = true }
            }
        }
        struct NativeTextField: NSViewRepresentable {
            @Binding var text: String
            func makeNSView(context: Context) -> NSTextField { NSTextField() }
            func updateNSView(_ view: NSTextField, context: Context) { view.stringValue = text }
        }
        struct BoxedField: View {
            @Binding var text: String
            let focus: () -> Void
            var body: some View { NativeTextField(text: $text).padding(8).onTapGesture { focus() } }
        }
        struct IconCell: View {
            let title: String
            var body: some View { Button(action: {}) { Text(title) } }
        }
        struct SettingsCell: View {
            let title: String
            let open: () -> Void
            var body: some View { IconCell(title: title).onTapGesture { open() } }
        }
        struct ActionableButton: View {
            let text: String
            let action: () -> Void
            var body: some View {
                HStack { Text(text) }
                    .onTapGesture { action() }
                    .accessibilityElement(children: .ignore)
                    .accessibilityAddTraits(.isButton)
                    .accessibilityIdentifier(text)
            }
        }
        struct NamedButton: View {
            let text: String
            let action: () -> Void
            var body: some View {
                HStack { Text(text) }
                    .onTapGesture { action() }
                    .accessibilityElement(children: .ignore)
                    .accessibilityAddTraits(.isButton)
                    .accessibilityLabel(text)
            }
        }
        """

    /// Whether a finding's required use is a component fact (a use-site candidate that most
    /// often finds no component to stand on: not a finding the app left unused).
    static func isComponentFact(_ name: String) -> Bool { prefixes.contains { name.hasPrefix($0) } }

    /// A view of the app's own constructed here: an uppercase callee that is not SwiftUI's.
    static func isCustomViewUse(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = call.calleeName, name.first?.isUppercase == true,
              call.calledExpression.is(DeclReferenceExprSyntax.self) else { return false }
        return !AccessibilityLabels.systemViews.contains(name) && !SwiftUIGestureUse.controls.contains(name)
            && !ImageWithoutLabelRule.notViews.contains(name)
    }

    /// The views this file constructs that a component fact of `prefix` is about (the scan's
    /// second look at the file, `ProjectContext.componentFacts`): none on the first.
    static func uses(in file: SourceFile, prefix: String) -> [FunctionCallExprSyntax] {
        let facts = file.context.componentFacts
        guard !facts.isEmpty else { return [] }
        var types = Set<String>()
        for fact in facts where fact.hasPrefix(prefix) { types.insert(typeName(of: fact)) }
        var result: [FunctionCallExprSyntax] = []
        for type in types {
            for call in file.index.callsByName[type] ?? [] where isCustomViewUse(call) && !file.isInPreview(call) { result.append(call) }
        }
        return result.sorted { $0.position < $1.position }
    }

    /// What may be a closure: one written out, or a name or member that holds one.
    static func mayBeClosure(_ value: ExprSyntax) -> Bool {
        value.is(ClosureExprSyntax.self) || value.is(DeclReferenceExprSyntax.self) || value.as(MemberAccessExprSyntax.self)?.base != nil
    }

    /// The labels under which a use passes what may be closures (`_` unlabelled, `{trailing}`
    /// for a trailing closure): what a `tapOnlyWhenGiven:` fact is matched against.
    static func closureLabels(of call: FunctionCallExprSyntax) -> [String] {
        var labels = call.arguments.compactMap { mayBeClosure($0.expression) ? $0.label?.text ?? "_" : nil }
        if call.trailingClosure != nil { labels.append(trailingLabel) }
        labels += call.additionalTrailingClosures.map(\.label.text)
        return labels
    }

    /// `private` or `fileprivate`.
    static func isFilePrivate(_ modifiers: DeclModifierListSyntax?) -> Bool {
        modifiers?.contains { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) } == true
    }

    /// Modifiers whose content is not the view's own: a menu, a sheet, an alert, a toolbar.
    static let detachedContent: Set<String> = [
        "contextMenu", "alert", "sheet", "fullScreenCover", "popover", "confirmationDialog", "toolbar", "swipeActions", "overlay",
        "background", "inspector", "navigationDestination",
    ]

    /// `view:Row`: the file declares a SwiftUI view named `Row` (private or nested ones too):
    /// a name two files declare is not one view, and its facts are dropped.
    static let declaredViewPrefix = "view:"

    /// `assetImage:Icon.name` → `Icon`.
    static func typeName(of fact: String) -> String {
        guard let prefix = prefixes.first(where: fact.hasPrefix) else { return "" }
        let rest = fact.dropFirst(prefix.count)
        return String(rest.prefix { $0 != "." && $0 != Character(forwardMarker) })
    }

    /// The component facts a file needs checking with: those its uses could stand on
    /// (`FileResult.componentUses`, and for the facts about a type alone, the names it refers
    /// to), from the repository's resolved facts.
    public static func facts(_ resolved: Set<String>, forUses uses: Set<String>, referenced: Set<String>) -> Set<String> {
        resolved.filter { fact in
            fact.hasPrefix(tapOnlyPrefix) || fact.hasPrefix(namelessPrefix) ? referenced.contains(typeName(of: fact)) : uses.contains(fact)
        }
    }
}

extension SourceFile {
    /// The facts the views of the app's own this file shows could stand on, from the call
    /// alone (what the rules then judge with the facts): an asset name for each string literal,
    /// a tap for each closure passed, a missing name. Strings only, for the scan to match.
    func componentUses() -> Set<String> {
        var uses = Set<String>()
        for (name, calls) in index.callsByName where name.first?.isUppercase == true
            && !AccessibilityLabels.systemViews.contains(name) && !SwiftUIGestureUse.controls.contains(name) {
            for call in calls where ViewComponents.isCustomViewUse(call) && !isInPreview(call) {
                // `tapOnly:` and `nameless:` facts need only the type's name, which
                // `referencedNames` holds: the uses are the arguments'.
                for argument in call.arguments where argument.expression.is(StringLiteralExprSyntax.self) {
                    uses.insert(ViewComponents.assetImagePrefix + name + "." + (argument.label?.text ?? "_"))
                }
                for label in ViewComponents.closureLabels(of: call) { uses.insert(ViewComponents.tapOnlyWhenGivenPrefix + name + "." + label) }
            }
        }
        return uses
    }

    /// The component facts of the views this file declares (see `ViewComponents`): `shared`,
    /// of its top-level views other files can build; `local`, of its private and nested ones.
    func componentFacts() -> (shared: Set<String>, local: Set<String>) {
        var facts = Set<String>(), local = Set<String>()
        for declaration in index.typeDeclarations {
            // A wrapped AppKit or UIKit view (`NSTextField` in an `NSViewRepresentable`) is
            // whatever control it wraps, for all a tap around it says.
            if let type = declaration.as(StructDeclSyntax.self),
               type.inheritanceClause?.inheritedTypes.contains(where: { ["NSViewRepresentable", "UIViewRepresentable"].contains($0.type.typeName) }) == true {
                facts.insert(ViewComponents.controlPrefix + type.name.text)
                continue
            }
            guard let type = declaration.as(StructDeclSyntax.self),
                  type.inheritanceClause?.inheritedTypes.contains(where: { ["View", "SwiftUI.View"].contains($0.type.typeName) }) == true,
                  !isInPreview(type) else { continue }
            let name = type.name.text
            facts.insert(ViewComponents.declaredViewPrefix + name)
            guard let body = Self.bodyExpression(of: type) else { continue }
            // A private view is not what another file's `Name(…)` builds: its facts are for
            // this file's uses. (A nested one is, from code in its outer type's extensions; a
            // name two files declare is dropped by the scan.)
            let outer = Syntax(type).enclosingTypeDecl
            let isLocal = ViewComponents.isFilePrivate(type.modifiers)
                || ViewComponents.isFilePrivate(outer?.as(StructDeclSyntax.self)?.modifiers ?? outer?.as(ClassDeclSyntax.self)?.modifiers)
            let before = facts
            let chain = ModifierChain(containing: body)
            // A token walk of the type: only for the views a fact could be about.
            var labels: Bool?
            func labelsItself() -> Bool {
                if let labels { return labels }
                let answer = Self.setsAccessibilityLabel(type)
                labels = answer
                return answer
            }
            let taps = chain.modifiers.compactMap { SwiftUIGestureUse($0, index: index) }
                .filter { $0.kind == .singleTap && !$0.doesNothing && !TapAction.onlyDismissesKeyboard($0.actions) }
            let isControl = chain.root.as(FunctionCallExprSyntax.self)?.calleeName.map(SwiftUIGestureUse.controls.contains) ?? false
            let actionable = !chain.addedTraits.isDisjoint(with: TapGestureMissingTraitRule.actionableTraits)
            // The calls in the body, from one walk, only for a view a fact could be about.
            var walked: [FunctionCallExprSyntax]?
            func inner() -> [FunctionCallExprSyntax] {
                if let walked { return walked }
                let calls = SourceFile.callsInSubtree(of: Syntax(body))
                walked = calls
                return calls
            }
            // A control inside (a text field the tap focuses, a button doing the same) is what
            // VoiceOver offers; so is one inside a view of the app's own (`control:IconCell`).
            // From the file's index of calls by name: no walk of every view.
            let range = body.position.utf8Offset..<body.endPosition.utf8Offset
            let holdsControl = SwiftUIGestureUse.controls.contains { control in
                (index.callsByName[control] ?? []).contains { call in
                    range.contains(call.position.utf8Offset) && call.calledExpression.is(DeclReferenceExprSyntax.self)
                        && !Self.isInDetachedContent(call, below: body)
                }
            }
            if holdsControl || isControl { facts.insert(ViewComponents.controlPrefix + name) }
            if !taps.isEmpty, !isControl, !holdsControl, !TapGestureMissingTraitRule.carriesAction(chain), !chain.isHiddenFromAccessibility,
               !taps.contains(where: { TapAction.toggledValue(in: TapAction.ranges(of: $0.actions), self) != nil }) {
                // A tap that runs an optional closure (`action?()`) does nothing where none is passed.
                let given = Self.optionalActionLabels(of: type, taps: taps)
                let tapFacts = given.map { $0.map { ViewComponents.tapOnlyWhenGivenPrefix + name + "." + $0 } } ?? [ViewComponents.tapOnlyPrefix + name]
                facts.formUnion(tapFacts)
                for view in Set(inner().filter(ViewComponents.isCustomViewUse).compactMap(\.calleeName)) where view != name {
                    facts.insert(ViewComponents.tapOnlyPrefix + name + ViewComponents.forwardMarker + view)
                }
            }
            let ignoresChildren = chain.modifiers.contains { call in
                call.calleeName == "accessibilityElement" && (call.argument("children").map { $0.memberName == "ignore" } ?? true)
            }
            if ignoresChildren, !chain.isHiddenFromAccessibility, actionable || isControl || !taps.isEmpty, !labelsItself() {
                facts.insert(ViewComponents.namelessPrefix + name)
            }
            let shown = Self.assetImageArguments(of: type, body: body, calls: inner)
            if !shown.isEmpty, !labelsItself() {
                for label in shown { facts.insert(ViewComponents.assetImagePrefix + name + "." + label) }
            }
            if isLocal {
                local.formUnion(facts.subtracting(before))
                facts = before
            }
        }
        return (facts, local)
    }

    /// Whether `call` sits in a menu, sheet, alert or toolbar the view attaches (between it
    /// and the body's expression), not in what the view shows.
    static func isInDetachedContent(_ call: FunctionCallExprSyntax, below body: ExprSyntax) -> Bool {
        var current = call.parent
        while let node = current, node.id != body.id {
            if let outer = node.as(FunctionCallExprSyntax.self), outer.isMemberCallWithBase,
               ViewComponents.detachedContent.contains(outer.calleeName ?? "") { return true }
            current = node.parent
        }
        return false
    }

    /// The type's stored instance properties with their written types, in declaration order.
    static func storedProperties(of type: StructDeclSyntax) -> [(name: String, type: String?)] {
        type.memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
            .filter { !$0.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) }
            .flatMap { variable in
                variable.bindings.compactMap { binding -> (String, String?)? in
                    guard binding.accessorBlock == nil, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
                    return (name, binding.typeAnnotation?.type.sourceText)
                }
            }
    }

    /// The labels a use passes `property` under: its own name for the memberwise initializer,
    /// else the label of each declared initializer's parameter of that name (`init(_ name:)` →
    /// `_`); `lastParameter` when it is the last (a trailing closure fills it).
    static func initializerLabels(of type: StructDeclSyntax, for property: String) -> (labels: Set<String>, lastParameter: Bool) {
        let initializers = type.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        if initializers.isEmpty {
            // Memberwise, in declaration order; a `let` with a value is not a parameter.
            let parameters = type.memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
                .filter { !$0.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) }
                .filter { $0.bindingSpecifier.tokenKind == .keyword(.var) || $0.bindings.first?.initializer == nil }
                .flatMap { $0.bindings.compactMap { $0.accessorBlock == nil ? $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text : nil } }
            return ([property], parameters.last == property)
        }
        var labels = Set<String>(), last = false
        for initializer in initializers {
            let parameters = Array(initializer.signature.parameterClause.parameters)
            for (offset, parameter) in parameters.enumerated() where (parameter.secondName ?? parameter.firstName).text == property {
                labels.insert(parameter.firstName.text)
                if offset == parameters.count - 1 { last = true }
            }
        }
        return (labels, last)
    }

    /// Where the view's taps only run an optional closure it holds (`action?()`, `if let onTap
    /// { onTap() }`, `action != nil ? TapGesture()… : nil`): the initializer labels that pass
    /// it, with `{trailing}` when it is the last parameter (a trailing closure); nil when a tap
    /// does more.
    static func optionalActionLabels(of type: StructDeclSyntax, taps: [SwiftUIGestureUse]) -> [String]? {
        let optionalClosures = storedProperties(of: type).compactMap { property in
            property.type.map { $0.hasSuffix(")?") && $0.contains("->") } == true ? property.name : nil
        }
        guard !optionalClosures.isEmpty else { return nil }
        var used: String?
        for tap in taps {
            // The gesture is conditional on the closure, or every action only calls it.
            let value = tap.modifier.firstUnlabeledArgument
            let conditional = value.flatMap(TernaryParts.init).map { parts in
                optionalClosures.first { name in parts.conditions.contains { $0.sourceText == name } }
            } ?? nil
            let called = tap.actions.flatMap { closures -> String? in
                let names = closures.map { closure -> String? in
                    guard closure.statements.count == 1, let only = closure.statements.first?.item else { return nil }
                    let text = only.sourceText
                    return optionalClosures.first { name in
                        (text.hasPrefix(name + "?(") && text.hasSuffix(")"))
                            || (text.hasPrefix("if let \(name)") && text.contains("\(name)(") && !text.contains("else"))
                    }
                }
                guard let first = names.first ?? nil, names.allSatisfy({ $0 == first }) else { return nil }
                return first
            }
            guard let name = conditional ?? called, used == nil || used == name else { return nil }
            used = name
        }
        guard let property = used else { return nil }
        let passed = initializerLabels(of: type, for: property)
        return (passed.labels.union(passed.lastParameter ? [ViewComponents.trailingLabel] : [])).sorted()
    }

    /// The expression `var body: some View { … }` returns: its one expression, or the last
    /// statement's (`return …`).
    static func bodyExpression(of type: StructDeclSyntax) -> ExprSyntax? {
        for member in type.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
                  binding.pattern.sourceText == "body", let accessors = binding.accessorBlock?.accessors else { continue }
            let statements: CodeBlockItemListSyntax?
            switch accessors {
            case .getter(let items): statements = items
            case .accessors(let list): statements = list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
            @unknown default: statements = nil
            }
            guard let last = statements?.last?.item else { return nil }
            if let expression = last.as(ExprSyntax.self) { return expression }
            return last.as(ReturnStmtSyntax.self)?.expression
        }
        return nil
    }

    /// Whether the type names itself anywhere: a label, a value, a representation or children
    /// of its own make what its uses say unknown here.
    static func setsAccessibilityLabel(_ type: StructDeclSyntax) -> Bool {
        type.tokens(viewMode: .sourceAccurate).contains { token in
            guard case .identifier(let text) = token.tokenKind else { return false }
            return ["accessibilityLabel", "accessibilityValue", "accessibilityRepresentation", "accessibilityChildren",
                    "accessibility", "accessibilityHidden"].contains(text)
        }
    }

    /// The initializer labels whose string the view shows as `Image(<property>)`, read as its
    /// label (not inside a `Label`, a combined group or a labelled container of its own); or
    /// hands to another view of the app's own (`Icon(name: icon)`), as `label>Icon.name`.
    static func assetImageArguments(of type: StructDeclSyntax, body: ExprSyntax, calls: () -> [FunctionCallExprSyntax]) -> [String] {
        let stringProperties = Set(storedProperties(of: type).compactMap { ["String", "String?"].contains($0.type ?? "") ? $0.name : nil })
        guard !stringProperties.isEmpty else { return [] }
        func property(_ expression: ExprSyntax) -> String? {
            let name: String?
            if let reference = expression.as(DeclReferenceExprSyntax.self) {
                name = reference.baseName.text
            } else if let member = expression.as(MemberAccessExprSyntax.self), member.base?.sourceText == "self" {
                name = member.declName.baseName.text
            } else {
                name = nil
            }
            // A local of the same name (`if let icon = icon`) still holds the property's value.
            return name.flatMap { stringProperties.contains($0) ? $0 : nil }
        }
        // Property → where it goes: "" for an `Image` of its own, `Icon.name` for another view.
        var shown: [String: Set<String>] = [:]
        for call in [body.as(FunctionCallExprSyntax.self)].compactMap({ $0 }) + calls() {
            if call.calleeName == "Image", call.calledExpression.is(DeclReferenceExprSyntax.self) {
                guard let first = call.arguments.first, first.label == nil, call.argument("label") == nil,
                      let name = property(first.expression),
                      case .shown = ImageAssetNameSpokenRule.placement(of: call) else { continue }
                shown[name, default: []].insert("")
            } else if ViewComponents.isCustomViewUse(call) {
                let forwarded = call.arguments.compactMap { argument in property(argument.expression).map { ($0, argument.label?.text ?? "_") } }
                guard !forwarded.isEmpty, case .shown = ImageAssetNameSpokenRule.placement(of: call), let callee = call.calleeName else { continue }
                for (name, label) in forwarded { shown[name, default: []].insert(callee + "." + label) }
            }
        }
        var facts = Set<String>()
        for (name, targets) in shown {
            for label in initializerLabels(of: type, for: name).labels {
                for target in targets { facts.insert(target.isEmpty ? label : label + ViewComponents.forwardMarker + target) }
            }
        }
        return facts.sorted()
    }
}
