import AuditModel
import Foundation
import SwiftSyntax

/// A slider with no label, or a toggle, picker or text field whose title is empty: VoiceOver
/// announces only its value and kind, and Voice Control has no name to call it by.
struct ControlWithoutNameRule: SourceRule {
    let description = RuleDescription(
        id: "control-without-name",
        title: "Control with no name",
        kind: .recommendation,
        rationale: """
            SwiftUI names a control by its title or its label view: that is what VoiceOver reads \
            before the value ("Volume, 40 percent, adjustable") and what Voice Control users say \
            to use it. A `Slider` or `Stepper` built without a label, or a `Toggle`, `Picker`, \
            `TextField`, `SecureField` or `DatePicker` given an empty title (often to hide it: \
            `.labelsHidden()` is the way to hide a title that still names the control), has no \
            name at all. In UIKit, a `UIButton` given only a drawn image (`setImage`) and no title, \
            `accessibilityLabel` or hiding anywhere in its file is read as just "button" (review: \
            the picture may come from elsewhere with a label of its own).
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
            Citation("Fact sheet › Voice Control",
                     "Most of the work done for VoiceOver also serves Voice Control, Switch Control and Hover Text"),
        ],
        fix: """
            Give the control its title and hide it visually if the design shows it elsewhere: \
            `Toggle("Notifications", isOn: $on).labelsHidden()`, `Slider(value: $volume, in: 0...1) \
            { Text("Volume") }`, or `.accessibilityLabel("Volume")`; in UIKit, \
            `declineButton.accessibilityLabel = "Decline"`.
            """,
        limitations: """
            A label, hide or grouping on the control or a container around it \
            (`.accessibilityLabel`, `.accessibilityElement(children: .combine)`, `LabeledContent`) \
            clears it; a title given by a variable is trusted. An empty `TextField` with a \
            `prompt:` goes to review: VoiceOver may read the prompt in place of a name. A view of \
            the app's own that makes itself one element with `.accessibilityElement(children: \
            .ignore)`, acts (a button trait or a tap) and sets no label anywhere in its type is \
            reported where it is used unlabelled. Other controls \
            of the app's own (`SwiftUISlider(…)`) are not judged, nor is a picker drawn as segments, \
            radio buttons or an inline list (each option is named by its own text).
            """,
        triggering: [
            // A control of the app's own that ignores its text and labels nothing (another file).
            RuleExample("""
                import SwiftUI
                struct Onboarding: View {
                    var body: some View {
                        VStack {
                            ↓ActionableButton(text: "Continue with Email") { next() }
                            ↓ToolbarButton(icon: "nav-back") { next() }
                            Button { next() } label: { ↓ActionableButton(text: "Continue") { next() } }
                        }
                    }
                    func next() {}
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            // What an `.accessibilityRepresentation` holds is what VoiceOver gets: an empty
            // label there is the control's empty name.
            RuleExample("""
                import SwiftUI
                struct GuestKindPicker: View {
                    @Binding var kind: Int
                    var body: some View {
                        HStack { Text("macOS"); Text("Linux") }
                            .accessibilityRepresentation {
                                ↓Picker(selection: $kind) {
                                    Text("macOS").tag(0)
                                } label: { }
                            }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct TargetRange: View {
                    @State private var low = 70.0
                    @State private var snooze = 0
                    @State private var muted = false
                    var body: some View {
                        VStack {
                            Text("Low")
                            ↓Slider(value: $low, in: 40...99, step: 1)
                            ↓Picker(selection: $snooze, label: Text("")) {
                                Text("5 minutes").tag(5)
                            }
                            .labelsHidden()
                            ↓Toggle("", isOn: $muted)
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Search: View {
                    @State private var query = ""
                    var body: some View {
                        ↓TextField("", text: $query)
                    }
                }
                """),
        ],
        nonTriggering: [
            // UIKit buttons named by a title, a label, their symbol or asset, or left out.
            RuleExample("""
                import UIKit
                final class InviteView: UIView {
                    private let acceptButton: UIButton = {
                        let view = UIButton()
                        view.setImage(Icons.accept, for: .normal)
                        view.accessibilityLabel = "Accept"
                        return view
                    }()
                    private let declineButton: UIButton = {
                        let view = UIButton()
                        view.setImage(Icons.decline, for: .normal)
                        return view
                    }()
                    private let moreButton = UIButton(type: .system)
                    private let closeButton = UIButton(type: .system)
                    private let logoButton = UIButton(type: .custom)
                    func setup() {
                        declineButton.accessibilityLabel = "Decline"
                        moreButton.setImage(UIImage(systemName: "ellipsis")?.withRenderingMode(.alwaysTemplate), for: .normal)
                        closeButton.setImage(Icons.close, for: .normal)
                        closeButton.setTitle("Close", for: .normal)
                        logoButton.setImage(UIImage(named: "Logo"), for: .normal)
                        [acceptButton, declineButton, moreButton, closeButton, logoButton].forEach(addSubview)
                        let symbol = UIImage(systemName: "trash")
                        trashButton.setImage(symbol, for: .normal)
                        shareButton.setImage(Asset.share.image.withRenderingMode(.alwaysTemplate), for: .normal)
                        allocateButton.setImage(Icons.close, for: .normal)
                    }
                    private let trashButton = UIButton()
                    private let shareButton = UIButton()
                    @IBOutlet private weak var allocateButton: UIButton!
                    // Named inside the closure that makes it; assets by resource, literal, R.swift, member.
                    private let rejectButton: UIButton = {
                        let view = UIButton()
                        view.accessibilityLabel = "Reject"
                        return view
                    }()
                    private let likeButton = UIButton(), playButton = UIButton(), moreButton = UIButton()
                    func restyle() {
                        rejectButton.setImage(Icons.close, for: .normal)
                        likeButton.setImage(UIImage(resource: .like), for: .normal)
                        playButton.setImage(R.image.play(), for: .normal)
                        moreButton.setImage(.more, for: .normal)
                        [rejectButton, likeButton, playButton, moreButton].forEach(addSubview)
                    }
                }
                enum Icons { static let accept = UIImage(); static let decline = UIImage(); static let close = UIImage() }
                """, platforms: PlatformSet(.iOS)),
            // The control an `.accessibilityRepresentation` stands in with, named by its title.
            RuleExample("""
                import SwiftUI
                struct GuestKindPicker: View {
                    @Binding var kind: Int
                    var body: some View {
                        HStack { Text("macOS"); Text("Linux") }
                            .accessibilityRepresentation {
                                Picker("Guest type", selection: $kind) {
                                    Text("macOS").tag(0)
                                }
                            }
                    }
                }
                """),
            // Labelled where used, or a component that labels itself.
            RuleExample("""
                import SwiftUI
                struct Onboarding: View {
                    var body: some View {
                        VStack {
                            ActionableButton(text: "Continue") { next() }.accessibilityLabel("Continue")
                            NamedButton(text: "Continue") { next() }
                            HStack { ActionableButton(text: "Skip") { next() } }.accessibilityElement(children: .combine).accessibilityLabel("Skip")
                        }
                    }
                    func next() {}
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            RuleExample("""
                import SwiftUI
                struct Settings: View {
                    @State private var volume = 0.5
                    @State private var on = false
                    @State private var name = ""
                    let title: String
                    var body: some View {
                        Form {
                            Slider(value: $volume, in: 0...1) { Text("Volume") }
                            Slider(value: $volume, in: 0...1).accessibilityLabel("Balance")
                            Toggle("Notifications", isOn: $on).labelsHidden()
                            Toggle(title, isOn: $on)
                            TextField("Name", text: $name)
                            LabeledContent("Speed") { Slider(value: $volume) }
                            // Each segment is named by its option.
                            Picker("", selection: $on) { Text("Off").tag(false); Text("On").tag(true) }.pickerStyle(.segmented)
                            HStack { Text("Pitch"); Slider(value: $volume) }.accessibilityElement(children: .combine)
                            // The options become the menu's items, which the menu's label names.
                            Menu {
                                Picker(selection: $on) { Text("Off").tag(false); Text("On").tag(true) } label: { Text("") }
                            } label: { Text(on ? "On" : "Off") }
                        }
                    }
                }
                """),
        ],
        needsReview: [
            // UIKit buttons that show only a drawn image and are named nowhere in the file: one
            // made in its property's closure, one kept in a private property (one finding for
            // its two states).
            RuleExample("""
                import UIKit
                final class InviteView: UIView {
                    private let declineButton: UIButton = {
                        let view = UIButton()
                        view.backgroundColor = .white
                        ↓view.setImage(Icons.decline, for: .normal)
                        return view
                    }()
                    private let acceptButton = UIButton()
                    func setup() {
                        ↓acceptButton.setImage(Icons.accept, for: .normal)
                        acceptButton.setImage(Icons.acceptSelected, for: .selected)
                        addSubview(declineButton)
                        addSubview(acceptButton)
                    }
                }
                enum Icons { static let accept = UIImage(); static let acceptSelected = UIImage(); static let decline = UIImage() }
                """, platforms: PlatformSet(.iOS)),
            // A button other files can reach may be named there.
            RuleExample("""
                import UIKit
                final class PlayerBar: UIView {
                    let playButton = UIButton()
                    func setup() {
                        ↓playButton.setImage(Icons.play, for: .normal)
                        addSubview(playButton)
                    }
                }
                enum Icons { static let play = UIImage() }
                """, platforms: PlatformSet(.iOS)),
            // A symbol redrawn as a plain picture by the app's own method keeps no label.
            RuleExample("""
                import UIKit
                func composeItem(target: Any, action: Selector) -> UIBarButtonItem {
                    let image = UIImage(systemName: "square.and.pencil")?.imageWithColor(.systemBlue)
                    let button = UIButton(type: .system)
                    ↓button.setImage(image, for: .normal)
                    button.addTarget(target, action: action, for: .touchUpInside)
                    return UIBarButtonItem(customView: button)
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                struct Search: View {
                    @State private var query = ""
                    var body: some View {
                        ↓TextField("", text: $query, prompt: Text("Search"))
                    }
                }
                """),
        ]
    )

    /// Controls that take their name as a title (first unlabelled argument) or a label view.
    static let titled: Set<String> = ["Toggle", "Picker", "TextField", "SecureField", "DatePicker", "ColorPicker", "Stepper"]
    /// Controls that may be built with no title at all, whose name is then only a label view.
    static let labelOnly: Set<String> = ["Slider", "Stepper"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkComponentUses(file, &sink)
        checkUIKitImageButtons(file, &sink)
        for control in file.index.calls(named: Self.titled.union(Self.labelOnly)) where control.calledExpression.is(DeclReferenceExprSyntax.self) {
            guard let name = control.calleeName, let verdict = Self.nameless(control, name) else { continue }
            let chain = ModifierChain(containing: ExprSyntax(control))
            if AccessibilityLabels.labelsOrHides(chain) || AccessibilityLabels.isInPreview(control) { continue }
            // Segments and radio buttons are named by their own options' text.
            if name == "Picker", Self.drawsOptionsAsControls(control) { continue }
            // A picker inside a `Menu` becomes the menu's items; the menu's own label names the
            // control people open.
            if name == "Picker", ImageAssetNameSpokenRule.isMenuItem(control) { continue }
            if Self.isNamedAround(control) { continue }
            // The call's first line: a picker's options do not belong in the message.
            let firstLine = control.sourceText.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            let excerpt = InputExcerpt.of(firstLine.hasSuffix("{") ? firstLine + " … }" : firstLine, limit: 60)
            switch verdict {
            case .noLabel:
                sink.report(control, "`\(excerpt)` has no label: VoiceOver announces only its value, and Voice Control has no name to call it by; give it a label (`\(name)(…) { Text(\"…\") }`) or `.accessibilityLabel`")
            case .emptyTitle:
                sink.report(control, "`\(excerpt)` has an empty title: VoiceOver and Voice Control get no name for it; give it a title and hide it with `.labelsHidden()` if the design shows it elsewhere")
            case .emptyTitleWithPrompt:
                sink.report(control, "`\(excerpt)` has an empty title: VoiceOver may read its prompt in place of a name, and Voice Control has none to call it by; give it a title (hidden with `.labelsHidden()` if need be)",
                            certainty: .review)
            }
        }
    }

    /// What names a UIKit button besides its image: a title, a label, or leaving it out of
    /// the accessibility tree.
    static let uiKitNames: Set<String> = [
        "setTitle", "setAttributedTitle", "accessibilityLabel", "accessibilityUserInputLabels", "accessibilityAttributedLabel",
        "isAccessibilityElement", "accessibilityElementsHidden", "configuration", "title", "text", "attributedText",
    ]

    /// `button.setImage(Icons.decline, for: .normal)` on a button this file makes, with no
    /// title, label or hiding anywhere in the file: VoiceOver says "button" and nothing more.
    /// A symbol (`UIImage(systemName:)`) speaks a label of its own and an asset image
    /// (`UIImage(named:)`, `UIImage(resource:)`, `#imageLiteral`) its name: both are left
    /// alone here. Always a review: the picture may come from another file and carry a label.
    private func checkUIKitImageButtons(_ file: SourceFile, _ sink: inout FindingSink) {
        var reported = Set<String>()
        let setters = file.index.calls(named: "setImage")
        guard !setters.isEmpty else { return }
        // The objects the file names (a title, a label, hidden), found once for every button.
        var named = Set<String>(), namedAnywhere = false
        for assignment in file.index.assignments where Self.uiKitNames.contains(assignment.targetProperty ?? "")
            && assignment.value.first?.is(NilLiteralExprSyntax.self) != true {
            named.insert(assignment.targetObject)
        }
        for title in file.index.calls(named: ["setTitle", "setAttributedTitle"]) {
            // A title set on an object not spelled here may be any button's.
            guard let base = title.calledExpression.as(MemberAccessExprSyntax.self)?.base,
                  let target = ExprSyntax.dottedName(base)?.replacingOccurrences(of: "self.", with: "") else {
                namedAnywhere = true
                continue
            }
            if title.arguments.first?.expression.is(NilLiteralExprSyntax.self) != true { named.insert(target) }
        }
        for call in setters {
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                  let object = ExprSyntax.dottedName(base)?.replacingOccurrences(of: "self.", with: ""),
                  !object.contains("."), let image = call.arguments.first?.expression,
                  call.arguments.first?.label == nil else { continue }
            let kind = Self.classify(image, file)
            if case .speaksItsName = kind { continue }
            // The object, and the property whose initializer closure makes it (`let
            // declineButton: UIButton = { let view = UIButton(); …; return view }()`).
            var names: Set<String> = [object]
            var declaration: PatternBindingSyntax?
            var scope: Syntax? = Syntax(call).parent
            while let current = scope, current.kind != .closureExpr, current.kind != .functionDecl, current.kind != .initializerDecl {
                scope = current.parent
            }
            let local = scope.flatMap { scope in
                file.index.declarations(object, in: scope).first?.as(PatternBindingSyntax.self)
            }
            var property: PatternBindingSyntax?
            if let local {
                declaration = local
                if let closure = scope, closure.kind == .closureExpr, let name = LineLimitTruncatesRule.propertyMade(by: closure) {
                    names.insert(name)
                    property = closure.ancestor(PatternBindingSyntax.self)
                }
            } else {
                declaration = file.index.declarations[object]?.lazy.compactMap { $0.as(PatternBindingSyntax.self) }.first
                property = declaration
                // A property made by its closure: the closure's own button is the same one.
                if let closure = declaration?.initializer?.value.as(FunctionCallExprSyntax.self)?.calledExpression.as(ClosureExprSyntax.self) {
                    for statement in closure.statements {
                        if let made = statement.item.as(VariableDeclSyntax.self)?.bindings.first,
                           let name = made.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, Self.declaresButton(made) {
                            names.insert(name)
                            declaration = made
                        }
                    }
                }
            }
            // An outlet's button is the document's: its title or label may be set there.
            guard let declaration, Self.declaresButton(declaration),
                  declaration.ancestor(VariableDeclSyntax.self)?.attributes.contains(where: {
                      $0.as(AttributeSyntax.self)?.attributeName.sourceText == "IBOutlet"
                  }) != true else { continue }
            if namedAnywhere || !named.isDisjoint(with: names) { continue }
            // A function's own button that leaves it (returned, passed on) is named by its caller.
            let reachable = (local == nil || property != nil) && property?.ancestor(VariableDeclSyntax.self)?.modifiers
                .contains(where: { ["private", "fileprivate"].contains($0.name.text) }) != true
            let shown = names.sorted { $0.count > $1.count }.first ?? object
            // One finding per button, whatever states its images are set for.
            let owner = Syntax(call).enclosingTypeDecl?.declaredTypeName ?? ""
            guard reported.insert(owner + "." + shown + "@" + String(scope.map { local == nil ? 0 : $0.position.utf8Offset } ?? 0)).inserted
            else { continue }
            var redraw = ""
            if case .redrawn(let method) = kind { redraw = " (a symbol or asset redrawn by `\(method)`, which keeps no name)" }
            // Where the picture comes from is rarely in the same file (an icon set, a drawing
            // helper, a caller's argument), and a picture can carry a label of its own: a
            // person checks that nothing names the button.
            sink.report(call, """
                `\(shown)` shows only an image (`\(InputExcerpt.of(image.sourceText, limit: 50))`\(redraw)) and is given no \
                title or label\(reachable ? " in this file" : ""): VoiceOver says only "button", and Voice Control has no name to call it by
                """, certainty: .review)
        }
    }

    enum ButtonImage { case speaksItsName, redrawn(String), nameless }

    /// `UIImage(systemName:)` (also tinted or configured) speaks its symbol's label;
    /// `UIImage(named:)` and SwiftGen's `Asset.close.image` their asset name; `nil` clears the
    /// image. A symbol or asset passed through a method of the app's own (`.imageWithColor(…)`)
    /// is redrawn, and a redrawn picture has no name: a person checks. A local `let image = …`
    /// is read through.
    static func classify(_ image: ExprSyntax, _ file: SourceFile, depth: Int = 0) -> ButtonImage {
        if image.is(NilLiteralExprSyntax.self) { return .speaksItsName }
        if depth < 3, let reference = image.as(DeclReferenceExprSyntax.self),
           let bound = file.index.bindings[reference.baseName.text], bound.count == 1 {
            return classify(bound[0], file, depth: depth + 1)
        }
        let systemMethods: Set<String> = [
            "withTintColor", "withRenderingMode", "withConfiguration", "applyingSymbolConfiguration", "withBaselineOffset",
            "imageFlippedForRightToLeftLayoutDirection", "withAlignmentRectInsets", "resizableImage", "image",
        ]
        var root = image
        var redrawnBy: String?
        while true {
            // An image's own method (`.withRenderingMode`), or the app's method on an image value;
            // `Icons.play()` on a type is a factory, where the picture comes from.
            if let call = root.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               let base = member.base,
               systemMethods.contains(member.declName.baseName.text) || !(ExprSyntax.dottedName(base)?.first?.isUppercase ?? false) {
                let name = member.declName.baseName.text
                if !systemMethods.contains(name) { redrawnBy = redrawnBy ?? name }
                root = base
            } else if let member = root.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "image",
                      let base = member.base, ExprSyntax.dottedName(base)?.hasPrefix("Asset.") == true {
                return redrawnBy.map { .redrawn($0) } ?? .speaksItsName
            } else if let optional = root.as(OptionalChainingExprSyntax.self) {
                root = optional.expression
            } else if let forced = root.as(ForceUnwrapExprSyntax.self) {
                root = forced.expression
            } else {
                break
            }
        }
        // `#imageLiteral(resourceName:)`, `.more` (a generated `UIImage` member), R.swift's
        // `R.image.like()`: assets, read by their names.
        if root.is(MacroExpansionExprSyntax.self) { return redrawnBy.map { .redrawn($0) } ?? .speaksItsName }
        if let member = root.as(MemberAccessExprSyntax.self), member.base == nil { return redrawnBy.map { .redrawn($0) } ?? .speaksItsName }
        if let call = root.as(FunctionCallExprSyntax.self), let base = call.calleeBaseText, base.hasPrefix("R.image") {
            return redrawnBy.map { .redrawn($0) } ?? .speaksItsName
        }
        guard let call = root.as(FunctionCallExprSyntax.self),
              call.argument("systemName") != nil || call.argument("named") != nil || call.argument("resource") != nil
                || (call.calleeName == "UIImage" && call.arguments.first?.label == nil && call.arguments.count == 1) else {
            return .nameless
        }
        return redrawnBy.map { .redrawn($0) } ?? .speaksItsName
    }

    /// `let view = UIButton()`, `var close: UIButton!`, `let more = UIButton(type: .system)`.
    static func declaresButton(_ binding: PatternBindingSyntax) -> Bool {
        ["UIButton", "NSButton"].contains(binding.writtenTypeName ?? "")
    }

    /// `ActionableButton(text: "Continue")` where the app's `ActionableButton` makes itself one
    /// element (`.accessibilityElement(children: .ignore)`) that acts, and labels nothing (a fact
    /// of its file, `ViewComponents.namelessPrefix`): this control has no name unless this use
    /// gives it one.
    private func checkComponentUses(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in ViewComponents.uses(in: file, prefix: ViewComponents.namelessPrefix) {
            if AccessibilityLabels.labelsOrHides(ModifierChain(containing: ExprSyntax(call))) || Self.isNamedAround(call) { continue }
            let type = call.calleeName ?? ""
            let firstLine = call.sourceText.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? type
            sink.report(call, "`\(InputExcerpt.of(firstLine, limit: 60))` has no accessible name: `\(type)` makes itself one element that ignores its children's text (`.accessibilityElement(children: .ignore)`) and sets no accessibility label, so VoiceOver announces it with no name and Voice Control has none to call it by; give `\(type)` an `.accessibilityLabel` from its title")
        }
    }

    /// A container around `call` names, hides or groups it (`LabeledContent`, a label, a
    /// combined or ignoring element): its own lack of a name is not what VoiceOver reads.
    static func isNamedAround(_ call: FunctionCallExprSyntax) -> Bool {
        AccessibilityLabels.accessibilityContainers(of: call).contains { container in
            if container.calleeName == "LabeledContent" { return true }
            let containerChain = ModifierChain(containing: ExprSyntax(container))
            return AccessibilityLabels.labelsOrHides(containerChain) || containerChain.groupsChildren
        }
    }

    /// Picker styles that draw each option as a control of its own, named by the option.
    static let optionStyles: Set<String> = ["segmented", "radioGroup", "inline", "palette", "SegmentedPickerStyle",
                                            "RadioGroupPickerStyle", "InlinePickerStyle", "PalettePickerStyle"]

    /// Whether `.pickerStyle` on the picker or a container around it draws its options as controls.
    static func drawsOptionsAsControls(_ picker: FunctionCallExprSyntax) -> Bool {
        for call in [picker] + picker.enclosingViewCalls {
            guard let style = ModifierChain(containing: ExprSyntax(call)).modifiers.first(where: { $0.calleeName == "pickerStyle" }),
                  let argument = style.arguments.first?.expression else { continue }
            let name = argument.memberName ?? argument.as(FunctionCallExprSyntax.self)?.calleeName ?? argument.sourceText
            return optionStyles.contains(name)
        }
        return false
    }

    enum Verdict { case noLabel, emptyTitle, emptyTitleWithPrompt }

    /// Whether the control has no name, and how.
    static func nameless(_ control: FunctionCallExprSyntax, _ name: String) -> Verdict? {
        let first = control.arguments.first
        // `Toggle("", isOn:)`, `Picker("", selection:)`: an empty literal title.
        if let first, first.label == nil {
            guard let title = first.expression.stringLiteralValue else { return nil }
            guard title.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            if name == "TextField" || name == "SecureField", control.argument("prompt") != nil { return .emptyTitleWithPrompt }
            return .emptyTitle
        }
        // `label: Text("")` or `label: EmptyView()`, or a label closure.
        if let label = control.argument("label") { return isEmptyLabel(Syntax(label)) ? .emptyTitle : nil }
        if let closure = control.additionalTrailingClosures.first(where: { $0.label.text == "label" })?.closure {
            return isEmptyLabel(Syntax(closure)) ? .emptyTitle : nil
        }
        // A trailing closure is the label of a slider or stepper built from its value alone.
        if let closure = control.trailingClosure {
            return labelOnly.contains(name) && isEmptyLabel(Syntax(closure)) ? .emptyTitle : nil
        }
        // `Slider(value: $x, in: 0...1)`: no title, no label.
        return labelOnly.contains(name) && control.argument("value") != nil ? .noLabel : nil
    }

    /// A label that shows no words: `Text("")`, `EmptyView()`, nothing.
    static func isEmptyLabel(_ label: Syntax) -> Bool {
        let calls = SourceFile.callsInSubtree(of: label) + (label.as(FunctionCallExprSyntax.self).map { [$0] } ?? [])
        if calls.isEmpty { return label.is(ClosureExprSyntax.self) && label.as(ClosureExprSyntax.self)?.statements.isEmpty == true }
        return calls.allSatisfy { call in
            switch call.calleeName {
            case "EmptyView": true
            case "Text": call.arguments.first?.expression.stringLiteralValue?.trimmingCharacters(in: .whitespaces).isEmpty == true
            default: false
            }
        }
    }
}
