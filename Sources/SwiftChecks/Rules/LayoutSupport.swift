import AuditModel
import InterfaceBuilder
import SwiftSyntax

/// Size thresholds of the layout rules, from Apple's tables (ReferenceData), per platform.
enum ControlSizeThreshold {
    /// The floor whose miss is a requirement-level finding: the 44x44 pt hit region (60x60 pt on
    /// visionOS) of HIG › Buttons; on macOS the 20x20 pt minimum of a drawn control (a 44 pt
    /// rule would flag every native Mac toolbar). tvOS is driven by focus, not touch: none.
    static func required(_ platform: Platform, _ reference: ReferenceData) -> Double? {
        switch platform {
        case .macOS: reference.minimumControlSize[.macOS]
        case .tvOS: nil
        default: reference.buttonHitRegion[platform]
        }
    }

    /// A system control drawn at Apple's own size (a 51x31 switch) is not a hit-region defect;
    /// only one squeezed below the platform's minimum control size is.
    static func squeezed(_ platform: Platform, _ reference: ReferenceData) -> Double? {
        platform == .tvOS ? nil : reference.minimumControlSize[platform]
    }

    /// macOS's 28x28 pt default control size: below it (and at or above the minimum) is a
    /// recommendation.
    static func macOSDefault(_ reference: ReferenceData) -> Double? { reference.defaultControlSize[.macOS] }

    static func misses(width: Double?, height: Double?, _ threshold: Double) -> Bool {
        (width.map { $0 < threshold } ?? false) || (height.map { $0 < threshold } ?? false)
    }

    /// "30x30 pt"; "16 pt high (its width set by the layout)" where one side is the layout's;
    /// a side only a minimum bounds is "at least 18".
    static func size(width: Double?, height: Double?, atLeast: (width: Bool, height: Bool) = (false, false)) -> String {
        guard atLeast.width || atLeast.height else {
            switch (width, height) {
            case (let width?, let height?): return "\(width.points)x\(height.points) pt"
            case (let width?, nil): return "an area \(width.points) pt wide (its height set by the layout)"
            case (nil, let height?): return "an area \(height.points) pt high (its width set by the layout)"
            case (nil, nil): return "a size the layout sets"
            }
        }
        func side(_ value: Double?, _ minimum: Bool, _ noun: String, _ adjective: String) -> String {
            guard let value else { return "flexible \(noun)" }
            return "\(minimum ? "at least " : "")\(value.points) pt \(adjective)"
        }
        return "\(side(width, atLeast.width, "width", "wide")) by \(side(height, atLeast.height, "height", "high"))"
    }

    /// A control at least twice the figure long and short of it by at most 4 pt (a 398x43
    /// row under a hairline separator, a full-width 40 pt button): whether anyone misses it
    /// depends on what surrounds it, which a person must judge.
    static func isNearMissOfWideControl(width: Double?, height: Double?, _ threshold: Double) -> Bool {
        guard let width, let height else { return false }
        let (long, short) = (max(width, height), min(width, height))
        return long >= 2 * threshold && short < threshold && short >= threshold - 4
    }

    /// Apple lets a visionOS control be drawn smaller than 60 pt when the empty space around it
    /// makes up the 60 pt target area (a 44 pt button with 8 pt around it): the document or code
    /// rarely says what surrounds it at run time.
    static let visionOSSpacingReason = "on visionOS a control may be drawn smaller when the space around it completes the 60 pt target area (8 pt around a 44 pt button; centres 60 pt apart): check the space around it"
    static let wideNearMissReason = "it is wide and only a few points short, so whether people miss it depends on the rows around it: check it on a device"

    /// "44x44 pt on iOS/iPadOS, 60x60 pt on visionOS".
    static func thresholds(_ entries: [(Platform, Double)]) -> String {
        var groups: [(Double, [Platform])] = []
        for (platform, value) in entries {
            if let index = groups.firstIndex(where: { $0.0 == value }) { groups[index].1.append(platform) } else { groups.append((value, [platform])) }
        }
        return groups.map { "\($0.0.points)x\($0.0.points) pt on \($0.1.map(\.displayName).joined(separator: ", "))" }
            .joined(separator: ", ")
    }
}

/// The size of a SwiftUI control's tappable area as the code fixes it: the innermost
/// `.frame(…)` of the control (or of its only label view), grown by the padding and frames
/// applied after it.
struct SwiftUIHitRegion {
    /// The `.frame(…)` call a finding points at.
    let frame: FunctionCallExprSyntax
    /// "`Button`", "view with `.onTapGesture`".
    let control: String
    let width: Double?
    let height: Double?
    /// A dimension only a `minWidth:`/`minHeight:` bounds: the control is at least that, and
    /// its content (or the parent) may make it larger.
    let atLeast: (width: Bool, height: Bool)
    /// A dimension `maxWidth: .infinity` gives all the room there is (a full-width row).
    let fillsWidth: Bool
    /// The control is drawn by a system button style that pads its label (`.bordered`,
    /// `.borderedProminent`, `.glass`, or a `.controlSize`), and the frame is on the label: the
    /// padding is part of what can be hit and no literal says how large it is.
    let systemPadded: Bool
    /// The app's own button style draws the label (its name): it may pad or frame it.
    let customStyle: String?
    /// In a toolbar or navigation bar item: the bar lays out the item and may widen where it
    /// can be tapped.
    var inBar = false
    /// The frame sizes the control's label content, not the control (`Menu { … } label: {
    /// Text(…).frame(…) }`): where the system draws the control (a macOS menu), it may not be
    /// the tappable area.
    let sizesLabelOnly: Bool
    /// A `Button` whose label the frame sizes, with no style set around it in this file: on
    /// macOS the default style is a bordered push button, whose bezel pads the label to the
    /// control's standard height.
    let defaultStyledButton: Bool

    static let controls: Set<String> = ["Button", "Toggle", "Link", "Menu", "NavigationLink"]

    /// Containers whose content the system draws as its own rows or buttons, at its own sizes:
    /// a frame on a `Button` there shapes the row's label, not what can be hit.
    static let systemDrawnContainers: Set<String> = ["contextMenu", "swipeActions", "confirmationDialog", "alert"]
    static let barContainers: Set<String> = ["toolbar", "ToolbarItem", "ToolbarItemGroup", "navigationBarItems"]

    /// A menu item, context-menu action, swipe action or alert button.
    static func isSystemDrawnItem(_ control: FunctionCallExprSyntax) -> Bool {
        control.enclosingViewCalls.contains { container in
            guard let name = container.calleeName else { return false }
            if name == "Menu" || name == "Picker" { return !AccessibilityLabels.isInLabel(control, of: container) }
            return systemDrawnContainers.contains(name)
        }
    }

    static func measure(_ file: SourceFile) -> [SwiftUIHitRegion] {
        var result: [SwiftUIHitRegion] = []
        for frame in file.index.calls(named: "frame") where frame.isMemberCallWithBase {
            let chain = ModifierChain(containing: ExprSyntax(frame))
            guard let position = chain.modifiers.firstIndex(where: { $0.calleeName == "frame" }),
                  chain.modifiers[position].id == frame.id else { continue }
            var size = Size()
            guard size.apply(chain.modifiers[position...]) else { continue }
            var control: String?
            var controlCall: FunctionCallExprSyntax?
            var sizesLabelOnly = false
            if let root = chain.root.as(FunctionCallExprSyntax.self), let name = root.calleeName,
               controls.contains(name), root.calledExpression.is(DeclReferenceExprSyntax.self) {
                control = "`\(name)`"
                controlCall = root
            } else if chain.has("onTapGesture") {
                control = "view with `.onTapGesture`"
            } else if let group = tapGroup(of: chain) {
                // The group is as large as this view, plus its own modifiers.
                guard size.apply(ModifierChain(containing: ExprSyntax(group)).modifiers[...]) else { continue }
                control = "view with `.onTapGesture`"
            } else if let owner = labelOwner(of: chain) {
                // The whole label is this view: the control is as large as it, plus its own modifiers.
                guard size.apply(ModifierChain(containing: ExprSyntax(owner)).modifiers[...]) else { continue }
                control = "`\(owner.calleeName ?? "Button")`"
                controlCall = owner
                sizesLabelOnly = true
            }
            guard let control, size.width != nil || size.height != nil else { continue }
            if let controlCall, isSystemDrawnItem(controlCall) { continue }
            // `.disabled(true)`: a placeholder nobody can press, whatever its size.
            if let controlCall, ModifierChain(containing: ExprSyntax(controlCall)).modifiers.contains(where: { modifier in
                modifier.calleeName == "disabled" && modifier.arguments.first?.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
            }) { continue }
            // Nothing anyone can see or reach: a programmatic `NavigationLink { EmptyView() }`
            // sized to nothing, made transparent or hidden (`isActive:` drives it).
            if size.width == 0 || size.height == 0 || chain.has("hidden") || chain.modifiers.contains(where: Self.isInvisible) { continue }
            let padding = sizesLabelOnly ? controlCall.map(labelPadding) ?? LabelPadding.none : LabelPadding.none
            var padded = false, style: String?, unstyled = false
            switch padding {
            case .system: padded = true
            case .customStyle(let name): style = name
            case .unstyled: unstyled = controlCall?.calleeName == "Button"
            case .none: break
            }
            result.append(SwiftUIHitRegion(frame: frame, control: control, width: size.width, height: size.height,
                                           atLeast: (size.widthAtLeast, size.heightAtLeast), fillsWidth: size.fillsWidth,
                                           systemPadded: padded, customStyle: style, sizesLabelOnly: sizesLabelOnly,
                                           defaultStyledButton: unstyled))
            if let controlCall, controlCall.enclosingViewCalls.contains(where: { barContainers.contains($0.calleeName ?? "") }) {
                result[result.count - 1].inBar = true
            }
        }
        return result
    }

    /// `.opacity(0)`, `.accessibilityHidden(true)`, `.accessibility(hidden: true)`.
    static func isInvisible(_ modifier: FunctionCallExprSyntax) -> Bool {
        switch modifier.calleeName {
        case "opacity": return modifier.arguments.first?.expression.numberValue == 0
        case "accessibilityHidden": return modifier.arguments.first?.expression.sourceText == "true"
        case "accessibility": return modifier.argument("hidden")?.sourceText == "true"
        default: return false
        }
    }

    /// Styles that draw a bezel around the label, padded by the system.
    static let paddedStyles: Set<String> = ["bordered", "borderedProminent", "glass", "glassProminent"]
    /// System styles that draw the label as it is.
    static let unpaddedStyles: Set<String> = ["plain", "borderless", "automatic", "PlainButtonStyle", "BorderlessButtonStyle",
                                               "DefaultButtonStyle"]

    /// `unstyled`: no `.buttonStyle` or `.controlSize` in the file's code around the control,
    /// so the platform's default style draws it (bordered on macOS, which pads the label).
    enum LabelPadding { case none, unstyled, system, customStyle(String) }

    /// What the nearest `.buttonStyle` on the control or a container around it does to the
    /// label: a system style that pads it (or a `.controlSize` sizing it), or the app's own
    /// style, whose `makeBody` may pad or frame it (`.buttonStyle(CircleButtonStyle())`).
    static func labelPadding(_ control: FunctionCallExprSyntax) -> LabelPadding {
        for call in [control] + control.enclosingViewCalls {
            let modifiers = ModifierChain(containing: ExprSyntax(call)).modifiers
            if modifiers.contains(where: { $0.calleeName == "controlSize" }) { return .system }
            if let style = modifiers.first(where: { $0.calleeName == "buttonStyle" }) {
                guard let argument = style.arguments.first?.expression else { return .none }
                let name = argument.memberName ?? argument.as(FunctionCallExprSyntax.self)?.calleeName
                    ?? argument.as(DeclReferenceExprSyntax.self)?.baseName.text ?? argument.sourceText
                if paddedStyles.contains(name) || name.hasPrefix("Bordered") || name.hasPrefix("Glass") { return .system }
                return unpaddedStyles.contains(name) ? .none : .customStyle(name)
            }
        }
        return .unstyled
    }

    /// The control whose label closure holds nothing but this chain.
    /// `Group { if unsaved { Image(…).frame(width: 18, height: 18) } else { … } }.onTapGesture { … }`:
    /// the group's tap makes the view, the only one of its branch, what can be hit.
    static func tapGroup(of chain: ModifierChain) -> FunctionCallExprSyntax? {
        var node = Syntax(chain.outermost)
        for _ in 0..<16 {
            guard let item = node.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
                  list.count == 1 else { return nil }
            if let closure = list.parent?.as(ClosureExprSyntax.self) {
                guard let group = closure.parent?.as(FunctionCallExprSyntax.self), group.trailingClosure?.id == closure.id,
                      group.calleeName == "Group", group.calledExpression.is(DeclReferenceExprSyntax.self), group.arguments.isEmpty,
                      ModifierChain(containing: ExprSyntax(group)).has("onTapGesture") else { return nil }
                return group
            }
            // A branch of an `if` (or `else if`) that is itself the only view of its block.
            guard let block = list.parent?.as(CodeBlockSyntax.self), var branch = block.parent?.as(IfExprSyntax.self) else { return nil }
            while let outer = branch.parent?.as(IfExprSyntax.self) { branch = outer }
            guard let statement = branch.parent?.as(ExpressionStmtSyntax.self) else { return nil }
            node = Syntax(statement)
        }
        return nil
    }

    static func labelOwner(of chain: ModifierChain) -> FunctionCallExprSyntax? {
        guard let item = chain.outermost.parent?.as(CodeBlockItemSyntax.self),
              let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
              let closure = list.parent?.as(ClosureExprSyntax.self),
              let owner = chain.outermost.enclosingViewCalls.first,
              let name = owner.calleeName, controls.contains(name),
              owner.calledExpression.is(DeclReferenceExprSyntax.self),
              AccessibilityLabels.isInLabel(closure, of: owner) else { return nil }
        return owner
    }

    struct Size {
        var width: Double?
        var height: Double?
        var widthAtLeast = false
        var heightAtLeast = false
        var fillsWidth = false
        var started = false

        /// Applies frames and padding in order; `false` when an amount is not a literal (a
        /// default `.padding()`, a `@ScaledMetric`): the size is then not known.
        mutating func apply(_ modifiers: ArraySlice<FunctionCallExprSyntax>) -> Bool {
            for call in modifiers {
                switch call.calleeName {
                case "frame":
                    let w = Self.dimension(call, "width", "minWidth", "maxWidth")
                    let h = Self.dimension(call, "height", "minHeight", "maxHeight")
                    if w.unbounded, call.argument("maxWidth") != nil { fillsWidth = true }
                    if !started {
                        width = w.value
                        height = h.value
                        widthAtLeast = w.atLeast
                        heightAtLeast = h.atLeast
                        started = true
                    } else {
                        // An outer frame only ever enlarges what can be tapped.
                        if let value = w.value { width = width.map { max($0, value) } }
                        if w.unbounded { width = nil }
                        if let value = h.value { height = height.map { max($0, value) } }
                        if h.unbounded { height = nil }
                    }
                case "padding" where started:
                    guard let added = Self.padding(call) else { return false }
                    width = width.map { $0 + added.horizontal }
                    height = height.map { $0 + added.vertical }
                default:
                    continue
                }
            }
            return true
        }

        /// What one `.padding(…)` adds to the width and the height; nil when its amount is not a
        /// literal (a default `.padding()`, a variable) or its edges are not named.
        static func padding(_ call: FunctionCallExprSyntax) -> (horizontal: Double, vertical: Double)? {
            guard call.arguments.count <= 2, let amount = call.arguments.last?.expression.numberValue else { return nil }
            switch call.arguments.count == 2 ? call.arguments.first?.expression.memberName : "all" {
            case "all": return (2 * amount, 2 * amount)
            case "horizontal": return (2 * amount, 0)
            case "vertical": return (0, 2 * amount)
            case "leading", "trailing": return (amount, 0)
            case "top", "bottom": return (0, amount)
            default: return nil
            }
        }

        /// A literal size; `maxX` (at most, whatever `minX` says); `minX` alone (at least:
        /// `atLeast`). `.infinity` or a value that is not a literal is unbounded.
        static func dimension(_ call: FunctionCallExprSyntax, _ exact: String, _ minimum: String, _ maximum: String)
            -> (value: Double?, unbounded: Bool, atLeast: Bool) {
            if let value = call.argument(exact) { return (value.numberValue, value.numberValue == nil, false) }
            if let value = call.argument(maximum) { return (value.numberValue, value.numberValue == nil, false) }
            if let value = call.argument(minimum) { return (value.numberValue, value.numberValue == nil, value.numberValue != nil) }
            return (nil, false, false)
        }
    }
}

/// The Interface Builder controls the hit-region rules measure, and the number each platform
/// holds them to.
enum InterfaceBuilderHitRegion {
    /// AppKit lays out titled controls (checkboxes, push buttons, pop-ups) at system sizes set
    /// by their control size; only image-only buttons are sized by the developer.
    static func isMeasured(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> Bool {
        guard view.isControl, !view.isHidden, view.width != nil || view.height != nil else { return false }
        return document.isAppKit ? view.isImageOnly : true
    }

    /// UISwitch draws itself at its own fixed size (51x31 pt) whatever the frame says: a
    /// smaller frame in the document is stale, not the switch people touch.
    static func isDrawnAtItsOwnSize(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> Bool {
        !document.isAppKit && view.kind == "switch"
    }

    /// A size constant on the control or on a view around it (a 38 pt stack) fixes its size
    /// wherever the document is placed; without one it follows its host.
    static func isSizedByConstraints(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> Bool {
        if view.fixedWidth != nil || view.fixedHeight != nil { return true }
        return document.superviews(of: view).dropLast().contains { document.views[$0].fixedWidth != nil || document.views[$0].fixedHeight != nil }
    }

    /// What makes a UIKit button something people operate: nil when nothing can (no action,
    /// segue or outlet: a status icon drawn as a button, or interaction turned off), `[]` when
    /// the document wires it, else the names code must use to give it a target through one
    /// of its outlets (`readButton@target`, recorded by `SourceFile.targetsGivenInCode`).
    /// Other controls and AppKit documents are operated as they are.
    static func targetRequirement(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> [String]? {
        guard !document.isAppKit, view.kind == "button", !view.hasAction, !view.hasGestureRecognizers else { return [] }
        if !view.isInteractionEnabled { return nil }
        let outlets = Set(view.outlets.map(\.property))
        guard outlets.count == 1, let outlet = outlets.first else { return outlets.isEmpty ? nil : [] }
        return [outlet + "@target"]
    }

    /// Buttons get the hit region; other UIKit controls have system-drawn sizes and are held
    /// to the minimum control size.
    static func required(_ view: InterfaceBuilderView, _ platform: Platform, _ reference: ReferenceData) -> Double? {
        if platform == .macOS || view.kind == "button" { return ControlSizeThreshold.required(platform, reference) }
        return ControlSizeThreshold.squeezed(platform, reference)
    }

    /// `Controller#rowSelects:method` for a control in a table or collection cell whose action
    /// goes to the scene's controller: if selecting the row does the same (see
    /// `SourceFile.rowSelectionFacts`), the whole row is the hit region. Both Swift spellings
    /// of a selector's method are tried (`buttonTapped:` and `buttonTappedWithSender:` for
    /// `buttonTapped(sender:)`).
    static func rowSelectionFacts(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> [String] {
        guard let controller = view.sceneClass, !view.actionSelectors.isEmpty,
              document.superviews(of: view).contains(where: { ["tableViewCell", "collectionViewCell"].contains(document.views[$0].kind) })
        else { return [] }
        return view.actionSelectors.flatMap { selector -> [String] in
            let base = String(selector.prefix { $0 != ":" })
            var names = [base]
            if let with = base.range(of: "With", options: .backwards), with.lowerBound != base.startIndex { names.append(String(base[..<with.lowerBound])) }
            return names.map { controller + "#" + FileResult.rowSelectsMarker + $0 }
        }
    }

    /// What around a control decides how much of the screen reaches it, beyond its frame.
    struct Surroundings {
        /// An enclosing view the document hides or draws transparent: the control shows only
        /// when code shows that view.
        var hiddenAncestor: InterfaceBuilderView?
        /// A larger control over or under it that sends the same action: a tap that misses the
        /// small one does the same thing (a circular connect button on a full-row connect button).
        var sameActionCover: InterfaceBuilderView?
        /// A larger control or tappable view over or under it that does something else, which
        /// code may route to the same place (a row button whose action calls `connect()`).
        var otherCover: InterfaceBuilderView?
        /// `Class#hitTest` for the control's class, its ancestors' and the views overlapping it:
        /// a `point(inside:with:)` or `hitTest(_:with:)` override there can widen what reaches it.
        var hitTestFacts: [String] = []
    }

    /// The surroundings of `views[index]`, with frames in its root view's space.
    static func surroundings(of index: Int, in document: InterfaceBuilderDocument, threshold: Double) -> Surroundings {
        let views = document.views
        var result = Surroundings()
        func fact(_ view: InterfaceBuilderView) {
            if let name = view.customClass { result.hitTestFacts.append(name + "#" + FileResult.hitTestMarker) }
        }
        fact(views[index])
        let chain = document.superviews(of: views[index])
        for ancestor in chain {
            if result.hiddenAncestor == nil, views[ancestor].isHidden || views[ancestor].isTransparent {
                result.hiddenAncestor = views[ancestor]
            }
            fact(views[ancestor])
        }
        let ancestors = Set(chain)
        guard let (root, rect) = placement(of: index, in: document) else { return result }
        let selectors = Set(views[index].actionSelectors)
        for (other, view) in views.enumerated() where other != index && !ancestors.contains(other) && !view.isHidden {
            let otherChain = document.superviews(of: view)
            // Not one of the control's own subviews (its image or title).
            guard !otherChain.contains(index), let (otherRoot, otherRect) = placement(of: other, in: document), otherRoot == root,
                  otherRect.x < rect.maxX, rect.x < otherRect.maxX, otherRect.y < rect.maxY, rect.y < otherRect.maxY else { continue }
            fact(view)
            // Covers the control and is big enough to hit.
            let tolerance = 0.5
            guard otherRect.x <= rect.x + tolerance, otherRect.y <= rect.y + tolerance,
                  otherRect.maxX >= rect.maxX - tolerance, otherRect.maxY >= rect.maxY - tolerance,
                  otherRect.width >= threshold, otherRect.height >= threshold else { continue }
            if view.isControl, !selectors.isEmpty, !selectors.isDisjoint(with: view.actionSelectors) {
                result.sameActionCover = result.sameActionCover ?? view
            } else if (view.isControl && view.hasAction) || view.hasGestureRecognizers {
                result.otherCover = result.otherCover ?? view
            }
        }
        return result
    }

    /// The root view a view lies in (the top of its superview chain) and its frame in that
    /// root's coordinates. Nil when some view on the way has no frame.
    private static func placement(of index: Int, in document: InterfaceBuilderDocument) -> (root: Int, rect: InterfaceBuilderRect)? {
        let views = document.views
        guard var rect = views[index].frame else { return nil }
        let chain = document.superviews(of: views[index])
        for parent in chain {
            guard let frame = views[parent].frame else { return nil }
            // A root's own origin is where the canvas shows it, not a position inside anything.
            if parent != chain.last {
                rect.x += frame.x
                rect.y += frame.y
            }
        }
        return (chain.last ?? index, rect)
    }

    static func name(_ view: InterfaceBuilderView) -> String {
        let text = view.accessibility.label ?? view.title ?? view.image
        return text.map { "\(view.kind) \"\($0)\"" } ?? view.kind
    }
}

/// Wraps the views of a rule example in the document Xcode writes around them.
enum InterfaceBuilderExample {
    static func iOS(_ subviews: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <objects>
                <view contentMode="scaleToFill" id="root-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="200"/>
                    <subviews>
        \(indent(subviews))
                    </subviews>
                </view>
            </objects>
        </document>
        """
    }

    /// An Apple TV storyboard (`targetRuntime="AppleTV"`).
    static func tvOS(_ subviews: String) -> String {
        iOS(subviews).replacingOccurrences(of: "targetRuntime=\"iOS.CocoaTouch\"", with: "targetRuntime=\"AppleTV\"")
            .replacingOccurrences(of: "CocoaTouch.Storyboard.XIB", with: "AppleTV.Storyboard")
    }

    static func macOS(_ subviews: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" useAutolayout="YES">
            <objects>
                <customView id="c22-O7-iKe">
                    <rect key="frame" x="0.0" y="0.0" width="480" height="200"/>
                    <subviews>
        \(indent(subviews))
                    </subviews>
                </customView>
            </objects>
        </document>
        """
    }

    /// Every line moved right by 16 spaces, byte by byte: the examples are built whenever the
    /// rule catalog is (on every scan, warm ones too), and a split by Characters cost a tenth
    /// of a warm re-scan's own work.
    private static func indent(_ text: String) -> String {
        let margin = [UInt8](repeating: UInt8(ascii: " "), count: 16)
        var out = margin
        out.reserveCapacity(text.utf8.count * 2)
        for byte in text.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: "\n") { out += margin }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Text styles of SwiftUI fonts, and their size at the largest accessibility size (iOS table).
enum SwiftUITextStyle {
    /// SwiftUI's names → the reference tables' (`Font.title` is Title 1, `.caption` Caption 1).
    static let styles: [String: String] = [
        "largeTitle": "largeTitle", "title": "title1", "title2": "title2", "title3": "title3",
        "headline": "headline", "subheadline": "subheadline", "body": "body", "callout": "callout",
        "footnote": "footnote", "caption": "caption1", "caption2": "caption2",
    ]

    /// The text style a font expression scales with: `.body`, `.system(.title)`,
    /// `.custom(_:size:relativeTo:)` (`.custom(_:size:)` scales with body). `nil` for a fixed
    /// size, which fixed-font-size reports.
    static func style(of font: ExprSyntax) -> (name: String, scale: Double)? {
        if let member = font.as(MemberAccessExprSyntax.self), let style = styles[member.declName.baseName.text] {
            return (style, 1)
        }
        guard let call = font.as(FunctionCallExprSyntax.self) else { return nil }
        if call.calleeName == "system", let first = call.firstUnlabeledArgument, let name = first.memberName,
           let style = styles[name] {
            return (style, 1)
        }
        if call.calleeName == "custom", let size = call.argument("size")?.numberValue {
            let relative = call.argument("relativeTo")?.memberName.flatMap { styles[$0] } ?? "body"
            return (relative, size)
        }
        // `.body.bold()`, `.title.weight(.semibold)`: the style of the base.
        if let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base { return style(of: base) }
        return nil
    }

    /// The font a chain sets (the outermost `.font(…)` wins in SwiftUI's environment, the
    /// innermost is the view's own); `.body` when the chain sets none.
    static func font(in chain: ModifierChain) -> ExprSyntax? {
        chain.modifiers(named: "font").first?.firstUnlabeledArgument
    }

    /// The point size of `font` at AX5, and how to name it in a message.
    static func largestSize(_ font: ExprSyntax?, _ reference: ReferenceData) -> (name: String, size: Double)? {
        guard let (style, scale) = font.map({ style(of: $0) }) ?? ("body", 1),
              let ax5 = reference.iosTextStyleSizes["AX5"]?[style] else { return nil }
        if scale == 1 { return (style, ax5) }
        guard let large = reference.iosTextStyleSizes["Large (default)"]?[style], large > 0 else { return nil }
        return ("custom \(scale.points) pt relative to \(style)", (scale * ax5 / large).rounded())
    }

    static let textViews: Set<String> = ["Text", "Label", "TextField", "SecureField"]
}

/// A SwiftUI control whose whole hit region is one SF Symbol drawn at a text size: a `Button`,
/// `NavigationLink` or `Link` whose label is nothing but `Image(systemName:)`, or such an image
/// with `.onTapGesture`, with no frame, padding or content shape anywhere on the chain. What can
/// be hit is the glyph's bounds, about as tall as the text size that draws it. Only iOS draws a
/// default-styled button as its bare label; the size at runtime is a person's to measure (a view
/// in another file may pad or frame the control), so these are findings to review.
struct GlyphSizedControl {
    let image: FunctionCallExprSyntax
    /// "`Button`", "A view with `.onTapGesture`".
    let control: String
    /// The SF Symbol's name, or the text a text-only label shows.
    let symbol: String
    /// The label is text (`Button { Text("Save").font(.system(size: 14)) }`), not a symbol: it
    /// can be hit on its line, as tall as its font, however wide it is.
    var isText = false
    /// The control whose whole label it is (nil for a tappable image): a text button's finding points at it.
    var owner: FunctionCallExprSyntax?
    /// The font that sizes the glyph as written (`.caption2`), and its size at the default text
    /// size; nil: none is set around it in this file, so the body style (17 pt) is inherited.
    let font: (text: String, points: Double, fixed: Bool)?
    /// `.imageScale(.large)`: the glyph is drawn larger than its font, by an amount Apple does not publish.
    let largeScale: Bool
    /// Literal padding around the glyph, summed per axis.
    let padding: (horizontal: Double, vertical: Double)

    /// A modifier of the app's own whose name says it may size or style the control
    /// (`.tappableFrame()`, `.roundedButtonStyle(height: 51)`): it is not read, so the size is not known.
    /// A modifier that may change what can be hit. A plain colour behind the view
    /// (`.background(Color.blue)`) takes the view's own size and changes nothing.
    static func mayResize(_ modifier: FunctionCallExprSyntax) -> Bool {
        let name = modifier.calleeName ?? ""
        if name == "background", modifier.trailingClosure == nil, modifier.arguments.count == 1,
           let colour = modifier.arguments.first, colour.label == nil, isPlainColour(colour.expression) {
            return false
        }
        return sizing.contains(name) || mayBeSizingHelper(modifier)
    }

    /// `.blue`, `Color.red`, `Color("Brand")`, `Color.init(id: "x")`, `Color.accentColor.opacity(0.2)`.
    private static func isPlainColour(_ expression: ExprSyntax) -> Bool {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return true }
            return ExprSyntax.dottedName(base) == "Color" || isPlainColour(base)
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil else { return false }
        if call.calleeName == "Color" || ExprSyntax.dottedName(call.calledExpression) == "Color.init" { return true }
        if call.calleeName == "opacity", let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base { return isPlainColour(base) }
        return false
    }

    static func mayBeSizingHelper(_ modifier: FunctionCallExprSyntax) -> Bool {
        guard let name = modifier.calleeName?.lowercased(), !sizing.contains(modifier.calleeName ?? "") else { return false }
        return ["frame", "tappable", "hitarea", "hittarget", "style", "padding", "size"].contains { ASCII.contains(name, $0) }
            // SwiftUI's own, whose effect the rule reads (`buttonStyle` through `labelPadding`) or that draw without sizing.
            && !["padding", "font", "foregroundstyle", "symbolrenderingmode", "textcase", "imagescale", "fontweight", "dynamictypesize", "buttonstyle",
                 "liststyle", "pickerstyle", "togglestyle", "textfieldstyle", "backgroundstyle", "labelstyle", "menustyle",
                 "indexviewstyle", "tabviewstyle", "navigationviewstyle", "gaugestyle", "progressviewstyle", "datepickerstyle"].contains(name)
    }

    /// The literal paddings of `modifiers`, per axis; nil when one has no literal amount (a
    /// default `.padding()`, a variable): the size is then not known.
    static func padding(_ modifiers: [FunctionCallExprSyntax]) -> (horizontal: Double, vertical: Double)? {
        var total = (horizontal: 0.0, vertical: 0.0)
        for call in modifiers where call.calleeName == "padding" {
            guard let added = SwiftUIHitRegion.Size.padding(call) else { return nil }
            total.horizontal += added.horizontal
            total.vertical += added.vertical
        }
        return total
    }

    /// Modifiers that change what can be hit, or say it is not a plain glyph: any one of them
    /// leaves the size to the frame-based measure, or to nobody.
    static let sizing: Set<String> = [
        "frame", "contentShape", "background", "overlay", "border", "clipShape", "scaleEffect", "fixedSize",
        "labelStyle", "controlSize", "hidden", "disabled", "opacity", "position", "offset", "safeAreaPadding",
        "resizable", "aspectRatio", "allowsHitTesting", "accessibilityHidden", "containerRelativeFrame", "layoutPriority",
        "buttonBorderShape", "glassEffect", "menuStyle", "simultaneousGesture", "highPriorityGesture", "gesture",
    ]
    /// Containers that lay out their items at sizes of their own (rows, bars, menus, tabs).
    static let sizedByContainer: Set<String> = [
        "List", "Form", "Section", "Menu", "Picker", "TabView", "tabItem", "ControlGroup", "toolbar", "ToolbarItem",
        "ToolbarItemGroup", "navigationBarItems", "contextMenu", "swipeActions", "confirmationDialog", "alert", "Table",
        "OutlineGroup", "DisclosureGroup", "commands", "MenuBarExtra", "safeAreaInset",
    ]
    /// The largest text size whose glyph cannot come near 44 pt without padding: half of it.
    static let largestFontPoints = 22.0

    static func find(_ file: SourceFile) -> [GlyphSizedControl] {
        var result: [GlyphSizedControl] = []
        for image in file.index.calls(named: ["Image", "Text"]) where image.calledExpression.is(DeclReferenceExprSyntax.self) {
            let isText = image.calleeName == "Text"
            let symbol: String
            if isText {
                guard let first = image.arguments.first, first.label == nil else { continue }
                symbol = first.expression.stringLiteralValue ?? first.expression.sourceText
            } else {
                guard image.arguments.count == 1, let argument = image.arguments.first, argument.label?.text == "systemName",
                      let name = argument.expression.as(StringLiteralExprSyntax.self).flatMap({ ExprSyntax($0).stringLiteralValue }) else { continue }
                symbol = name
            }
            let chain = ModifierChain(containing: ExprSyntax(image))
            guard chain.root.as(FunctionCallExprSyntax.self)?.id == image.id,
                  !chain.modifiers.contains(where: { Self.mayResize($0) }) else { continue }
            var control: String
            var controlCall: FunctionCallExprSyntax?
            var controlChain: [FunctionCallExprSyntax] = []
            var containers = image.enclosingViewCalls
            if chain.has("onTapGesture") {
                // A tappable text is tap-gesture-missing-trait's and its size the row's business,
                // unless it is drawn as a chip of its own (a background behind its line).
                if isText, !chain.has("background") { continue }
                control = "A view with `.onTapGesture`"
                // In a control's label the control decides what can be hit.
                if containers.contains(where: { SwiftUIHitRegion.controls.contains($0.calleeName ?? "") }) { continue }
            } else if let owner = SwiftUIHitRegion.labelOwner(of: chain), let name = owner.calleeName,
                      ["Button", "NavigationLink", "Link"].contains(name) {
                controlChain = ModifierChain(containing: ExprSyntax(owner)).modifiers
                guard !controlChain.contains(where: { Self.mayResize($0) }) else { continue }
                // A style set around it (plain or borderless draws the bare label too, but the
                // app's own style may pad it; a bordered one pads it by the system's amount).
                switch SwiftUIHitRegion.labelPadding(owner) {
                case .customStyle, .system: continue
                case .none, .unstyled: break
                }
                control = "`\(name)`"
                controlCall = owner
                containers = owner.enclosingViewCalls
            } else {
                continue
            }
            // Inside another control's label, that control is what can be hit.
            if containers.contains(where: { SwiftUIHitRegion.controls.contains($0.calleeName ?? "") }) { continue }
            if isPlacedByContainer(Syntax(image), file) { continue }
            // The nearest font wins: the image's, its control's, then its containers'.
            var font: (text: String, points: Double, fixed: Bool)?
            var fontKnown = true
            search: for modifiers in [chain.modifiers, controlChain] + containers.map({ ModifierChain(containing: ExprSyntax($0)).modifiers }) {
                for modifier in modifiers.reversed() where modifier.calleeName == "font" {
                    font = modifier.arguments.first.flatMap { Self.points(of: $0.expression, file) }
                    fontKnown = font != nil
                    break search
                }
            }
            guard fontKnown else { continue }
            // Text is judged only where the label itself sets a small font: a button titled in
            // the text size around it is the app's ordinary text button.
            if isText {
                let ownFont = (chain.modifiers + controlChain).contains { $0.calleeName == "font" }
                // Padding outside the control moves it; only padding inside its label enlarges what can be hit.
                // A text style of body size or larger is the app's ordinary text: a text link in it is too.
                guard ownFont, let font, let points = Optional(font.points), font.fixed ? points <= 17 : points < 17, let padding = Self.padding(chain.modifiers), Self.padding(controlChain) != nil,
                      points + padding.vertical <= largestFontPoints else { continue }
                result.append(GlyphSizedControl(image: image, control: control, symbol: symbol, isText: true, owner: controlCall, font: font,
                                                largeScale: false, padding: (horizontal: 0, vertical: padding.vertical)))
                continue
            }
            let largeScale = (chain.modifiers + controlChain).contains { $0.calleeName == "imageScale" && $0.arguments.first?.expression.memberName == "large" }
            // A default `.padding()` around the control is left alone: whether it widens what can
            // be hit depends on the style, and its amount is not published.
            guard let padding = Self.padding(chain.modifiers), Self.padding(controlChain) != nil else { continue }
            let points = font?.points ?? file.reference.iosTextStyleSizes["Large (default)"]?["body"] ?? 17
            // The short side: the glyph, about as tall and wide as its text size, plus the padding on that axis.
            let shortSide = points + min(padding.horizontal, padding.vertical)
            guard shortSide <= (largeScale ? largestFontPoints * 0.75 : largestFontPoints) else { continue }
            result.append(GlyphSizedControl(image: image, control: control, symbol: symbol, font: font, largeScale: largeScale,
                                            padding: padding))
        }
        return result
    }

    /// Whether a container that lays out its items at sizes of its own holds `node`: as a
    /// closure's content or as an argument (`.navigationBarItems(trailing: Button { … })`), or
    /// through the helper function or property whose result it is, where this file uses it
    /// (`.navigationBarItems(trailing: exportButton())`).
    static func isPlacedByContainer(_ node: Syntax, _ file: SourceFile, depth: Int = 0) -> Bool {
        var child = node
        var current = node.parent
        while let parent = current {
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != child.id,
               sizedByContainer.contains(call.calleeName ?? "") { return true }
            // A local `let` is part of the code around it; a member or a function ends the search.
            if parent.kind.isDeclaration && parent.kind != .ifConfigDecl && !(parent.kind == .variableDecl && parent.parent?.kind == .codeBlockItem) {
                break
            }
            child = parent
            current = parent.parent
        }
        guard depth < 2, let helper = file.helperUses(around: node) else { return false }
        return helper.uses.contains { isPlacedByContainer(Syntax($0), file, depth: depth + 1) }
    }

    /// A text style's default size (`.caption2`, `Font.caption2`, `.system(.caption2)`), or a
    /// literal `.system(size:)`; nil for anything else (a custom font, a variable).
    static func points(of font: ExprSyntax, _ file: SourceFile) -> (text: String, points: Double, fixed: Bool)? {
        let sizes = file.reference.iosTextStyleSizes["Large (default)"] ?? [:]
        let text = "`\(InputExcerpt.of(font.sourceText))`"
        if let call = font.as(FunctionCallExprSyntax.self), call.calleeName == "system", let size = call.argument("size")?.numberValue {
            return (text, size, true)
        }
        // SwiftUI's names (`.caption`, `.title`, `.caption.bold()`) through UIKit's, which key the table.
        guard let (style, scale) = SwiftUITextStyle.style(of: font), let size = sizes[style] else { return nil }
        return (text, scale == 1 ? size : scale, false)
    }
}

extension SourceFile {
    /// The member function or computed property (not `body`) whose code holds `node`, and the
    /// places this file names it: where a view a helper builds is shown, and so what labels,
    /// groups or sizes it, is decided at those places.
    func helperUses(around node: Syntax) -> (name: String, uses: [TokenSyntax])? {
        var current = node.parent
        while let parent = current {
            // A local `let` is part of the code around it; a member or a function ends the search.
            if parent.kind.isDeclaration && parent.kind != .ifConfigDecl && !(parent.kind == .variableDecl && parent.parent?.kind == .codeBlockItem) {
                break
            }
            current = parent.parent
        }
        guard let declaration = current else { return nil }
        let name: String?
        if let function = declaration.as(FunctionDeclSyntax.self) {
            name = function.name.text
        } else if let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1 {
            name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        } else {
            name = nil
        }
        guard let name, name != "body" else { return nil }
        let uses = (index.references[name] ?? []).compactMap { offset -> TokenSyntax? in
            guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)),
                  token.position.utf8Offset >= declaration.endPosition.utf8Offset || token.endPosition.utf8Offset <= declaration.position.utf8Offset
            else { return nil }
            return token
        }
        return (name, uses)
    }
}
