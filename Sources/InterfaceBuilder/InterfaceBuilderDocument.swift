import AuditModel

/// A storyboard or xib: its XML elements with their lines, the platform its runtime names, and
/// every view with what the accessibility rules ask about it. Pure: bytes in, model out.
public struct InterfaceBuilderDocument: Sendable {
    public let path: String
    public let tree: XMLTree
    /// `iOS.CocoaTouch`, `MacOSX.Cocoa`, `AppleTV`, `watchKit`.
    public let targetRuntime: String?
    /// Every element with a frame, in document order.
    public let views: [InterfaceBuilderView]
    /// The controllers some segue in the document can lead to.
    public let segueDestinations: Set<String>

    public static func isInterfaceBuilderPath(_ path: String) -> Bool {
        path.hasSuffix(".storyboard") || path.hasSuffix(".xib")
    }

    public init(bytes: [UInt8], path: String, limits: InterfaceBuilderLimits = InterfaceBuilderLimits()) throws(InterfaceBuilderError) {
        let tree = try XMLTree.parse(bytes, path: path, limits: limits)
        guard let root = tree.elements.first, root.name == "document" else {
            throw .notInterfaceBuilder(path: path, root: InputExcerpt.of(tree.elements.first?.name ?? ""))
        }
        self.path = path
        self.tree = tree
        targetRuntime = root["targetRuntime"]
        views = ViewCollector(tree).views
        let elements = tree.elements
        segueDestinations = Set(elements.lazy.filter { segue in
            guard segue.name == "segue" else { return false }
            // A segue drawn from the controller itself (not from a control, cell or bar item)
            // fires only from `performSegue(withIdentifier:)`: without an identifier, never.
            let kind = segue["kind"] ?? ""
            guard segue["identifier"] == nil, kind != "relationship", kind != "embed",
                  let source = segue.parent.flatMap({ elements[$0].parent }) else { return true }
            return !elements[source].name.hasSuffix("Controller")
        }.compactMap { $0["destination"] })
    }

    /// The platforms the document's runtime builds for: UIKit documents also run on visionOS
    /// (and Mac Catalyst, which reads iOS's numbers).
    public var runtimePlatforms: PlatformSet? {
        guard let runtime = targetRuntime?.lowercased() else { return nil }
        if runtime.hasPrefix("ios") { return PlatformSet([.iOS, .visionOS]) }
        if runtime.hasPrefix("macosx") || runtime.hasPrefix("macos") { return PlatformSet(.macOS) }
        if runtime.hasPrefix("appletv") || runtime.hasPrefix("tvos") { return PlatformSet(.tvOS) }
        if runtime.hasPrefix("watch") { return PlatformSet(.watchOS) }
        if runtime.hasPrefix("xros") || runtime.hasPrefix("visionos") { return PlatformSet(.visionOS) }
        return nil
    }

    /// The classes the document instantiates by name (`customClass` on views, controllers and
    /// the File's Owner): code that only a storyboard or xib constructs is still in use.
    public var customClasses: Set<String> { Set(tree.elements.compactMap { $0["customClass"] }) }

    /// The class a xib is loaded for: its File's Owner's `customClass`, else its first top-level
    /// object's (a cell or view nib). Nil for storyboards, which the app opens by name.
    public var xibOwnerClass: String? {
        guard path.hasSuffix(".xib") else { return nil }
        let elements = tree.elements
        guard let objects = elements.firstIndex(where: { element in
            element.name == "objects" && element.parent.map { elements[$0].name == "document" } == true
        }) else { return nil }
        let children = elements[objects].children
        // UIKit marks the File's Owner with a placeholder identifier; AppKit gives it id -2.
        if let owner = children.first(where: { child in
            elements[child]["placeholderIdentifier"] == "IBFilesOwner" || (isAppKit && elements[child]["id"] == "-2")
        }) {
            if let name = elements[owner]["customClass"] { return name }
        }
        // The first real object (ids -1, -2, -3 are the owner, first responder and application).
        guard let first = children.first(where: { child in
            elements[child].name != "placeholder" && !(elements[child]["id"] ?? "").hasPrefix("-")
        }) else { return nil }
        return elements[first]["customClass"]
    }

    public var isAppKit: Bool { targetRuntime?.lowercased().hasPrefix("macosx") == true }

    /// How the app can come to show the storyboard scene that holds `view`. A storyboard shows a
    /// scene as its entry point, through a segue (relationship segues included: a navigation
    /// root, a tab, a window's content), or when code asks for it by storyboard identifier; a
    /// scene with none of these is never shown, whatever its views hold.
    public func sceneEntry(of view: InterfaceBuilderView) -> SceneEntry {
        guard path.hasSuffix(".storyboard"), let controller = view.sceneController else { return .reachable }
        let record = tree.elements[controller]
        guard let id = record["id"] else { return .reachable }
        if tree.elements.first?["initialViewController"] == id || segueDestinations.contains(id) { return .reachable }
        guard let identifier = record["storyboardIdentifier"] else { return .unreachable }
        return .byIdentifier(identifier)
    }


    /// Storyboard identifiers this document opens in other storyboards (a storyboard reference
    /// with a `referencedIdentifier`).
    public var referencedSceneIdentifiers: Set<String> {
        Set(tree.elements.lazy.filter { $0.name == "viewControllerPlaceholder" }.compactMap { $0["referencedIdentifier"] })
    }

    /// The text of a line, for a finding's caret display.
    public func text(ofLine line: Int) -> String { tree.text.text(ofLine: line) }

    public func element(_ view: InterfaceBuilderView) -> XMLElementRecord { tree.elements[view.element] }

    /// Whether the view is never on screen: it or a view around it is hidden in the document,
    /// and nothing wires code to any view from it up to that one: no outlet or outlet
    /// collection, action, tag, custom class, binding or runtime attribute (a "Special thanks"
    /// stack left hidden). A hidden container whose button sends an action may be shown by it.
    /// A stack view wired to code just above the hidden one may show it too
    /// (`stack.arrangedSubviews[1].isHidden = false`); a wired view further up (every xib's root
    /// has its owner's `view` outlet) does not reach into its subviews that way.
    public func isNeverShown(_ view: InterfaceBuilderView) -> Bool {
        func isWired(_ step: InterfaceBuilderView) -> Bool {
            !step.outlets.isEmpty || step.hasAction || step.hasGestureRecognizers || step.attributes["tag"] != nil
                || step.customClass != nil || tree.elements[step.element].children.contains { child in
                    let name = tree.elements[child].name
                    if name == "userDefinedRuntimeAttributes" { return true }
                    return name == "connections" && tree.elements[child].children.contains { tree.elements[$0].name == "binding" }
                }
        }
        let chain = [view] + superviews(of: view).map { views[$0] }
        for (offset, step) in chain.enumerated() {
            if isWired(step) { return false }
            guard step.isHidden else { continue }
            if offset + 1 < chain.count, chain[offset + 1].kind == "stackView", isWired(chain[offset + 1]) { return false }
            return true
        }
        return false
    }

    /// Indices into `views` of the views enclosing `view`, nearest first, up to its root.
    public func superviews(of view: InterfaceBuilderView) -> [Int] {
        var chain: [Int] = []
        var current = view.superview
        // A superview comes before its subviews in document order, so the chain only climbs.
        while let index = current, chain.last.map({ index < $0 }) ?? true {
            chain.append(index)
            current = views[index].superview
        }
        return chain
    }
}

/// See `InterfaceBuilderDocument.sceneEntry(of:)`.
public enum SceneEntry: Sendable, Equatable {
    /// Not in a storyboard scene, or the storyboard's entry point, or a segue's destination.
    case reachable
    /// Shown only if code instantiates it by this storyboard identifier.
    case byIdentifier(String)
    /// Not the entry point, no segue leads to it, and it has no identifier code could ask for.
    case unreachable
}

public struct InterfaceBuilderRect: Sendable, Equatable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// `<fontDescription>` (UIKit) or `<font>` (AppKit).
public struct InterfaceBuilderFont: Sendable, Equatable {
    /// `system`, `boldSystem`, `italicSystem`, … for system fonts at a point size.
    public var type: String?
    /// `UICTFontTextStyleBody` and friends: a text style.
    public var style: String?
    public var pointSize: Double?
    /// A custom font's PostScript name.
    public var name: String?
    /// AppKit's `metaFont` (`system`, `smallSystem`, …).
    public var metaFont: String?

    public init(type: String?, style: String?, pointSize: Double?, name: String?, metaFont: String?) {
        self.type = type
        self.style = style
        self.pointSize = pointSize
        self.name = name
        self.metaFont = metaFont
    }

    /// The Dynamic Type style (`body`, `title1`, …) as the reference tables name it.
    public var textStyle: String? {
        guard let style, style.hasPrefix("UICTFontTextStyle") else { return nil }
        let name = String(style.dropFirst("UICTFontTextStyle".count))
        let mapped: [String: String] = [
            "Title0": "largeTitle", "Title1": "title1", "Title2": "title2", "Title3": "title3",
            "Headline": "headline", "Body": "body", "Callout": "callout", "Subhead": "subheadline",
            "Footnote": "footnote", "Caption1": "caption1", "Caption2": "caption2",
        ]
        return mapped[name] ?? (name.prefix(1).lowercased() + name.dropFirst())
    }

    /// A point size with no text style: it does not scale with Dynamic Type.
    public var isFixedSize: Bool { style == nil && pointSize != nil }
}

/// `<accessibility key="accessibilityConfiguration" label="…">` (UIKit) or
/// `<accessibility description="…"/>` (AppKit).
public struct InterfaceBuilderAccessibility: Sendable, Equatable {
    public var label: String?
    public var hint: String?
    public var identifier: String?
    /// `<bool key="isElement" value="…"/>`, or an `isAccessibilityElement` attribute.
    public var isElement: Bool?
    /// Traits set to YES (`button`, `image`, `notEnabled`, …).
    public var traits: Set<String> = []
    /// Line of the `<accessibility>` element, when there is one.
    public var line: Int?
}

/// An outlet connected to a view: the owner's property, and the owner's class (`customClass`
/// of the File's Owner, view controller or view holding the connection) when it is named.
public struct InterfaceBuilderOutlet: Sendable, Hashable {
    public let property: String
    public let ownerClass: String?
}

/// A view, control or image in the document, with the facts the layout rules read.
public struct InterfaceBuilderView: Sendable {
    /// Index into `tree.elements`.
    public let element: Int
    /// The element name: `button`, `label`, `imageView`, `switch`, `popUpButton`, …
    public let kind: String
    /// Interface Builder's object id (`abc-12-xyz`), stable across edits.
    public let id: String
    public let line: Int
    public let column: Int
    /// Index into `views` of the enclosing view.
    public let superview: Int?
    public let frame: InterfaceBuilderRect?
    /// Constant size constraints on the view itself (`relation` equal).
    public let fixedWidth: Double?
    public let fixedHeight: Double?
    public let font: InterfaceBuilderFont?
    public let accessibility: InterfaceBuilderAccessibility
    /// Visible text: a label's text, a button's title, an AppKit cell's title.
    public let title: String?
    public let image: String?
    /// An SF Symbol (`catalog="system"`) or an AppKit system image (`NSAddTemplate`): these
    /// come with a label of their own.
    public let imageIsSystem: Bool
    /// The element's attributes, and its AppKit cell's (`buttonCell`, `textFieldCell`, …).
    public let attributes: [String: String]
    public let cellAttributes: [String: String]
    /// Whether the element carries `<connections>` with an action or segue, or the cell has an action.
    public let hasAction: Bool
    /// The selectors of its actions (`<action selector="connect:">`, an AppKit cell's `action`):
    /// two controls that send the same one do the same thing.
    public var actionSelectors: [String] = []
    /// Gesture recognizers attached in the document (`outletCollection property="gestureRecognizers"`).
    public let hasGestureRecognizers: Bool
    /// The owner properties connected to this view (`<outlet property="titleLabel" destination=…>`),
    /// with the owner's class where the document names it: code can restyle the view through them.
    public let outlets: [InterfaceBuilderOutlet]
    /// For the custom view of a navigation bar item: the item's place (`leftBarButtonItem`,
    /// `rightBarButtonItems`), which code can fill with another item.
    public var barButtonItemKey: String? = nil
    /// The view of an AppKit toolbar item (`<toolbarItem><button key="view">`): the toolbar
    /// lays it out and sizes it, and with labels shown the label is part of what can be clicked.
    public var isToolbarItemView = false
    /// The custom class of the view controller whose scene holds the view.
    public var sceneClass: String? = nil
    /// Index into the document's elements of that view controller.
    public var sceneController: Int? = nil
    /// The document's frame disagrees with the view's own size constraints (an aspect ratio
    /// its frame does not have, a width or height equal to another view's that differs): Auto
    /// Layout gives it another size than the one drawn, and Xcode left the frame stale.
    public var frameContradictsConstraints = false
    /// The class that replaces the standard one at runtime (`customClass="BadgeLabel"`).
    public var customClass: String? { attributes["customClass"] }

    public var width: Double? { fixedWidth ?? frame?.width }
    public var height: Double? { fixedHeight ?? frame?.height }
    public var isHidden: Bool { attributes["hidden"] == "YES" }
    /// Drawn fully transparent (`alpha="0.0"`): shown only when code fades it in.
    public var isTransparent: Bool { attributes["alpha"].flatMap(Double.init) == 0 }
    public var isEnabled: Bool { attributes["enabled"] != "NO" && cellAttributes["enabled"] != "NO" }
    public var isInteractionEnabled: Bool { attributes["userInteractionEnabled"] != "NO" }
    /// UILabel's `numberOfLines`, 1 when Xcode leaves the default out.
    public var numberOfLines: Int { Int(attributes["numberOfLines"] ?? "1") ?? 1 }
    public var adjustsFontForContentSizeCategory: Bool { attributes["adjustsFontForContentSizeCategory"] == "YES" }
    public var shrinksToFit: Bool { attributes["adjustsFontSizeToFit"] == "YES" || cellAttributes["adjustsFontSizeToFit"] == "YES" }

    /// Controls people operate: the rules about size, spacing and reachability apply to them.
    public static let controlKinds: Set<String> = [
        "button", "switch", "segmentedControl", "slider", "stepper", "popUpButton", "comboBox", "colorWell",
    ]
    public var isControl: Bool { Self.controlKinds.contains(kind) }

    /// A button that shows an image and no title.
    public var isImageOnly: Bool {
        guard kind == "button", image != nil else { return false }
        if cellAttributes["imagePosition"] == "only" { return true }
        return (title ?? "").allSatisfy(\.isWhitespace)
    }

    /// Drawn with a bezel or background (UIKit configurations other than plain, AppKit push
    /// and bevel styles), where about 12 pt of padding is enough; plain icons need about 24.
    public var hasBezel: Bool {
        switch kind {
        case "switch", "segmentedControl", "stepper", "popUpButton", "comboBox", "slider", "colorWell": return true
        case "button":
            if let style = attributes["configurationStyle"] { return style != "plain" }
            if cellAttributes["bordered"] == "NO" { return false }
            if cellAttributes["type"] == "push" { return true }
            return ["rounded", "texturedRounded", "roundRect", "push"].contains(cellAttributes["bezelStyle"] ?? "")
                || attributes["buttonType"] == "roundedRect"
        default: return false
        }
    }
}

/// One pass over the elements: views are the elements with a `<rect key="frame">` child.
private struct ViewCollector {
    var views: [InterfaceBuilderView] = []

    init(_ tree: XMLTree) {
        let elements = tree.elements
        // Constant width/height constraints, by the id of the view they size.
        var widths: [String: Double] = [:], heights: [String: Double] = [:]
        var elementsByID: [String: Int] = [:]
        for (index, element) in elements.enumerated() { if let id = element["id"] { elementsByID[id] = index } }
        var systemImages: Set<String> = []
        var outlets: [String: [InterfaceBuilderOutlet]] = [:]
        // Width and height constraints that relate a view to itself (an aspect ratio) or to
        // another view, checked against the frames once every view is known.
        var relations: [(first: String, firstAttribute: String, second: String, secondAttribute: String, multiplier: Double, constant: Double)] = []
        for element in elements {
            if element.name == "constraint", let second = element["secondItem"],
               let firstAttribute = element["firstAttribute"], let secondAttribute = element["secondAttribute"],
               ["width", "height"].contains(firstAttribute), ["width", "height"].contains(secondAttribute),
               element["relation"] == nil || element["relation"] == "equal",
               let first = element.firstItemOrOwner(in: elements),
               let multiplier = Self.multiplier(element["multiplier"]) {
                relations.append((first, firstAttribute, second, secondAttribute, multiplier, element["constant"].flatMap(Double.init) ?? 0))
            }
            if element.name == "image", element["catalog"] == "system", let name = element["name"] { systemImages.insert(name) }
            if element.name == "outlet" || element.name == "outletCollection", let property = element["property"],
               let destination = element["destination"] {
                let owner = element.parent.flatMap { elements[$0].parent }.flatMap { elements[$0]["customClass"] }
                outlets[destination, default: []].append(InterfaceBuilderOutlet(property: property, ownerClass: owner))
            }
            guard element.name == "constraint", element["secondItem"] == nil,
                  element["relation"] == nil || element["relation"] == "equal",
                  let constant = element["constant"].flatMap(Double.init) else { continue }
            // `<view><constraints><constraint firstAttribute="width" …/>`: the owner is two up.
            let owner = element.firstItemOrOwner(in: elements)
            guard let owner else { continue }
            // Below the view's compression resistance (750 unless set) a size constraint gives
            // way to the content: a 500-priority height holds a label only until its text needs more.
            if let priority = element["priority"].flatMap(Double.init), priority < 1000 {
                let axis = element["firstAttribute"] == "width" ? "horizontal" : "vertical"
                let resistance = elementsByID[owner].flatMap { elements[$0]["\(axis)CompressionResistancePriority"] }.flatMap(Double.init) ?? 750
                if priority < resistance { continue }
            }
            switch element["firstAttribute"] {
            case "width": widths[owner] = constant
            case "height": heights[owner] = constant
            default: break
            }
        }
        var viewIndexByElement: [Int: Int] = [:]
        for (index, element) in elements.enumerated() {
            guard let frameElement = element.children.first(where: { elements[$0].name == "rect" && elements[$0]["key"] == "frame" })
            else { continue }
            let frameRecord = elements[frameElement]
            let frame = frameRecord["width"].flatMap(Double.init).flatMap { width in
                frameRecord["height"].flatMap(Double.init).map { height in
                    InterfaceBuilderRect(x: Double(frameRecord["x"] ?? "0") ?? 0, y: Double(frameRecord["y"] ?? "0") ?? 0,
                                         width: width, height: height)
                }
            }
            var superview: Int?
            var ancestor = element.parent
            while let current = ancestor {
                if let view = viewIndexByElement[current] { superview = view; break }
                ancestor = elements[current].parent
            }
            let id = element["id"] ?? ""
            var font: InterfaceBuilderFont?
            var accessibility = InterfaceBuilderAccessibility()
            var title = element["text"] ?? element["title"]
            var image = element["image"]
            var imageIsSystem = element["catalog"] == "system"
            var configurationStyle: String?
            var cellAttributes: [String: String] = [:]
            var hasAction = false
            var actionSelectors: [String] = []
            var hasGestureRecognizers = false
            if let value = element["isAccessibilityElement"] { accessibility.isElement = value == "YES" }
            for child in element.children {
                let record = elements[child]
                switch record.name {
                case "fontDescription" where record["key"] == "fontDescription":
                    font = InterfaceBuilderFont(record)
                case "accessibility":
                    accessibility.read(record, elements)
                case "state" where record["key"] == "normal":
                    title = title ?? record["title"]
                    if let name = record["image"] {
                        image = image ?? name
                        imageIsSystem = imageIsSystem || record["catalog"] == "system"
                    }
                case "buttonConfiguration":
                    configurationStyle = record["style"]
                    title = title ?? record["title"]
                    if let name = record["image"] {
                        image = image ?? name
                        imageIsSystem = imageIsSystem || record["catalog"] == "system"
                    }
                case "connections":
                    hasAction = hasAction || record.children.contains { elements[$0].name == "action" || elements[$0].name == "segue" }
                    actionSelectors += record.children.compactMap { elements[$0].name == "action" ? elements[$0]["selector"] : nil }
                    hasGestureRecognizers = hasGestureRecognizers || record.children.contains {
                        elements[$0].name == "outletCollection" && elements[$0]["property"] == "gestureRecognizers"
                    }
                default:
                    // AppKit draws controls with a cell: `<buttonCell key="cell" …>`.
                    if record["key"] == "cell" {
                        cellAttributes = record.attributes
                        title = title ?? record["title"]
                        if let name = record["image"] { image = image ?? name }
                        hasAction = hasAction || record["action"] != nil
                        if let selector = record["action"] { actionSelectors.append(selector) }
                        for grandchild in record.children where elements[grandchild].name == "font" {
                            font = InterfaceBuilderFont(elements[grandchild])
                        }
                    }
                }
            }
            if let image, systemImages.contains(image) || (cellAttributes.isEmpty == false && image.hasPrefix("NS")) {
                imageIsSystem = true
            }
            var attributes = element.attributes
            if let configurationStyle { attributes["configurationStyle"] = configurationStyle }
            viewIndexByElement[index] = views.count
            views.append(InterfaceBuilderView(
                element: index, kind: element.name, id: id, line: element.line, column: element.column,
                superview: superview, frame: frame, fixedWidth: widths[id], fixedHeight: heights[id], font: font,
                accessibility: accessibility, title: title, image: image, imageIsSystem: imageIsSystem,
                attributes: attributes, cellAttributes: cellAttributes, hasAction: hasAction,
                hasGestureRecognizers: hasGestureRecognizers, outlets: outlets[id] ?? []))
            views[views.count - 1].actionSelectors = actionSelectors
            if element["key"] == "view", let item = element.parent, elements[item].name == "toolbarItem" {
                views[views.count - 1].isToolbarItemView = true
            }
            if element["key"] == "customView", let item = element.parent, elements[item].name == "barButtonItem" {
                views[views.count - 1].barButtonItemKey = elements[item]["key"] ?? elements[item].parent.flatMap { elements[$0]["key"] }
            }
            var scene = element.parent
            while let current = scene {
                if elements[current].name.hasSuffix("Controller") {
                    views[views.count - 1].sceneClass = elements[current]["customClass"]
                    views[views.count - 1].sceneController = current
                    break
                }
                scene = elements[current].parent
            }
        }
        guard !relations.isEmpty else { return }
        var byID: [String: Int] = [:]
        for (index, view) in views.enumerated() where !view.id.isEmpty { byID[view.id] = index }
        func size(_ index: Int, _ attribute: String) -> Double? {
            attribute == "width" ? views[index].width : views[index].height
        }
        for relation in relations {
            guard let first = byID[relation.first], let second = byID[relation.second],
                  let value = size(first, relation.firstAttribute), let other = size(second, relation.secondAttribute) else { continue }
            // A point of slack: Xcode rounds frames to half points.
            if abs(value - (other * relation.multiplier + relation.constant)) > 1 {
                views[first].frameContradictsConstraints = true
                if first != second { views[second].frameContradictsConstraints = true }
            }
        }
    }

    /// `1:1`, `16:9`, `0.5`; nil for anything else.
    private static func multiplier(_ text: String?) -> Double? {
        guard let text else { return 1 }
        let parts = text.split(separator: ":")
        if parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0 { return a / b }
        return parts.count == 1 ? Double(text) : nil
    }
}

private extension XMLElementRecord {
    /// The view a `<constraint>` without a second item sizes: its `firstItem`, else the view
    /// whose `<constraints>` list holds it.
    func firstItemOrOwner(in elements: [XMLElementRecord]) -> String? {
        if let first = self["firstItem"] { return first }
        guard let list = parent, elements[list].name == "constraints", let owner = elements[list].parent else { return nil }
        return elements[owner]["id"]
    }
}

private extension InterfaceBuilderFont {
    init(_ record: XMLElementRecord) {
        self.init(type: record["type"], style: record["style"], pointSize: record["pointSize"].flatMap(Double.init) ?? record["size"].flatMap(Double.init),
                  name: record["name"], metaFont: record["metaFont"])
    }
}

private extension InterfaceBuilderAccessibility {
    mutating func read(_ record: XMLElementRecord, _ elements: [XMLElementRecord]) {
        line = record.line
        label = record["label"] ?? record["description"]
        hint = record["hint"] ?? record["help"]
        identifier = record["identifier"]
        for child in record.children {
            let element = elements[child]
            if element.name == "bool", element["key"] == "isElement" { isElement = element["value"] == "YES" }
            if element.name == "accessibilityTraits" {
                for (trait, value) in element.attributes where value == "YES" { traits.insert(trait) }
            }
        }
    }
}
