import SwiftSyntax

/// UIKit and AppKit pairs: `x.textColor = C` (or `x.setTitleColor(C, for:)`, `x.tintColor = C`)
/// against `x.backgroundColor`, else the background of the view it most likely sits in
/// (`contentView`, `self`, `view`) in the same type. Layer colours (`x.layer.backgroundColor`)
/// are a different object and are not read.
struct PlatformColorPairs {
    let reader: ColorReader
    /// Object → the view it is first added to (`header.addSubview(label)`), "" when that is the
    /// screen's own view; found once per file rather than once per label.
    private let superviews: [String: String]

    init(reader: ColorReader) {
        self.reader = reader
        var superviews: [String: String] = [:]
        for call in reader.index.calls(named: ["addSubview", "addArrangedSubview"]) {
            guard let argument = call.firstUnlabeledArgument,
                  let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { continue }
            let object = Assignment.objectName(argument)
            guard superviews[object] == nil else { continue }
            let container = Assignment.objectName(base)
            superviews[object] = ["", "view", "contentView"].contains(container) ? "" : container
        }
        self.superviews = superviews
    }

    /// One colour or font property set on one object.
    private struct Setting {
        let object: String
        let property: String
        let value: [ExprSyntax]
        let node: Syntax
        /// The function or property initializer it is in: "nearest" prefers the same one.
        let owner: SyntaxIdentifier?
        let offset: Int
        /// The type it is in; `nil` at file scope.
        let type: Syntax?
    }

    /// Properties every view or controller has: set in one method, read in another.
    private static let inheritedProperties: Set<String> = [
        "", "self", "view", "contentView", "textLabel", "detailTextLabel", "imageView", "titleLabel", "backgroundView",
    ]

    private static let properties: Set<String> = ["textColor", "tintColor", "backgroundColor", "font", "attributedText"]
    /// Views whose text is the system label colour until told otherwise, by initializer.
    private static let labelInitializers: [String: ColorExpression] = [
        "UILabel": .system("label"), "UITextField": .system("label"),
    ]

    func pairs() -> [ColorPair] {
        var scopes: [SyntaxIdentifier?: [Setting]] = [:]
        for assignment in reader.index.assignments {
            guard let property = assignment.targetProperty, Self.properties.contains(property) else { continue }
            let node = Syntax(assignment.node)
            let type = node.enclosingTypeDecl
            scopes[type?.id, default: []].append(Setting(
                object: assignment.targetObject, property: property, value: assignment.value, node: node,
                owner: node.enclosingCodeBlockOwner?.id, offset: node.position.utf8Offset, type: type))
        }
        for call in reader.index.calls(named: "setTitleColor") {
            // A disabled control's text is exempt from the contrast requirement (WCAG 1.4.3).
            guard let color = call.firstUnlabeledArgument, call.argument("for")?.memberName != "disabled" else { continue }
            let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
            let node = Syntax(call)
            let type = node.enclosingTypeDecl
            scopes[type?.id, default: []].append(Setting(
                object: base.map(Assignment.objectName) ?? "", property: "titleColor", value: [color], node: node,
                owner: node.enclosingCodeBlockOwner?.id, offset: node.position.utf8Offset, type: type))
        }
        var result: [ColorPair] = []
        for settings in scopes.values {
            for setting in settings where ["textColor", "tintColor", "titleColor"].contains(setting.property) {
                result += pairs(for: setting, in: settings)
            }
        }
        result += defaultLabelPairs(scopes)
        return result
    }

    private func pairs(for setting: Setting, in settings: [Setting]) -> [ColorPair] {
        guard let colors = reader.describe(elements: setting.value, .platform) else { return [] }
        let background = self.background(for: setting.object, near: setting, in: settings)
        guard let (backgroundColors, backgroundNode) = background else { return [] }
        // A button's tint colours its title; any other view's tint colours an indicator or a symbol.
        let isText = setting.property != "tintColor" || isButton(setting.object)
        let font = isText ? self.font(for: setting.object, near: setting, in: settings) : FontFacts()
        func pair(_ color: ColorExpression, _ backgroundColor: ColorExpression?) -> ColorPair {
            ColorPair(foreground: color, background: backgroundColor, isText: isText, textStyle: font.textStyle,
                      pointSize: font.pointSize, isBold: font.isBold ?? false, node: setting.node,
                      backgroundNode: backgroundNode, element: setting.node)
        }
        // `textColor = selected ? .white : .label` with `backgroundColor = selected ? pink : .clear`:
        // the same condition picks both, so white is on pink and the label colour on nothing.
        if let branchPairs = correlatedBranches(setting, backgroundNode, in: settings) {
            return branchPairs.filter { !$0.foreground.isClear }.map { pair($0.foreground, $0.background) }
        }
        return colors.filter { !$0.isClear }.flatMap { color in backgroundColors.map { pair(color, $0) } }
    }

    /// Foreground and background chosen by one ternary condition, paired branch by branch; nil
    /// where they are not (or a branch is not known).
    private func correlatedBranches(_ setting: Setting, _ backgroundNode: Syntax?,
                                    in settings: [Setting]) -> [(foreground: ColorExpression, background: ColorExpression)]? {
        guard let backgroundNode, let chosen = settings.first(where: { $0.node.id == backgroundNode.id }),
              let foreground = TernaryParts(elements: setting.value), let background = TernaryParts(elements: chosen.value),
              foreground.conditions.count == 1, background.conditions.count == 1,
              foreground.conditionText == background.conditionText else { return nil }
        var result: [(foreground: ColorExpression, background: ColorExpression)] = []
        for (fore, back) in zip(foreground.branches, background.branches) {
            guard let fores = reader.describe(fore, .platform), let backs = reader.describe(back, .platform) else { return nil }
            for f in fores { for b in backs { result.append((f, b)) } }
        }
        return result
    }

    /// `let label = UILabel()` with no `textColor`, on a background set in the same type: the
    /// system label colour against that background.
    private func defaultLabelPairs(_ scopes: [SyntaxIdentifier?: [Setting]]) -> [ColorPair] {
        var result: [ColorPair] = []
        // Label types are few; most bindings of a file are not views at all.
        guard Self.labelInitializers.keys.contains(where: { reader.index.callsByName[$0] != nil })
            || reader.index.callsByName["NSTextField"] != nil else { return [] }
        for (name, values) in reader.index.bindings {
            for value in values {
                guard let call = value.as(FunctionCallExprSyntax.self), let viewType = call.initializedTypeName,
                      let foreground = Self.labelInitializers[viewType] ?? Self.appKitLabel(call, viewType) else { continue }
                let type = Syntax(call).enclosingTypeDecl
                let settings = scopes[type?.id] ?? []
                // Coloured explicitly (paired above) or by attributes the source does not spell out here.
                if settings.contains(where: { $0.object == name && ["textColor", "attributedText"].contains($0.property) }) {
                    continue
                }
                // A stored property belongs to no function; a local label to the function declaring it.
                let owner = call.ancestor(PatternBindingSyntax.self)?.enclosingCodeBlockOwner?.id
                let anchor = Setting(object: name, property: "textColor", value: [], node: Syntax(call),
                                     owner: owner, offset: call.position.utf8Offset, type: type)
                guard let (backgrounds, backgroundNode) = background(for: name, near: anchor, in: settings),
                      backgroundNode != nil else { continue }
                let font = self.font(for: name, near: anchor, in: settings)
                for backgroundColor in backgrounds {
                    result.append(ColorPair(
                        foreground: foreground, background: backgroundColor, isText: true, textStyle: font.textStyle,
                        pointSize: font.pointSize, isBold: font.isBold ?? false, node: Syntax(call),
                        backgroundNode: backgroundNode, element: Syntax(call)))
                }
            }
        }
        return result
    }

    /// `NSTextField(labelWithString:)` draws no background of its own; an editable field does.
    private static func appKitLabel(_ call: FunctionCallExprSyntax, _ type: String) -> ColorExpression? {
        guard type == "NSTextField", call.argument("labelWithString") != nil || call.argument("wrappingLabelWithString") != nil
        else { return nil }
        return .system("labelColor")
    }

    /// The object's own background, else its container's (`cell.textLabel` → `cell.contentView`,
    /// `cell`), else `contentView`, `self` or `view` in the same type. `nil`: a background was
    /// found but cannot be described. A clear background shows the one behind it.
    private func background(for object: String, near setting: Setting,
                            in settings: [Setting]) -> ([ColorExpression?], Syntax?)? {
        // Bars, their items and appearance proxies draw their own backgrounds (or the bar tint),
        // never the screen's: nothing here says what is behind their text.
        let lowered = object.lowercased()
        let loweredBytes = Array(lowered.utf8)
        if Self.ownBackgroundMarkers.contains(where: { Self.bytes(loweredBytes, contain: $0) }) { return nil }
        var candidates = [object]
        if let dot = object.lastIndex(of: ".") {
            let container = String(object[..<dot])
            candidates += [container + ".contentView", container]
        }
        // A view added to another view (`header.addSubview(label)`) sits on that view, not on the
        // screen: only that container's background counts, and without one nothing is known.
        if let container = superview(of: object) {
            candidates.append(container)
            for candidate in candidates {
                let matches = settings.filter { $0.property == "backgroundColor" && $0.object == candidate }
                guard let chosen = nearest(matches, to: setting), let colors = reader.describe(elements: chosen.value, .platform),
                      !colors.allSatisfy(\.isClear) else { continue }
                return (colors, chosen.node)
            }
            return nil
        }
        for parent in ["contentView", "", "view"] where !candidates.contains(parent) { candidates.append(parent) }
        for candidate in candidates {
            let matches = settings.filter { $0.property == "backgroundColor" && $0.object == candidate }
            guard let chosen = nearest(matches, to: setting) else { continue }
            // `backgroundColor = nil` is UIKit's default: no background of its own.
            if chosen.value.count == 1, chosen.value.first?.is(NilLiteralExprSyntax.self) == true { continue }
            guard let colors = reader.describe(elements: chosen.value, .platform) else { return nil }
            if colors.allSatisfy(\.isClear) { continue }
            return (colors, chosen.node)
        }
        return ([nil], nil)
    }

    /// Parts of an object's name that mean a bar, a bar item or an appearance proxy.
    private static let ownBackgroundMarkers: [[UInt8]] = ["bar", "appearance(", "searchtextfield", "navigationitem"].map { Array($0.utf8) }

    private static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// `header.addSubview(label)` / `stack.addArrangedSubview(label)` → "header"; nil when the
    /// object is added to the screen's own view (or never added in this file).
    private func superview(of object: String) -> String? {
        guard !object.isEmpty, let container = superviews[object], !container.isEmpty else { return nil }
        return container
    }

    private func font(for object: String, near setting: Setting, in settings: [Setting]) -> FontFacts {
        // A button's title font is set on its `titleLabel`.
        let objects = object.isEmpty ? ["", "titleLabel"] : [object, object + ".titleLabel"]
        let matches = settings.filter { $0.property == "font" && objects.contains($0.object) }
        guard let chosen = nearest(matches, to: setting), chosen.value.count == 1, let value = chosen.value.first
        else { return FontFacts() }
        return reader.font(value) ?? FontFacts()
    }

    /// Same function first (the configuration that runs together), then the closest in the
    /// type, but only for an object every method sees: a `label` parameter of one method is
    /// not the `label` parameter of another.
    private func nearest(_ settings: [Setting], to setting: Setting) -> Setting? {
        let closest = { (pool: [Setting]) in pool.min { abs($0.offset - setting.offset) < abs($1.offset - setting.offset) } }
        let sameOwner = settings.filter { $0.owner == setting.owner }
        if !sameOwner.isEmpty { return closest(sameOwner) }
        let shared = settings.filter { isShared($0.object, in: setting.type) }
        return closest(shared)
    }

    /// `self`, `view`, `contentView`, or a stored property of the type.
    private func isShared(_ object: String, in type: Syntax?) -> Bool {
        guard let type else { return false }
        let root = object.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        if Self.inheritedProperties.contains(root) { return true }
        return reader.index.declarations(root, in: type).contains { declaration in
            declaration.is(PatternBindingSyntax.self) && declaration.enclosingCodeBlockOwner == nil
                && declaration.enclosingTypeDecl?.id == type.id
        }
    }

    private func isButton(_ object: String) -> Bool {
        let name = object.split(separator: ".").last.map(String.init) ?? object
        return reader.index.bindings[name]?.contains { value in
            guard let type = value.as(FunctionCallExprSyntax.self)?.initializedTypeName else { return false }
            return type == "UIButton" || type == "NSButton"
        } ?? false
    }
}
