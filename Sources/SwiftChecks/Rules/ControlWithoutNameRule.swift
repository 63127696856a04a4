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
            name at all.
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
            { Text("Volume") }`, or `.accessibilityLabel("Volume")`.
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
            let firstLine = control.trimmedDescription.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
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

    /// `ActionableButton(text: "Continue")` where the app's `ActionableButton` makes itself one
    /// element (`.accessibilityElement(children: .ignore)`) that acts, and labels nothing (a fact
    /// of its file, `ViewComponents.namelessPrefix`): this control has no name unless this use
    /// gives it one.
    private func checkComponentUses(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in ViewComponents.uses(in: file, prefix: ViewComponents.namelessPrefix) {
            if AccessibilityLabels.labelsOrHides(ModifierChain(containing: ExprSyntax(call))) || Self.isNamedAround(call) { continue }
            let type = call.calleeName ?? ""
            let firstLine = call.trimmedDescription.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? type
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
            let name = argument.memberName ?? argument.as(FunctionCallExprSyntax.self)?.calleeName ?? argument.trimmedDescription
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
