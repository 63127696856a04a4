import AuditModel
import SwiftSyntax

/// An explicit accessibility label that is a symbol name, asset name or code identifier:
/// `"play.fill"`, `"ic_close"`, `"closeButton"`, `"btn-close"`. VoiceOver reads it as written.
struct AccessibilityLabelRawIdentifierRule: SourceRule {
    let description = RuleDescription(
        id: "accessibility-label-raw-identifier",
        title: "Accessibility label is a raw identifier",
        kind: .requirement,
        rationale: """
            A label is what VoiceOver says for an element. A symbol or asset name \
            (`"play.fill"`, `"badge_gold_icon"`) or a code identifier (`"closeButton"`, \
            `"btn-close"`) is read aloud as written: "play dot fill", "badge underscore gold \
            underscore icon". The element is labelled, but not with anything written for a \
            listener, so the label does not convey what the element does.
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
            Citation("SwiftUI › accessibilityLabel(_:)",
                     "Use this method to provide an accessibility label for a view that doesn't display text, like an icon. For example, you could use this method to label a button that plays music with the text 'Play'."),
            Citation("WWDC21 › SwiftUI Accessibility: Beyond the basics",
                     "If you're relying on a symbol's default label, it's important to check that it accurately describes your interface."),
        ],
        fix: """
            Write the label in words that say what the element does or shows: `"Play"`, not \
            `"play.fill"`; `"Close"`, not `"ic_close"` or `"closeButton"`. In SwiftUI, or with \
            `NSLocalizedString`/`String(localized:)`, the identifier may instead be kept as a \
            key if the localisation tables translate it into words.
            """,
        limitations: """
            In SwiftUI a literal passed to `.accessibilityLabel(_:)` or `Text(_:)` is a \
            `LocalizedStringKey`: when the project's strings tables define that key, VoiceOver \
            reads the translation, not the key, so such a label is not reported (the translated \
            value is not checked). The same holds for `NSLocalizedString`/`String(localized:)`. \
            Where the file's own `NSLocalizedString`/`String(localized:)` keys are in no table of \
            the repository either, its tables come from elsewhere (copied in at build time), and \
            the label goes to review. \
            Only literal labels are judged; labels built from variables, interpolation or \
            helper functions are not. The shape test is heuristic: dotted lower-case names, \
            anything with an underscore, camelCase, PascalCase or kebab-case containing a UI \
            word (`Button`, `Icon`, `btn`, `ic`, …). A kebab-case phrase with no such word \
            (`"add-to-cart"`) is not reported, so that `"Wi-Fi"` and `"sign-in"` stay clean. \
            AppKit labels returned from an `accessibilityLabel()` override are not read.
            """,
        triggering: [
            // An option set's flags are no feature flag: the branch runs when the key is held.
            RuleExample("""
                import AppKit
                final class Toolbar: NSView {
                    let shareButton = NSButton()
                    func update(with event: NSEvent) {
                        if event.modifierFlags.contains(.option) {
                            shareButton.setAccessibilityLabel(nil)
                            shareButton.accessibilityLabel = ↓"btn_share_all"
                        }
                    }
                }
                """, platforms: PlatformSet(.macOS)),
            // The table defines the file's other keys but not this one: the key itself is read.
            RuleExample("""
                import SwiftUI
                struct ActionsRow: View {
                    var body: some View {
                        Menu { Button(String(localized: "status.action.share")) { } } label: { Image(systemName: "ellipsis") }
                            .accessibilityLabel(↓"status.action.context-menu")
                    }
                }
                """, assets: ["App/en.lproj/Localizable.strings": "\"status.action.share\" = \"Share\";\n"]),
            // Starts hidden; the function that shows it is called.
            RuleExample("""
                import UIKit
                final class StatusCell: UITableViewCell {
                    let syncBadge = UIImageView()
                    func setUp() {
                        syncBadge.accessibilityLabel = ↓"syncBadge"
                        syncBadge.alpha = 0
                        contentView.addSubview(syncBadge)
                    }
                    func showSync(_ on: Bool) { syncBadge.alpha = on ? 1 : 0 }
                    func update(syncing: Bool) { showSync(syncing) }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityLabel(↓"play.fill")
                    }
                    func play() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Badge: View {
                    var body: some View {
                        HStack {
                            Image("badge_gold_icon").accessibilityLabel(↓Text("badge_gold_icon"))
                            Image("ic_close").accessibility(label: ↓Text("ic_close"))
                            Image(systemName: "xmark").accessibilityLabel(↓Text(verbatim: "xmark.circle"))
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class Toolbar: UIView {
                    let close = UIButton()
                    let share = UIButton()
                    func configure() {
                        close.accessibilityLabel = ↓"closeButton"
                        share.accessibilityLabel = ↓"btn-share"
                        accessibilityLabel = ↓"ToolbarView"
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func configure(_ button: UIButton) {
                    button.accessibilityLabel = ↓NSLocalizedString("ic_close", comment: "")
                    button.accessibilityLabel = ↓"close.png"
                }
                """),
            RuleExample("""
                import AppKit
                func configure(_ view: NSButton) {
                    view.setAccessibilityLabel(↓"sidebar.left")
                }
                """),
        ],
        nonTriggering: [
            // A key the project's table translates: VoiceOver reads "Share".
            RuleExample("""
                import SwiftUI
                struct ShareButton: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "square.and.arrow.up") }
                            .accessibilityLabel("status.action.share")
                    }
                }
                """, assets: ["App/en.lproj/Localizable.strings": "\"status.action.share\" = \"Share\";\n"]),
            // Starts hidden, and only a function nothing calls would show it.
            RuleExample("""
                import UIKit
                final class StatusCell: UITableViewCell {
                    let syncBadge = UIImageView()
                    func setUp() {
                        syncBadge.accessibilityLabel = "syncBadge"
                        syncBadge.alpha = 0
                        contentView.addSubview(syncBadge)
                    }
                    func showSync(_ on: Bool) { syncBadge.alpha = on ? 1 : 0 }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityLabel("Play")
                        Image("cart").accessibilityLabel(Text("Add to cart"))
                        Image("gear").accessibility(label: Text("Settings"))
                        Text("Done").accessibilityLabel("OK")
                    }
                    func play() {}
                }
                """),
            // Product and platform names with inner capitals, hyphenated words, abbreviations,
            // version numbers and domains read correctly.
            RuleExample("""
                import UIKit
                func configure(_ a: UIView, _ b: UIView) {
                    a.accessibilityLabel = "iPhone"
                    a.accessibilityLabel = "macOS"
                    a.accessibilityLabel = "Wi-Fi"
                    a.accessibilityLabel = "sign-in"
                    a.accessibilityLabel = "YouTube"
                    a.accessibilityLabel = "e.g."
                    a.accessibilityLabel = "Ph.D"
                    a.accessibilityLabel = "v1.2"
                    a.accessibilityLabel = "apple.com"
                    b.accessibilityLabel = "Version 2.0"
                    b.accessibilityLabel = "Edit \\(name)"
                    b.accessibilityLabel = title
                    b.accessibilityLabel = nil
                }
                """),
            RuleExample("""
                import AppKit
                func configure(_ view: NSButton) {
                    view.setAccessibilityLabel("Show sidebar")
                    let label = view.accessibilityLabel()
                }
                """),
            // The symbol's name as a value or an image, not as a label.
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Image(systemName: "play.fill")
                            .accessibilityIdentifier("play.fill")
                            .accessibilityLabel("Play")
                    }
                }
                """),
        ],
        needsReview: [
            // Behind a feature flag: which branch a release build takes is configuration.
            RuleExample("""
                import SwiftUI
                struct NewSpaceButton: View {
                    let onTap: () -> Void
                    var body: some View {
                        if FeatureFlags.channelMenu {
                            Menu { Button("Personal", action: onTap) } label: { Image(systemName: "plus") }
                                .accessibilityLabel(↓"NewSpaceButton")
                        } else {
                            classic
                        }
                    }
                    private var classic: some View {
                        Button(action: onTap) { Image(systemName: "plus") }
                            .accessibilityLabel(↓"NewSpaceButton")
                    }
                }
                """),
            // In a row the configuring code hides at times: whether any screen shows it is up to
            // the callers, which a person checks.
            RuleExample("""
                import UIKit
                final class PostView: UIView {
                    let countLabel = UILabel()
                    let actionRow = UIStackView()
                    func setUp() {
                        countLabel.accessibilityLabel = ↓"countLabel"
                        actionRow.addArrangedSubview(countLabel)
                        addSubview(actionRow)
                    }
                    func configure(showButtons: Bool) {
                        if showButtons {
                            self.actionRow.isHidden = false
                        } else {
                            self.actionRow.isHidden = true
                        }
                    }
                }
                """),
            // The file's own NSLocalizedString keys are in no table here either: the app brings
            // its tables from elsewhere at build time, so the label's key may well be defined.
            RuleExample("""
                import SwiftUI
                struct TagRow: View {
                    let tag: String
                    var body: some View {
                        HStack {
                            Text(tag)
                            Button { } label: { Image(systemName: "minus.circle") }
                                .accessibilityLabel(↓Text("undo_action_remove_tag"))
                        }
                        .help(NSLocalizedString("tags_editor_remove_help", comment: "Remove this tag"))
                    }
                }
                """),
            // A count inside a button: VoiceOver focuses the button and speaks its label.
            RuleExample("""
                import UIKit
                final class ActionBar: UIView {
                    let replyButton = UIButton()
                    let replyStack = UIStackView()
                    let replyCount = UILabel()
                    func setUp() {
                        replyCount.accessibilityLabel = ↓"replyCount"
                        replyStack.addArrangedSubview(replyCount)
                        replyButton.addSubview(replyStack)
                        addSubview(replyButton)
                    }
                }
                """),
            // A debugging name on a scroll view VoiceOver moves through, not onto.
            RuleExample("""
                import UIKit
                final class PagerController: UIViewController {
                    let containerScrollView: UIScrollView = {
                        let scrollView = UIScrollView()
                        scrollView.accessibilityLabel = ↓"ContainerScrollView"
                        return scrollView
                    }()
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        view.addSubview(containerScrollView)
                    }
                }
                """),
            // A debugging name on a controller's root view, which VoiceOver moves through.
            RuleExample("""
                import UIKit
                final class OnboardingController: UIViewController {
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        view.accessibilityLabel = ↓"OnboardingRootView"
                    }
                }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        // The file's subview tree, walked once for all its labels and only if one needs it.
        var parents: [String: Set<String>]?
        func containers(_ object: String) -> [String] {
            let known = parents ?? Self.subviewParents(in: file)
            parents = known
            return Self.containers(of: object, parents: known)
        }
        for label in AccessibilityLabels.explicit(in: file) where !label.hasInterpolation {
            guard let shape = Self.identifierShape(label.text) else { continue }
            if label.isTranslated(in: file) { continue }
            let keyNote = label.isLocalizable
                ? " (no strings table defines it as a key, so the key itself is shown)" : ""
            let message = "\(label.subject) is \"\(label.display)\", \(shape)\(keyNote); VoiceOver reads it aloud as written instead of saying what the element does"
            if label.isLocalizable, let other = Self.unresolvedKeys(in: file, besides: label.text) {
                // The file localises with keys no table here defines: the tables live elsewhere
                // (another repository copied in at build time), so this key may be defined too.
                sink.report(label.node, message + " (if no table defines it: this file's other keys, such as \"\(other)\", are in no strings table of the repository either, so its tables may come from elsewhere)",
                            certainty: .review)
                continue
            }
            if let flag = FeatureFlagGate.condition(around: label.node, in: file) {
                sink.report(label.node, message + " (if it ships: this code runs only on one side of `if \(flag)`, and which side a release takes is configuration)",
                            certainty: .review)
                continue
            }
            let object = Self.labelledObject(by: label.node, in: file)
            if let object, let container = Self.container(object, in: file) ?? Self.controllerRootView(object, at: label.node, in: file) {
                sink.report(label.node, message + " (if it reaches VoiceOver: it is set on a `\(container)`, a container VoiceOver does not focus unless code makes it an element)",
                            certainty: .review)
            } else if let object, let control = Self.controlAround(object, in: file, containers: containers(object)) {
                sink.report(label.node, message + " (if it reaches VoiceOver: the view is inside `\(control.name)`, a `\(control.type)` VoiceOver focuses as one element, so what it says is the control's label)",
                            certainty: .review)
            } else if let object, let (ancestor, hiding) = Self.hiddenAncestor(in: file, containers: containers(object)) {
                // Whether the row is ever shown depends on who configures it and how.
                sink.report(label.node, message + " (if it reaches VoiceOver: it sits in `\(ancestor)`, which code hides at times (`\(hiding)`); check that some screen shows it)",
                            certainty: .review)
            } else if let object, let shown = Self.shownOnlyBy(object, in: file) {
                // Starts hidden and only that function shows it: nothing calling it, the label is never heard.
                if let function = shown {
                    sink.report(label.node, message, requiredUse: [function])
                } else {
                    sink.report(label.node, message + " (if it reaches VoiceOver: the view starts hidden; check when code shows it)", certainty: .review)
                }
            } else {
                sink.report(label.node, message)
            }
        }
    }

    /// A key-shaped key this file explicitly localises (`NSLocalizedString("tags_editor_title", …)`,
    /// `String(localized: "status.share")`) when there are some and none of them is in the
    /// project's strings tables; nil when the file has none or any of them is defined. A bare
    /// `Text("…")` says nothing: an app without tables writes its English there.
    static func unresolvedKeys(in file: SourceFile, besides label: String) -> String? {
        var unresolved: String?
        for call in file.index.calls(named: ["NSLocalizedString", "String"]) {
            guard let literal = LabelLiteral(ExprSyntax(call), bareIsKey: false, subject: ""), literal.isLocalizable,
                  !literal.hasInterpolation, literal.text != label, identifierShape(literal.text) != nil else { continue }
            if file.isLocalizedKey(literal.text) { return nil }
            unresolved = unresolved ?? literal.text
        }
        return unresolved
    }

    /// The simple name the label is assigned to (`badge.accessibilityLabel = …` → `badge`).
    static func labelledObject(by node: some SyntaxProtocol, in file: SourceFile) -> String? {
        let offset = node.position.utf8Offset
        guard let assignment = file.index.assignments.first(where: { assignment in
            assignment.targetProperty == "accessibilityLabel"
                && (assignment.node.position.utf8Offset..<assignment.node.endPosition.utf8Offset).contains(offset)
        }), !assignment.targetObject.isEmpty, !assignment.targetObject.contains(".") else { return nil }
        return assignment.targetObject
    }

    /// Controls VoiceOver focuses as one element, whose subviews it does not visit.
    static let controlTypes: Set<String> = ["UIButton", "UIControl", "UISwitch", "UISegmentedControl", "UISlider", "UIStepper", "NSButton"]

    /// The control (`repostButton`, a `UIButton`) that `object` is added into, directly or
    /// through the views between (`button.addSubview(stack)`, `stack.addArrangedSubview(count)`).
    static func controlAround(_ object: String, in file: SourceFile, containers: [String]) -> (name: String, type: String)? {
        for parent in containers {
            let types = Set((file.index.bindings[parent] ?? []).compactMap { $0.as(FunctionCallExprSyntax.self)?.calleeName })
            if types.count == 1, let type = types.first, controlTypes.contains(type) { return (parent, type) }
        }
        return nil
    }

    /// The nearest view holding `object` that the file hides somewhere (`isHidden = true`,
    /// `alpha = 0`), with that code.
    static func hiddenAncestor(in file: SourceFile, containers: [String]) -> (name: String, hiding: String)? {
        for name in containers {
            if let hiding = file.index.assignments.first(where: { assignment in
                assignment.targetObject == name && (assignment.targetProperty == "isHidden" && assignment.valueText == "true"
                    || assignment.targetProperty == "alpha" && ["0", "0.0"].contains(assignment.valueText))
            }) {
                return (name, hiding.node.sourceText)
            }
        }
        return nil
    }

    /// Views holding `object` through `addSubview`/`addArrangedSubview` calls in the file,
    /// directly or through the views between, nearest first (at most 64).
    static func containers(of object: String, parents: [String: Set<String>]) -> [String] {
        var found: [String] = [], pending = [object], seen: Set<String> = [object]
        while let name = pending.popLast(), found.count < 64 {
            for parent in parents[name] ?? [] where seen.insert(parent).inserted {
                found.append(parent)
                pending.append(parent)
            }
        }
        return found
    }

    /// Child view name → the views it is added to, over the whole file.
    static func subviewParents(in file: SourceFile) -> [String: Set<String>] {
        let collector = SubviewCallCollector(viewMode: .sourceAccurate)
        collector.walk(file.tree)
        return collector.parents
    }

    /// For a view the file hides (`alpha = 0`, `isHidden = true`): `.some(function)` when every
    /// assignment that can show it again lies in that one function, `.some(nil)` when they lie
    /// in several or outside any (a person checks), nil when the file never hides it.
    static func shownOnlyBy(_ object: String, in file: SourceFile) -> String?? {
        let visibility = file.index.assignments.filter { $0.targetObject == object && ["alpha", "isHidden"].contains($0.targetProperty ?? "") }
        func hides(_ assignment: Assignment) -> Bool {
            let value = assignment.valueText
            return assignment.targetProperty == "alpha" ? ["0", "0.0"].contains(value) : value == "true"
        }
        guard visibility.contains(where: hides) else { return nil }
        let showing = visibility.filter { !hides($0) }
        let functions = showing.map { Syntax($0.node).enclosingFunction }
        // The system calls an override, and an action may be sent by a selector a storyboard names.
        guard let first = functions.first, let function = first,
              functions.allSatisfy({ $0?.name.text == function.name.text }),
              !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }),
              !function.attributes.contains(where: { ["objc", "IBAction"].contains($0.as(AttributeSyntax.self)?.attributeName.sourceText ?? "") })
        else { return .some(nil) }
        return .some(function.name.text)
    }

    /// Containers VoiceOver moves through rather than onto.
    static let containerTypes: Set<String> = [
        "UIScrollView", "UIStackView", "UIView", "UITableView", "UICollectionView", "NSScrollView", "NSView", "NSStackView",
    ]

    /// The container type of the labelled object (`scrollView.accessibilityLabel = "…"` where
    /// `let scrollView = UIScrollView()`), when nothing in the file makes that object an
    /// accessibility element: a debugging name nobody hears.
    static func container(_ object: String, in file: SourceFile) -> String? {
        let types = (file.index.bindings[object] ?? []).map { $0.as(FunctionCallExprSyntax.self)?.calleeName ?? "" }
        guard let type = types.first, !types.isEmpty, types.allSatisfy({ $0 == type }), containerTypes.contains(type) else { return nil }
        return isMadeElement(object, in: file) ? nil : type
    }

    /// `view.accessibilityLabel = "…"` inside a view controller's class: the controller's root
    /// view, a plain container unless the file makes it an element.
    static func controllerRootView(_ object: String, at node: some SyntaxProtocol, in file: SourceFile) -> String? {
        guard object == "view", (file.index.bindings[object] ?? []).isEmpty,
              let type = Syntax(node).enclosingTypeDecl?.as(ClassDeclSyntax.self),
              let superclass = type.inheritanceClause?.inheritedTypes.first?.type.sourceText,
              superclass.hasSuffix("Controller") else { return nil }
        return isMadeElement(object, in: file) ? nil : "\(superclass)`'s root `UIView"
    }

    /// Whether the file makes `object` an accessibility element (`isAccessibilityElement`, traits).
    static func isMadeElement(_ object: String, in file: SourceFile) -> Bool {
        file.index.assignments.contains { other in
            other.targetObject == object && ["isAccessibilityElement", "accessibilityTraits"].contains(other.targetProperty ?? "")
        }
    }

    /// Words that mark a token as a UI identifier rather than prose.
    private static let identifierWords: Set<String> = [
        "btn", "button", "ic", "icn", "icon", "img", "image", "bg", "nav", "lbl", "label", "cell",
        "view", "tab", "asset", "thumb", "vc", "tf", "txt",
    ]
    /// A dotted name ending in one of these is a web address, read sensibly ("apple dot com").
    private static let domainEndings: Set<String> = [
        "com", "org", "net", "io", "app", "dev", "edu", "gov", "co", "me", "info", "uk", "de", "fr",
    ]

    /// What kind of identifier `label` looks like, or `nil` for prose.
    static func identifierShape(_ label: String) -> String? {
        let text = AccessibilityLabels.trimmed(label)
        guard !text.isEmpty, text.contains(where: \.isLetter),
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") })
        else { return nil }

        if text.contains("_") { return "a snake_case identifier" }

        if text.contains(".") {
            let segments = text.split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count >= 2, segments.allSatisfy({ !$0.isEmpty }),
                  !text.contains(where: \.isUppercase),
                  segments.contains(where: { $0.count >= 2 && $0.allSatisfy(\.isLetter) }),
                  let last = segments.last, !domainEndings.contains(String(last))
            else { return nil }
            return "a dotted symbol or file name"
        }

        if text.contains("-") {
            let segments = text.split(separator: "-", omittingEmptySubsequences: false)
            guard segments.count >= 2, segments.allSatisfy({ !$0.isEmpty }), !text.contains(where: \.isUppercase),
                  segments.contains(where: { identifierWords.contains(String($0)) })
            else { return nil }
            return "a kebab-case identifier"
        }

        let characters = Array(text)
        // camelCase: a lower-case word of two or more letters, then a capitalised word. One
        // leading letter is a product name (iPhone, eBay); a trailing capital run is one
        // too (macOS, watchOS).
        if let first = characters.first, first.isLowercase {
            let lead = characters.prefix { $0.isLowercase }.count
            if lead >= 2, lead + 1 < characters.count,
               characters[lead].isUppercase, characters[lead + 1].isLowercase {
                return "a camelCase identifier"
            }
            return nil
        }
        // PascalCase is also how brands are written (YouTube, FaceTime): only a UI word makes it code.
        let humps = camelHumps(text)
        if humps.count >= 2, humps.contains(where: { identifierWords.contains($0.lowercased()) }) {
            return "a PascalCase identifier"
        }
        return nil
    }

    private static func camelHumps(_ text: String) -> [String] {
        var humps: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                humps.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { humps.append(current) }
        return humps
    }
}

/// Who adds whom as a subview (`stack.addArrangedSubview(count)`: `count` → `stack`; a cell's
/// `contentView` counts as the cell), gathered once per label that needs it.
private final class SubviewCallCollector: SyntaxVisitor {
    var parents: [String: Set<String>] = [:]
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let callee = node.calledExpression.as(MemberAccessExprSyntax.self), let base = callee.base,
           ["addSubview", "addArrangedSubview", "insertSubview"].contains(callee.declName.baseName.text),
           let child = node.arguments.first?.expression {
            let parent = Assignment.objectName(base), name = Assignment.objectName(child)
            if !parent.isEmpty, !name.isEmpty {
                parents[name, default: []].insert(parent.hasSuffix(".contentView") ? String(parent.dropLast(".contentView".count)) : parent)
            }
        }
        return .visitChildren
    }
}
