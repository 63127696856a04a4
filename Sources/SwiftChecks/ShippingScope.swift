import AuditModel
import SwiftSyntax

extension SourceFile {
    /// Code that never reaches a user: `#if DEBUG` (or `TARGET_INTERFACE_BUILDER`) branches,
    /// clauses no shipping build compiles (`#if false`, a flag only debug configurations set,
    /// the `#else` of a flag every release configuration sets), and previews. A finding there
    /// is not about the shipped app.
    func isNonShipping(_ node: some SyntaxProtocol) -> Bool {
        if isInPreview(node) { return true }
        guard index.hasIfConfig else { return false }
        var current = Syntax(node).parent
        while let syntax = current {
            if let clause = syntax.as(IfConfigClauseSyntax.self), isNeverShipped(clause) { return true }
            current = syntax.parent
        }
        return false
    }

    /// A `#if DEBUG` (or `TARGET_INTERFACE_BUILDER`) clause, or one no shipping build compiles.
    func isNeverShipped(_ clause: IfConfigClauseSyntax) -> Bool {
        if let condition = clause.condition, Self.isDebugOnly(condition),
           clause.poundKeyword.tokenKind == .poundIf || clause.poundKeyword.tokenKind == .poundElseif {
            return true
        }
        return CompilationConditions.isClauseNeverShipped(clause, conditions: context.compilationConditions)
    }

    /// The flag of an enclosing `#if FLAG` (or `#if FLAG && …`) that no configuration of the
    /// targets building the file sets, where those are known: such code ships only if some
    /// build passes the flag (a QA build, a CI script), so a claim there is a person's call.
    func flagNoConfigurationSets(around node: some SyntaxProtocol) -> String? {
        guard index.hasIfConfig, let conditions = context.compilationConditions else { return nil }
        var current = Syntax(node).parent
        while let syntax = current {
            if let clause = syntax.as(IfConfigClauseSyntax.self), let unset = Self.flagNoConfigurationSets(clause, conditions: conditions) {
                return unset
            }
            current = syntax.parent
        }
        return nil
    }

    /// The flag `clause` (an `#if` or `#elseif`) requires that none of `conditions` sets.
    static func flagNoConfigurationSets(_ clause: IfConfigClauseSyntax, conditions: CompilationConditions) -> String? {
        guard let condition = clause.condition,
              clause.poundKeyword.tokenKind == .poundIf || clause.poundKeyword.tokenKind == .poundElseif else { return nil }
        var unset: String?
        _ = condition.requiresConjunct { term in
            guard let name = term.as(DeclReferenceExprSyntax.self)?.baseName.text,
                  !["DEBUG", "TARGET_INTERFACE_BUILDER", "true", "false"].contains(name),
                  !conditions.mentioned.contains(name) else { return false }
            unset = name
            return true
        }
        return unset
    }

    /// `DEBUG`, `DEBUG && os(iOS)`, `!RELEASE`: true only in debug builds. `!DEBUG` and
    /// `DEBUG || X` are not.
    static func isDebugOnly(_ condition: ExprSyntax) -> Bool {
        condition.requiresConjunct { term in
            if let negated = term.as(PrefixOperatorExprSyntax.self), negated.operator.text == "!" {
                return negated.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "RELEASE"
            }
            return term.as(DeclReferenceExprSyntax.self).map { ["DEBUG", "TARGET_INTERFACE_BUILDER"].contains($0.baseName.text) } ?? false
        }
    }

    /// The name of the member property `node` lies in, when whether it ever renders depends on
    /// something reading that property: a static or instance property of a type or extension
    /// (a palette constant, a style's sample data). Not `body` (SwiftUI reads it), not an
    /// override or an `@objc`/Interface Builder property (the frameworks read those by name),
    /// and not when a function, initializer or accessor-free local scope comes first.
    func memberPropertyRequiringUse(around node: some SyntaxProtocol) -> String? {
        guard let (variable, name) = Self.enclosingMemberProperty(of: node), name != "body",
              !variable.modifiers.contains(where: { ["override", "dynamic"].contains($0.name.text) }) else { return nil }
        return name
    }

    /// The name of the SwiftUI builder method `node` lies in (`func header() -> some View`,
    /// or one marked `@ViewBuilder`), when whether what it builds ever shows depends on
    /// something calling it: a non-public method nothing in the repository names builds nothing
    /// anyone sees. Not `makeBody` or `body(content:)` (SwiftUI calls those through their
    /// protocols), not an override, an `@objc` method or a `public`/`open` one (other modules
    /// call it; an internal method of a public type only its own module can), and not a UIKit builder (`-> UIView`), which delegate protocols call unnamed.
    func memberFunctionRequiringUse(around node: some SyntaxProtocol) -> String? {
        guard let (function, name) = Self.enclosingMemberFunction(of: node), !["makeBody", "body"].contains(name),
              !function.modifiers.contains(where: { ["override", "public", "open", "dynamic"].contains($0.name.text) }),
              !function.attributes.contains(where: { attribute in
                  guard let attribute = attribute.as(AttributeSyntax.self) else { return true }
                  return Self.frameworkReadAttributes.contains(attribute.attributeName.sourceText)
                      || attribute.attributeName.sourceText == "_dynamicReplacement"
              }) else { return nil }
        let returned = function.signature.returnClause?.type.sourceText ?? ""
        let builds = function.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.sourceText == "ViewBuilder" }
            || ["some View", "any View", "AnyView", "some SwiftUI.View", "SwiftUI.AnyView"].contains(returned)
        return builds ? name : nil
    }

    /// The single-binding member property `node` lies in (`var header: some View { … }`, not
    /// a local, a function or an initializer), unless the frameworks read it by name
    /// (`@objc`, `@IBOutlet`, …).
    /// The member method `node` lies in (its outermost function inside a type), with its name.
    static func enclosingMemberFunction(of node: some SyntaxProtocol) -> (FunctionDeclSyntax, String)? {
        // Kinds are compared before any cast: a cast per ancestor of every finding was a tenth
        // of the checks' own cost on view-heavy apps.
        var current = Syntax(node).parent
        while let syntax = current {
            switch syntax.kind {
            case .functionDecl:
                if syntax.parent?.kind == .memberBlockItem, let function = syntax.as(FunctionDeclSyntax.self) {
                    return (function, function.name.text)
                }
            case .memberBlock, .sourceFile: return nil
            default: break
            }
            current = syntax.parent
        }
        return nil
    }

    static func enclosingMemberProperty(of node: some SyntaxProtocol) -> (VariableDeclSyntax, String)? {
        var current = Syntax(node).parent
        while let syntax = current {
            switch syntax.kind {
            case .variableDecl:
                guard let variable = syntax.as(VariableDeclSyntax.self), variable.parent?.kind == .memberBlockItem,
                      variable.bindings.count == 1,
                      let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      !variable.attributes.contains(where: { attribute in
                          guard let attribute = attribute.as(AttributeSyntax.self) else { return true }
                          return frameworkReadAttributes.contains(attribute.attributeName.sourceText)
                      }) else { return nil }
                return (variable, name)
            case .functionDecl, .initializerDecl, .subscriptDecl, .deinitializerDecl, .memberBlock, .sourceFile: return nil
            default: current = syntax.parent
            }
        }
        return nil
    }

    /// What makes `node` run only in a Mac Catalyst app at runtime: the `if` branches it lies in
    /// whose condition reads `isMacCatalystApp` (`direct`) or names a flag (`names`, which
    /// `FileResult.catalystFlagMarker` facts may say is one).
    func catalystGate(around node: some SyntaxProtocol) -> (direct: Bool, names: [String]) {
        var direct = false, names: [String] = []
        var child = Syntax(node)
        var current = child.parent
        while let syntax = current {
            if syntax.kind == .ifExpr, let branch = syntax.as(IfExprSyntax.self), branch.body.id == child.id {
                for token in branch.conditions.tokens(viewMode: .sourceAccurate) {
                    guard case .identifier(let name) = token.tokenKind else { continue }
                    if name == "isMacCatalystApp" { direct = true } else if !names.contains(name) { names.append(name) }
                }
            }
            child = syntax
            current = syntax.parent
        }
        return (direct, names)
    }

    /// Names that may be a Mac flag (`IS_CATALYST`, `isMacCatalyst`, `isMac`): only branches on
    /// these are looked at for `catalystGatedTypeFacts`.
    static func mayNameMacFlag(_ name: String) -> Bool {
        name.hasPrefix("isMac") || name.hasPrefix("IS_MAC") || isNamedForCatalyst(name)
    }

    /// `IS_CATALYST`, `isCatalyst`, `isMacCatalystApp`: a flag whose name says what it tests,
    /// taken as one without its definition (which may sit in a file the scan does not parse).
    /// Asked of every name a file refers to: no lower-cased copy per name.
    static func isNamedForCatalyst(_ name: some StringProtocol) -> Bool {
        ASCII.contains(name, "atalyst") || ASCII.contains(name, "ATALYST")
    }

    /// `SideTabs@gatedBy:IS_CATALYST` for each type this file constructs inside a branch on a
    /// name that may be a Mac flag, and `SideTabs@ungated` when it also constructs it outside
    /// one. The scan decides from every file whether the type shows only on the Mac
    /// (`FileResult.catalystOnlyMarker`).
    func catalystGatedTypeFacts() -> Set<String> {
        guard index.references.keys.contains(where: Self.mayNameMacFlag) else { return [] }
        var gated: [String: Set<String>] = [:], ungated = Set<String>()
        for (name, calls) in index.callsByName where name.first?.isUppercase == true {
            for call in calls where call.calledExpression.is(DeclReferenceExprSyntax.self) && !isInPreview(call) {
                let gate = catalystGate(around: call)
                let flags = (gate.direct ? ["isMacCatalystApp"] : []) + gate.names.filter(Self.mayNameMacFlag)
                if flags.isEmpty { ungated.insert(name) } else { gated[name, default: []].formUnion(flags) }
            }
        }
        var facts = Set<String>()
        for (name, flags) in gated {
            for flag in flags { facts.insert(name + FileResult.gatedByMarker + flag) }
            if ungated.contains(name) { facts.insert(name + FileResult.ungatedMarker) }
        }
        return facts
    }

    /// `@platforms:<mask>`, the platforms the file builds for, and `Type@builtFor:<mask>` for each
    /// type the file builds only under platform conditions narrower than that (`#if
    /// os(macOS)`, an availability fallback), every reference to it being such a construction:
    /// with the other files' facts, the platforms a view can appear on at all (see
    /// `FileResult.builtPlatforms`). A type also named in type position is left out.
    func constructionPlatformFacts() -> Set<String> {
        let base = resolver.filePlatforms
        var facts: Set<String> = [FileResult.platformsMarker + String(base.rawValue)]
        for (name, calls) in index.callsByName where name.first?.isUppercase == true && !index.typeReferences.contains(name) {
            let sites = calls.filter { $0.calledExpression.is(DeclReferenceExprSyntax.self) && !isInPreview($0) }
            guard !sites.isEmpty, sites.count == index.references[name]?.count else { continue }
            let built = sites.reduce(PlatformSet()) { $0.union(platforms(at: $1)) }
            if built != base { facts.insert(name + FileResult.builtForMarker + String(built.rawValue)) }
        }
        return facts
    }

    /// Who names which type, for `FileResult.typeUse`: `Owner@uses:A B` for the type names the
    /// file uses inside its top-level type (or extension of a type) `Owner`, `@uses:C` for those
    /// used elsewhere (top-level code, a protocol, a `#if` around declarations), `Owner@top` for
    /// each top-level type, and `Owner@root` for one that needs no use to run (public, an
    /// attribute such as `@main`, a type the system finds).
    func typeUseFacts() -> Set<String> {
        var spans: [(start: Int, end: Int, owner: String)] = []
        var facts = Set<String>()
        for item in tree.statements {
            let decl = item.item
            let owner: String?
            if let group = decl.asProtocol(DeclGroupSyntax.self), decl.is(StructDeclSyntax.self) || decl.is(ClassDeclSyntax.self)
                || decl.is(EnumDeclSyntax.self) || decl.is(ActorDeclSyntax.self) {
                let name = Syntax(decl).declaredTypeName
                owner = name
                facts.insert(name + FileResult.topTypeMarker)
                if !Self.requiresUse(group) { facts.insert(name + FileResult.rootTypeMarker) }
            } else if let extensionDecl = decl.as(ExtensionDeclSyntax.self), let type = extensionDecl.extendedType.as(IdentifierTypeSyntax.self),
                      type.genericArgumentClause == nil {
                owner = type.name.text
            } else {
                owner = nil
            }
            if let owner { spans.append((item.position.utf8Offset, item.endPosition.utf8Offset, owner)) }
        }
        func owner(of offset: Int) -> String {
            // Spans are in source order and do not overlap.
            var low = 0, high = spans.count
            while low < high {
                let middle = (low + high) / 2
                if spans[middle].end <= offset { low = middle + 1 } else { high = middle }
            }
            return low < spans.count && spans[low].start <= offset ? spans[low].owner : ""
        }
        // Structs and classes declared inside each top-level type: inside it, their names mean them.
        var nestedNames: [String: Set<String>] = [:]
        for type in index.typeDeclarations where type.enclosingTypeDecl != nil {
            nestedNames[owner(of: type.position.utf8Offset), default: []].insert(type.declaredTypeName)
        }
        // A preview builds a view for Xcode's canvas, and a debug-only branch (or one no
        // shipping build compiles) for the developer, not for the app.
        let notShipped = previewRanges + index.ifConfigClauses.filter(isNeverShipped).map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
        // Code under a flag no configuration sets ships only in a build that passes it (a QA
        // build): what only it uses is a person's call.
        let flagged = context.compilationConditions.map { conditions in
            index.ifConfigClauses.filter { Self.flagNoConfigurationSets($0, conditions: conditions) != nil }
                .map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
        } ?? []
        // By owner ("" for code outside every type): one fact per owner keeps the cache small.
        var uses: [String: Set<String>] = ["": []], flaggedUses: [String: Set<String>] = [:]
        func record(_ name: String, _ offsets: [Int]) {
            guard name.first?.isUppercase == true, !Self.frameworkTypeNames.contains(name) else { return }
            for offset in offsets where !notShipped.contains(where: { $0.contains(offset) }) {
                let by = owner(of: offset)
                guard by != name else { continue }
                // `HeaderView()` inside a view that declares its own `struct HeaderView` builds
                // that one, not the top-level `HeaderView` of another file.
                if nestedNames[by]?.contains(name) == true { continue }
                // `Strings.FacetView` names a type nested in `Strings` (a use of `Strings`, which
                // is recorded itself), not a top-level `FacetView`; `ShopKit.FacetView` with
                // `import ShopKit` names the module's.
                if let qualifier = index.qualifiers[offset], !index.topLevelImports.contains(qualifier) { continue }
                if flagged.contains(where: { $0.contains(offset) }) { flaggedUses[by, default: []].insert(name) } else { uses[by, default: []].insert(name) }
            }
        }
        for (name, offsets) in referencesOutsidePreviews { record(name, offsets) }
        for (name, offsets) in index.typeReferenceOffsets { record(name, offsets) }
        for (owner, names) in uses { facts.insert(owner + FileResult.usesMarker + names.sorted().joined(separator: " ")) }
        for (owner, names) in flaggedUses { facts.insert(owner + FileResult.flaggedUsesMarker + names.sorted().joined(separator: " ")) }
        return facts
    }

    /// The frameworks' types nearly every UI file names (`Text`, `UIView`, `String`): their uses
    /// would be most of `typeUseFacts` and of the work of reading them on every scan. A type of
    /// the repository's own with one of these names is seen as used wherever it is declared.
    static let frameworkTypeNames: Set<String> = [
        "View", "Text", "Image", "Button", "VStack", "HStack", "ZStack", "LazyVStack", "LazyHStack", "LazyVGrid", "LazyHGrid",
        "Spacer", "Divider", "List", "ForEach", "Section", "Group", "ScrollView", "NavigationView", "NavigationStack",
        "NavigationLink", "GeometryReader", "EmptyView", "AnyView", "Color", "Font", "Toggle", "Picker", "TextField",
        "SecureField", "Label", "Link", "Menu", "Circle", "Rectangle", "RoundedRectangle", "Capsule", "Path", "Shape",
        "State", "Binding", "Published", "ObservedObject", "StateObject", "EnvironmentObject", "Environment",
        "ObservableObject", "Edge", "EdgeInsets", "Alignment", "Animation", "LocalizedStringKey", "ToolbarItem",
        "String", "Int", "Double", "Float", "Bool", "CGFloat", "CGSize", "CGRect", "CGPoint", "Array", "Dictionary", "Set",
        "Optional", "Date", "URL", "Data", "UUID", "Error", "Task", "DispatchQueue", "NotificationCenter", "UserDefaults",
        "Bundle", "IndexPath", "NSLocalizedString", "NSLayoutConstraint", "NSAttributedString", "Result", "Void", "Any",
        "UIView", "UIViewController", "UILabel", "UIButton", "UIImage", "UIImageView", "UIColor", "UIFont", "UIStackView",
        "UITableView", "UITableViewCell", "UICollectionView", "UICollectionViewCell", "UIScreen", "UIApplication",
        "UIEdgeInsets", "UIAccessibility", "UIControl", "UIGestureRecognizer", "UITapGestureRecognizer", "UIScrollView",
        "NSView", "NSViewController", "NSColor", "NSFont", "NSImage", "NSButton", "NSTextField",
    ]

    /// Whether code of `group` runs only if the repository names it (see `typeRequiringUse`).
    static func requiresUse(_ group: some DeclGroupSyntax) -> Bool {
        if !group.attributes.isEmpty { return false }
        if group.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) { return false }
        let inherited = group.inheritanceClause?.inheritedTypes.map { $0.type.sourceText } ?? []
        return !inherited.contains(where: typesTheSystemFinds.contains)
    }

    /// `let SIDEBAR_WIDTH: CGFloat = 50.0`: a top-level value that builds nothing.
    static func isPlainConstant(_ item: CodeBlockItemSyntax.Item) -> Bool {
        guard let variable = item.as(VariableDeclSyntax.self) else { return false }
        return variable.bindings.allSatisfy { binding in
            binding.accessorBlock == nil && binding.initializer.map { !$0.value.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .leftParen } } ?? true
        }
    }

    /// `Name@declares` for each type the file declares or extends, and `@topLevel` when it has
    /// code outside any type: whether all its code belongs to types only the Mac app builds.
    func declarationFacts() -> Set<String> {
        var facts = Set<String>()
        for type in index.typeDeclarations {
            let name = Syntax(type).declaredTypeName
            if name != "this type" { facts.insert(name + FileResult.declaresMarker) }
        }
        if tree.statements.contains(where: { item in
            !(item.item.is(StructDeclSyntax.self) || item.item.is(ClassDeclSyntax.self) || item.item.is(EnumDeclSyntax.self)
              || item.item.is(ActorDeclSyntax.self) || item.item.is(ExtensionDeclSyntax.self) || item.item.is(ImportDeclSyntax.self)
              || item.item.is(ProtocolDeclSyntax.self) || item.item.is(IfConfigDeclSyntax.self)
              || Self.isPlainConstant(item.item)
              || item.item.as(MacroExpansionDeclSyntax.self)?.macroName.text == "Preview")
        }) {
            facts.insert(FileResult.topLevelMarker)
        }
        return facts
    }

    /// Whether `node` lies in a `private` or `fileprivate` member property that nothing in
    /// the file reads (a `private var replyButton` left behind), or such a method that nothing
    /// calls (a `private func premiumHeader()` builder no body uses): only this file could use
    /// it, so what it builds never shows.
    func isInUnreadPrivateProperty(_ node: some SyntaxProtocol) -> Bool {
        if let (function, name) = Self.enclosingMemberFunction(of: node),
           function.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) }),
           !function.modifiers.contains(where: { $0.name.text == "override" }),
           // Called by the Objective-C runtime (selectors, actions) without a reference in Swift.
           !function.attributes.contains(where: { attribute in
               guard let attribute = attribute.as(AttributeSyntax.self) else { return true }
               return ["objc", "IBAction", "IBSegueAction", "_dynamicReplacement"].contains(attribute.attributeName.sourceText)
           }),
           index.references[name] == nil {
            return true
        }
        guard let (variable, name) = Self.enclosingMemberProperty(of: node),
              variable.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) }) else { return false }
        return index.references[name] == nil
    }

    private static let frameworkReadAttributes: Set<String> = [
        "objc", "IBOutlet", "IBInspectable", "NSManaged", "IBAction", "GKInspectable",
    ]
}

extension SourceFile {
    /// The assignments to `properties` that can replace what an Interface Builder document set,
    /// as keys `DocumentFindingSink.report` builds from a view's outlets and class:
    /// - through the type's own property (`titleLabel.font = …` or `self.titleLabel?.font = …` in
    ///   `class SortBar` or its extension) → `SortBar:titleLabel.font`, which an outlet owned by
    ///   a `SortBar` matches; outlets whose owner the document does not name match `?:…`;
    /// - through another object (`cell.titleLabel.font = …`) → `*:titleLabel.font` and
    ///   `?:titleLabel.font`: the owner is not known, so any outlet of that name matches;
    /// - inside a class, to the object itself (`font = …` in `class BadgeLabel: UILabel`) →
    ///   `BadgeLabel#font`, which a view whose `customClass` is `BadgeLabel` matches.
    /// An `attributedText` counts only when the string carries a font (`[.font: …]` in the value,
    /// or in the initializer of the local it names): one without keeps the label's font.
    func overridingAssignments(_ properties: Set<String>) -> Set<String> {
        var keys = Set<String>()
        for assignment in index.assignments {
            guard let property = assignment.targetProperty ?? assignment.target.as(DeclReferenceExprSyntax.self)?.baseName.text,
                  properties.contains(property) else { continue }
            if property == "attributedText", !Self.carriesFont(assignment) { continue }
            let path = assignment.targetObject.split(separator: ".")
            if path.isEmpty {
                if let type = Self.classOrExtendedType(around: assignment.node) { keys.insert(type + "#" + property) }
            } else {
                keys.formUnion(Self.outletKeys(around: assignment.node, path: path, property: property))
            }
        }
        return keys
    }

    /// The keys of `property` set or done through the object at `path`: `Owner:outlet.property`
    /// and `?:outlet.property` through the enclosing type's own property, `*:` and `?:` through
    /// another object's. `button.titleLabel?.font`, `cell.textLabel?.font` are UIKit's own
    /// subviews of a button or cell, not an outlet that happens to share the name: none.
    static func outletKeys(around node: some SyntaxProtocol, path: [Substring], property: String) -> [String] {
        guard let outlet = path.last, !outlet.isEmpty else { return [] }
        if path.count == 1 {
            return (classOrExtendedType(around: node).map { [$0 + ":" + outlet + "." + property] } ?? []) + ["?:" + outlet + "." + property]
        }
        if builtInSubviews.contains(String(outlet)) { return [] }
        return ["*:" + outlet + "." + property, "?:" + outlet + "." + property]
    }

    /// The class, or the type an extension extends, that `node` lies in.
    static func classOrExtendedType(around node: some SyntaxProtocol) -> String? {
        Syntax(node).enclosingTypeDecl.flatMap { type in
            type.as(ClassDeclSyntax.self)?.name.text ?? type.as(ExtensionDeclSyntax.self)?.extendedType.sourceText
        }
    }

    /// Style helpers, for `FileResult.expandingStyleMethods`: `applyBodyStyle()=>font` for a
    /// method of a class or extension that assigns `font` to the object itself
    /// (`extension UILabel { func applyBodyStyle() { font = .body; … } }`), and
    /// `Owner:titleLabel.applyBodyStyle()` (with `?:`, or `*:` through another object, as for
    /// assignments) for each call of a method on an outlet.
    func styleMethodFacts(_ properties: Set<String>) -> Set<String> {
        var facts = Set<String>()
        for assignment in index.assignments {
            let property = assignment.targetProperty ?? assignment.target.as(DeclReferenceExprSyntax.self)?.baseName.text
            guard let property, properties.contains(property), assignment.targetObject.isEmpty,
                  let function = Syntax(assignment.node).enclosingFunction, Syntax(function).enclosingTypeDecl != nil else { continue }
            if property == "attributedText", !Self.carriesFont(assignment) { continue }
            facts.insert(function.name.text + "()" + FileResult.styleMethodMarker + property)
        }
        func record(_ node: some SyntaxProtocol, _ path: [Substring], _ property: String) {
            facts.formUnion(Self.outletKeys(around: node, path: path, property: property))
        }
        for call in index.calls {
            // `actionButtonStyle(getPlusButton)`, `applyStyle(to: titleLabel)`: a style function
            // handed the outlet.
            if let name = call.calleeName, Self.isRestyling(name) {
                for argument in call.arguments where argument.expression.is(DeclReferenceExprSyntax.self) || argument.expression.is(MemberAccessExprSyntax.self) {
                    record(call, Assignment.objectName(argument.expression).split(separator: "."), name + "()")
                }
            }
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { continue }
            let method = member.declName.baseName.text
            // `sortButton.setTitle(…, for: .normal)`: what the button shows, and so its size, is code's.
            if Self.contentSetters.contains(method) {
                record(call, Assignment.objectName(base).split(separator: "."), "title")
                continue
            }
            // Only style-like helpers, a background image and size constraints: every call of
            // every method would make these facts the bulk of each file's cache entry and of the
            // settling after the scan (and naming each call's object costs a walk of its base).
            let restyling = Self.isRestyling(method)
            guard restyling || method == "setBackgroundImage" || method == "constraint" else { continue }
            let path = Assignment.objectName(base).split(separator: ".")
            if restyling { record(call, path, method + "()") }
            // `saveButton.setBackgroundImage(…)`, `saveButton.heightAnchor.constraint(…)`: the
            // size the document shows may not ship. (`saveButton.applyPrimaryStyle()` counts when
            // that method sizes: `expandingStyleMethods`.)
            if method == "setBackgroundImage" { record(call, path, FileResult.restyledMarker) }
            if path.count >= 2, ["heightAnchor", "widthAnchor"].contains(path.last) { record(call, Array(path.dropLast()), FileResult.restyledMarker) }
            // `heightAnchor.constraint(…)` on itself, in a custom button class: the class sizes
            // every instance, whatever frame a document gives it.
            if path == ["heightAnchor"] || path == ["widthAnchor"] || path == ["self", "heightAnchor"] || path == ["self", "widthAnchor"],
               let type = Self.classOrExtendedType(around: call) {
                facts.insert(type + "#" + FileResult.restyledMarker)
            }
        }
        // `override var intrinsicContentSize` / `sizeThatFits`: the class picks its own size.
        for name in ["intrinsicContentSize", "sizeThatFits"] {
            for declaration in index.declarations[name] ?? [] {
                let modifiers = declaration.as(FunctionDeclSyntax.self)?.modifiers
                    ?? declaration.parent?.parent?.as(VariableDeclSyntax.self)?.modifiers
                guard modifiers?.contains(where: { $0.name.text == "override" }) == true,
                      let type = Self.classOrExtendedType(around: declaration) else { continue }
                facts.insert(type + "#" + FileResult.restyledMarker)
            }
        }
        // A view that loads a nib into itself (`loadFromXib()` in `init(coder:)`, a
        // `loadNibNamed(_:owner: self)`): the nib's constraints size it, not the frame a
        // document gives the placeholder.
        for (name, calls) in index.callsByName where Self.loadsNib(name) {
            for call in calls {
                let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.sourceText
                guard name != "instantiate" || call.argument("withOwner") != nil,
                      base == nil || base == "self" || name == "loadNibNamed" || name == "instantiate",
                      let type = Self.classOrExtendedType(around: call) else { continue }
                facts.insert(type + "#" + FileResult.restyledMarker)
                facts.insert(type + "#" + FileResult.loadsNibMarker)
            }
        }
        // Style functions and closures whose code sizes what they style (`let actionButtonStyle
        // = concat(base) { $0.heightAnchor.constraint(equalToConstant: 48).isActive = true }`).
        for (name, declarations) in index.declarations where Self.isRestyling(name) {
            if declarations.contains(where: Self.sizes) { facts.insert(name + "()" + FileResult.styleMethodMarker + FileResult.restyledMarker) }
        }
        for assignment in index.assignments where Self.restylingProperties.contains(assignment.targetProperty ?? "") {
            record(assignment.node, assignment.targetObject.split(separator: "."), FileResult.restyledMarker)
        }
        // An attributed string built elsewhere (`label.attributedText = model.formattedTitle`)
        // may carry a font or not: what the label shows is not settled here.
        for assignment in index.assignments where assignment.targetProperty == "attributedText" && Self.attributedFontUnknown(assignment) {
            record(assignment.node, assignment.targetObject.split(separator: "."), FileResult.restyledMarker)
        }
        return facts
    }

    /// An `attributedText` value whose font this file does not show: neither a `.font` in it
    /// (`carriesFont`), nor a plain string that keeps the label's font (`nil`,
    /// `NSAttributedString(string: title)`, or a local built so with no `.font` added in its
    /// function).
    static func attributedFontUnknown(_ assignment: Assignment) -> Bool {
        guard !carriesFont(assignment), assignment.value.count == 1, let value = assignment.value.first else { return false }
        if value.is(NilLiteralExprSyntax.self) || keepsFont(value) { return false }
        guard let name = value.as(DeclReferenceExprSyntax.self)?.baseName.text else { return true }
        // A local whose initializer keeps the label's font, unless its function adds one later.
        var current = Syntax(assignment.node).parent
        while let node = current {
            if let list = node.as(CodeBlockItemListSyntax.self) {
                for item in list {
                    guard let variable = item.item.as(VariableDeclSyntax.self),
                          let binding = variable.bindings.first(where: { $0.pattern.sourceText == name }) else { continue }
                    guard let initializer = binding.initializer?.value, keepsFont(initializer) else { return true }
                    return list.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier("font") } }
                }
            }
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(AccessorDeclSyntax.self)
                || node.is(ClosureExprSyntax.self) { return true }
            current = node.parent
        }
        return true
    }

    /// `NSAttributedString(string: title)`, `NSMutableAttributedString(string:attributes: [...])`,
    /// `AttributedString(title)`: text with no font of its own, which keeps the label's.
    private static func keepsFont(_ value: ExprSyntax) -> Bool {
        guard let call = value.as(FunctionCallExprSyntax.self),
              ["NSAttributedString", "NSMutableAttributedString", "AttributedString"].contains(call.calleeName ?? ""),
              call.trailingClosure == nil else { return false }
        // Attributes written out here name no font (`carriesFont` looked): they keep it too.
        guard let first = call.arguments.first, [nil, "string"].contains(first.label?.text) else { return false }
        return call.arguments.dropFirst().allSatisfy { $0.label?.text == "attributes" && $0.expression.is(DictionaryExprSyntax.self) }
    }

    /// `loadNibNamed`, `loadFromXib`, `loadViewFromNib`, `instantiate(withOwner:)`'s callers.
    static func loadsNib(_ name: String) -> Bool {
        guard name.hasPrefix("load") else { return name == "instantiate" }
        let lowered = name.lowercased()
        return lowered.contains("nib") || lowered.contains("xib")
    }

    static func isRestyling(_ method: String) -> Bool {
        method.hasPrefix("apply") || method.hasPrefix("style") || ASCII.contains(method, "Style")
    }

    /// Whether a declaration's code changes a view's size: a width or height constraint, insets,
    /// a configuration, a background image, a frame.
    static func sizes(_ declaration: Syntax) -> Bool {
        declaration.tokens(viewMode: .sourceAccurate).contains { token in
            guard case .identifier(let name) = token.tokenKind else { return false }
            return sizingNames.contains(name)
        }
    }

    static let sizingNames: Set<String> = [
        "heightAnchor", "widthAnchor", "contentEdgeInsets", "configuration", "setBackgroundImage", "frame", "bounds", "contentInsets",
    ]

    /// Assignments through an outlet that change a button's drawn size.
    /// UIKit's button methods that set what a button shows.
    static let contentSetters: Set<String> = ["setTitle", "setAttributedTitle", "setImage"]

    static let restylingProperties: Set<String> = ["configuration", "contentEdgeInsets", "frame", "bounds"]

    /// `EntryCell<:FieldCell` for `class EntryCell: FieldCell`: what FieldCell's code does
    /// through its outlets, the subclass inherits (`FileResult.inheritingAssignments`).
    func superclassFacts() -> Set<String> {
        var facts = Set<String>()
        for type in index.typeDeclarations {
            guard let decl = type.as(ClassDeclSyntax.self),
                  let superclass = decl.inheritanceClause?.inheritedTypes.first?.type.sourceText else { continue }
            facts.insert(decl.name.text + FileResult.inheritsMarker + superclass)
        }
        // `let IS_CATALYST = ProcessInfo.processInfo.isMacCatalystApp`: a flag that code shown
        // only on the Mac tests (see `catalystGate`).
        // The index knows where the name is written: only the bindings around those places are
        // flags (reading every binding's tokens costs a walk of each `body`).
        // A flag named for it (`static var isMacCatalystApp: Bool { … }`) is one whatever it reads.
        if index.declarations["isMacCatalystApp"] != nil { facts.insert("isMacCatalystApp" + FileResult.catalystFlagMarker) }
        if let places = index.references["isMacCatalystApp"] {
            for (name, declarations) in index.declarations where declarations.contains(where: { declaration in
                guard declaration.is(PatternBindingSyntax.self) else { return false }
                let range = declaration.position.utf8Offset..<declaration.endPosition.utf8Offset
                return places.contains(where: range.contains)
            }) {
                facts.insert(name + FileResult.catalystFlagMarker)
            }
        }
        // `required init?(coder:) { fatalError(…) }`: the class cannot come out of a storyboard
        // or nib, so a document that holds it is not what the app shows.
        for type in index.typeDeclarations {
            guard let decl = type.as(ClassDeclSyntax.self) else { continue }
            for member in decl.memberBlock.members {
                guard let initializer = member.decl.as(InitializerDeclSyntax.self),
                      initializer.signature.parameterClause.parameters.first?.firstName.text == "coder",
                      initializer.signature.parameterClause.parameters.count == 1,
                      let first = initializer.body?.statements.first?.item.as(FunctionCallExprSyntax.self),
                      ["fatalError", "preconditionFailure"].contains(first.calleeName ?? "") else { continue }
                facts.insert(decl.name.text + "#" + FileResult.unarchivableMarker)
            }
        }
        // `override func point(inside:with:)` / `hitTest(_:with:)`: the class decides which
        // touches reach it or its subviews, so its frame is not the area people can hit.
        for name in ["point", "hitTest"] {
            for declaration in index.declarations[name] ?? [] {
                guard let function = declaration.as(FunctionDeclSyntax.self),
                      function.modifiers.contains(where: { $0.name.text == "override" }),
                      name == "hitTest" || function.signature.parameterClause.parameters.first?.firstName.text == "inside",
                      let type = Self.classOrExtendedType(around: function) else { continue }
                facts.insert(type + "#" + FileResult.hitTestMarker)
            }
        }
        return facts
    }

    /// `Controller#rowSelects:connect` for each method of a class whose row selection
    /// (`tableView(_:didSelectRowAt:)`, `collectionView(_:didSelectItemAt:)`) calls it, or calls
    /// a method of the class that it calls too: a small button in a row that sends it does
    /// what tapping the row does. Methods are gathered over the class and its extensions in
    /// the file; a shared call to a framework method (`reloadData()`) is not the same action.
    func rowSelectionFacts() -> Set<String> {
        func callees(_ function: FunctionDeclSyntax) -> Set<String> {
            guard let body = function.body else { return [] }
            return Set(body.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                guard case .identifier(let text) = token.tokenKind, token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen else { return nil }
                return text
            })
        }
        var selections: [String: Set<String>] = [:]
        for (name, label) in [("tableView", "didSelectRowAt"), ("collectionView", "didSelectItemAt")] {
            for declaration in index.declarations[name] ?? [] {
                guard let function = declaration.as(FunctionDeclSyntax.self),
                      function.signature.parameterClause.parameters.map(\.firstName.text) == ["_", label],
                      let type = Self.classOrExtendedType(around: function) else { continue }
                selections[type, default: []].formUnion(callees(function))
            }
        }
        guard !selections.isEmpty else { return [] }
        var methods: [String: [String: Set<String>]] = [:]
        for declarations in index.declarations.values {
            for declaration in declarations {
                guard let function = declaration.as(FunctionDeclSyntax.self), function.parent?.is(MemberBlockItemSyntax.self) == true,
                      let type = Self.classOrExtendedType(around: function), selections[type] != nil,
                      !["tableView", "collectionView"].contains(function.name.text) else { continue }
                methods[type, default: [:]][function.name.text, default: []].formUnion(callees(function))
            }
        }
        var facts = Set<String>()
        for (type, selected) in selections {
            let own = methods[type] ?? [:]
            let helpers = selected.filter { own[$0] != nil }
            for (method, called) in own where helpers.contains(method) || !called.isDisjoint(with: helpers) {
                facts.insert(type + "#" + FileResult.rowSelectsMarker + method)
            }
        }
        return facts
    }

    /// Whether an attributed string assigned here sets a font: a `.font` key in the value, or
    /// in the initializer of a local the value names (`let text = NSAttributedString(…,
    /// attributes: [.font: …]); label.attributedText = text`).
    static func carriesFont(_ assignment: Assignment) -> Bool {
        func mentionsFont(_ node: some SyntaxProtocol) -> Bool {
            node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier("font") }
        }
        if assignment.value.contains(where: mentionsFont) { return true }
        guard assignment.value.count == 1, let name = assignment.value.first?.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        // The statement lists around the assignment, out to its function, closure or accessor.
        var current = Syntax(assignment.node).parent
        while let node = current {
            if let list = node.as(CodeBlockItemListSyntax.self) {
                let declared = list.contains { item in
                    guard let variable = item.item.as(VariableDeclSyntax.self) else { return false }
                    return variable.bindings.contains { binding in
                        binding.pattern.sourceText == name && binding.initializer.map(mentionsFont) == true
                    }
                }
                if declared { return true }
            }
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(AccessorDeclSyntax.self)
                || node.is(ClosureExprSyntax.self) { return false }
            current = node.parent
        }
        return false
    }

    private static let builtInSubviews: Set<String> = [
        "titleLabel", "subtitleLabel", "imageView", "textLabel", "detailTextLabel", "contentView",
    ]
}

extension SourceFile {
    /// The file's references, less those only a preview makes (`#Preview { DeleteIndicator() }`,
    /// a `PreviewProvider`): a view only its preview constructs never shows in the app.
    var referencesOutsidePreviews: [String: [Int]] {
        let previews = previewRanges
        guard !previews.isEmpty else { return index.references }
        return index.references.filter { _, offsets in
            offsets.contains { offset in !previews.contains { $0.contains(offset) } }
        }
    }

    /// The type `node` lies in, when whether its code ever runs depends on something in the
    /// repository constructing or naming it: the innermost struct, class, enum or actor, as a
    /// `requiredUse` entry `T:Name` (held only in a repository with an app entry point; see
    /// `FileResult.findingsInUse`). Not a `public` or `open` type (other repositories use it),
    /// not a type the system finds by itself (`@main`, `@objc` names, app, scene and extension
    /// delegates, widgets), and not code in an extension (the extended type may live anywhere).
    func typeRequiringUse(around node: some SyntaxProtocol) -> String? {
        guard var type = Syntax(node).enclosingTypeDecl, type.kind != .extensionDecl else { return nil }
        // A nested type runs when its top-level type does (uses are counted per top-level
        // type, and a nested `HeaderView` is not the top-level `HeaderView` of another file).
        while let outer = type.enclosingTypeDecl, outer.kind != .extensionDecl { type = outer }
        guard let group = type.asProtocol(DeclGroupSyntax.self) else { return nil }
        guard Self.requiresUse(group) else { return nil }
        return FileResult.typeRequirementPrefix + type.declaredTypeName
    }

    /// `@main`, `@UIApplicationMain`, `@NSApplicationMain` or a `UIApplicationMain(…)` call:
    /// the repository holds an app, so a type nothing in it names is never shown.
    var declaresEntryPoint: Bool {
        for type in index.typeDeclarations {
            guard let group = type.asProtocol(DeclGroupSyntax.self) else { continue }
            if group.attributes.contains(where: { attribute in
                ["main", "UIApplicationMain", "NSApplicationMain"].contains(
                    attribute.as(AttributeSyntax.self)?.attributeName.sourceText ?? "")
            }) { return true }
        }
        return !index.calls(named: ["UIApplicationMain", "NSApplicationMain"]).isEmpty
    }

    private static let typesTheSystemFinds: Set<String> = [
        "App", "Widget", "WidgetBundle", "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate",
        "NSApplicationDelegate", "WKApplicationDelegate", "WKExtensionDelegate", "NSExtensionRequestHandling",
        "UNNotificationContentExtension", "UIApplicationMain", "PreviewProvider", "AppIntent", "ControlWidget",
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider",
        // Extension principal classes, named only in Info.plist (NSExtensionPrincipalClass).
        "UIInputViewController", "SLComposeServiceViewController",
        "FPUIActionExtensionViewController", "QLPreviewingController", "INExtension", "WKHostingController",
        "CPTemplateApplicationSceneDelegate", "NSItemProviderReading",
    ]
}

extension SourceFile {
    /// `readButton@target` for each object code gives an action: `readButton.addTarget(…)`,
    /// `.addAction(…)`, `.addGestureRecognizer(…)`, a `menu` assigned, or RxSwift's
    /// `readButton.rx.tap`. An Interface Builder button wired only through an outlet is
    /// operated if some file does one of these through that outlet's name.
    func targetsGivenInCode() -> Set<String> {
        var names = Set<String>()
        for call in index.calls(named: ["addTarget", "addAction", "addGestureRecognizer"]) {
            guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { continue }
            if let last = Assignment.objectName(base).split(separator: ".").last { names.insert(last + "@target") }
        }
        for assignment in index.assignments where assignment.targetProperty == "menu" || assignment.targetProperty == "primaryAction" {
            if let last = assignment.targetObject.split(separator: ".").last { names.insert(last + "@target") }
        }
        if index.topLevelImports.contains("RxCocoa") || index.topLevelImports.contains("RxSwift") { names.formUnion(rxTapSubjects) }
        return names
    }

    /// `button.rx.tap` → `button@target`: read only in files that import RxSwift or RxCocoa.
    private var rxTapSubjects: Set<String> {
        var names = Set<String>()
        for call in index.calls {
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { continue }
            let text = Assignment.objectName(base)
            guard let range = text.range(of: ".rx.") ?? (text.hasSuffix(".rx") ? text.range(of: ".rx") : nil) else { continue }
            if let last = text[..<range.lowerBound].split(separator: ".").last { names.insert(last + "@target") }
        }
        return names
    }
}

