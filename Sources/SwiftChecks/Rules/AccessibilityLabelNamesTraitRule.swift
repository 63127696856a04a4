import AuditModel
import SwiftSyntax

/// A label that says what kind of element it is: `"Play button"`, `"Profile image"`,
/// `"Button: Play"`. VoiceOver announces the kind from the trait, so it is said twice.
struct AccessibilityLabelNamesTraitRule: SourceRule {
    let description = RuleDescription(
        id: "accessibility-label-names-trait",
        title: "Accessibility label names the element's type",
        kind: .recommendation,
        rationale: """
            VoiceOver reads an element's label and then its trait: a button is announced as \
            "Play, button". A label that already contains the type ("Play button", "Profile \
            image", "Close icon", "Settings tab", "Image of a cat", "Button: Play") is heard \
            as "Play button, button": repetition a listener has to sit through on every element.
            """,
        citations: [
            Citation("SwiftUI › accessibilityLabel(_:)",
                     "Don't include text in the label that repeats information that users already have. For example, don't use the label 'Play button' because a button already has a trait that identifies it as a button."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Redundant trait in labels: .accessibilityLabel(\"Settings button\") reads as \"Settings button, button.\" Omit the type."),
        ],
        fix: """
            Drop the type word: `"Play"`, not `"Play button"`; `"Profile"`, not `"Profile image"`; \
            `"A cat"`, not `"Image of a cat"`. If the element is not announced with the right type, \
            add the trait (`.accessibilityAddTraits(.isButton)`, `.isImage`, `.isHeader`, `.isLink`) \
            instead of saying it in the label.
            """,
        limitations: """
            Only English type words are recognised, as whole words (so "Buttonhole" and "Iconic" \
            are not matches): button, image, icon, picture, graphic, tab, link, heading, toggle, \
            slider, checkbox/check box, text field. "Button" is reported wherever it occurs; the \
            other words only as the first word followed by a separator or "of" ("Image of …", \
            "Tab: …"), as the last word, or alone, and not when the label starts with a verb that \
            acts on that thing ("Add image", "Copy link", "Close tab", "New tab"). A label \
            whose literal is a key the project's strings tables define is not checked: \
            VoiceOver reads the translation. Labels built from variables or helper functions are \
            not read; interpolated labels are judged on their literal words.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityLabel(↓"Play button")
                        Image("avatar").accessibilityLabel(↓"Profile image")
                        Image("x").accessibilityLabel(↓Text("Close Icon"))
                        Image("cat").accessibility(label: ↓Text("Image of a cat"))
                    }
                    func play() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Tabs: View {
                    let name: String
                    var body: some View {
                        Image(systemName: "gear").accessibilityLabel(↓"Settings tab")
                        Image(systemName: "play").accessibilityLabel(↓"Button: Play")
                        Image(systemName: "trash").accessibilityLabel(↓"Delete \\(name) button")
                        Text("Terms").accessibilityLabel(↓"Terms of service link")
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class Controls {
                    let play = UIButton()
                    let volume = UISlider()
                    let dark = UISwitch()
                    func configure() {
                        play.accessibilityLabel = ↓"Play Button"
                        volume.accessibilityLabel = ↓"Volume slider"
                        dark.accessibilityLabel = ↓"Dark mode toggle"
                    }
                }
                """),
            RuleExample("""
                import AppKit
                func configure(_ field: NSTextField, _ box: NSButton) {
                    field.setAccessibilityLabel(↓"Email text field")
                    box.setAccessibilityLabel(↓"Remember me checkbox")
                }
                """),
        ],
        nonTriggering: [
            // A test identifier put in the label: accessibility-label-raw-identifier reports it.
            RuleExample("""
                import SwiftUI
                struct PinControl: View {
                    var body: some View {
                        Image(systemName: "pin").onTapGesture { }.accessibilityLabel("pin-unpin-button")
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityLabel("Play")
                        Image("avatar").accessibilityLabel("Profile")
                        Image("cat").accessibilityLabel(Text("A cat asleep on a sofa"))
                    }
                    func play() {}
                }
                """),
            // Type words inside longer words, as the thing acted on, or not at an edge.
            RuleExample("""
                import UIKit
                func configure(_ a: UIView) {
                    a.accessibilityLabel = "Buttonhole stitch"
                    a.accessibilityLabel = "Iconic landmarks"
                    a.accessibilityLabel = "Tablet"
                    a.accessibilityLabel = "Add image"
                    a.accessibilityLabel = "Change app icon"
                    a.accessibilityLabel = "Copy link"
                    a.accessibilityLabel = "Close tab"
                    a.accessibilityLabel = "New tab"
                    a.accessibilityLabel = "Image gallery"
                    a.accessibilityLabel = "Images"
                    a.accessibilityLabel = "Toggle dark mode"
                    a.accessibilityLabel = "Linked accounts"
                }
                """),
            // The trait belongs in traits; naming it there is right.
            RuleExample("""
                import SwiftUI
                struct Heading: View {
                    var body: some View {
                        Text("Settings").accessibilityAddTraits(.isHeader)
                        Image("logo").accessibilityLabel("Acme").accessibilityAddTraits(.isImage)
                    }
                }
                """),
            RuleExample("""
                import AppKit
                func configure(_ view: NSButton) {
                    view.setAccessibilityLabel("Play")
                    view.setAccessibilityRoleDescription("button")
                }
                """),
        ],
        corrections: [
            CorrectionExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityLabel("Play button")
                        Image("avatar").accessibilityLabel(Text("Profile Image"))
                        Image("cat").accessibility(label: Text("Image of a cat"))
                        Image(systemName: "play").accessibilityLabel("Button: Play")
                    }
                    func play() {}
                }
                """, """
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: play) { Image(systemName: "play.fill") }
                            .accessibilityLabel("Play")
                        Image("avatar").accessibilityLabel(Text("Profile"))
                        Image("cat").accessibility(label: Text("a cat"))
                        Image(systemName: "play").accessibilityLabel("Play")
                    }
                    func play() {}
                }
                """),
            CorrectionExample("""
                import UIKit
                func configure(_ volume: UISlider, _ email: UITextField) {
                    volume.accessibilityLabel = "Volume slider"
                    email.accessibilityLabel = "Email text field"
                }
                """, """
                import UIKit
                func configure(_ volume: UISlider, _ email: UITextField) {
                    volume.accessibilityLabel = "Volume"
                    email.accessibilityLabel = "Email"
                }
                """),
            // Translation sources, interpolation, a lone type word, the word inside the label.
            .suggestionOnly("""
                import UIKit
                func configure(_ play: UIButton, _ row: UIView, name: String) {
                    play.accessibilityLabel = NSLocalizedString("Play button", comment: "")
                    play.accessibilityLabel = String(localized: "Play button")
                    row.accessibilityLabel = "Delete \\(name) button"
                    play.accessibilityLabel = "Button"
                    play.accessibilityLabel = "Tap button to play"
                }
                """),
        ]
    )

    private struct TypeWord {
        /// Verbs that, as the label's first word, make the type word the object acted on.
        let actions: Set<String>
        /// Reported wherever it appears, not only at an edge.
        var anywhere = false
        /// Reported when it is the whole label.
        var alone = false
    }

    private static let imageActions: Set<String> = [
        "add", "remove", "delete", "edit", "crop", "rotate", "save", "share", "upload", "download", "choose",
        "select", "change", "replace", "attach", "insert", "copy", "take", "view", "open", "enlarge", "zoom",
        "reset", "new", "set", "update", "customize", "customise", "hide", "show", "flip", "print", "scan",
        "capture", "generate", "pick",
    ]

    private static let typeWords: [String: TypeWord] = [
        "button": TypeWord(actions: [], anywhere: true, alone: true),
        "image": TypeWord(actions: imageActions, alone: true),
        "icon": TypeWord(actions: imageActions, alone: true),
        "picture": TypeWord(actions: imageActions, alone: true),
        "graphic": TypeWord(actions: imageActions, alone: true),
        "tab": TypeWord(actions: ["close", "new", "open", "add", "switch", "reopen", "pin", "unpin", "move",
                                  "duplicate", "insert", "remove", "delete", "rename", "select", "next",
                                  "previous", "show", "hide"]),
        "link": TypeWord(actions: ["copy", "share", "open", "insert", "add", "remove", "edit", "send", "paste",
                                   "delete", "new", "create", "follow", "visit", "generate", "get"]),
        "heading": TypeWord(actions: ["add", "edit", "insert", "new", "remove", "delete"]),
        "toggle": TypeWord(actions: []),
        "slider": TypeWord(actions: []),
        "checkbox": TypeWord(actions: ["check", "uncheck", "tick"]),
        "check box": TypeWord(actions: ["check", "uncheck", "tick"]),
        "text field": TypeWord(actions: ["clear", "focus"]),
        "textfield": TypeWord(actions: ["clear", "focus"]),
    ]

    /// Words that may follow a type word at the start without it being the label's subject
    /// ("Image of a cat").
    private static let ofWords: Set<String> = ["image", "icon", "picture", "graphic"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for label in AccessibilityLabels.explicit(in: file) {
            if label.isTranslated(in: file) { continue }
            guard let word = Self.namedType(in: label.text) else { continue }
            // "pin-unpin-button" is an identifier read aloud, which
            // accessibility-label-raw-identifier reports; whether a trait repeats it is beside the point.
            if !label.hasInterpolation, AccessibilityLabelRawIdentifierRule.identifierShape(label.text) != nil { continue }
            sink.report(label.node, "\(label.subject) is \"\(label.display)\", which names the element's type (\"\(word)\"); VoiceOver already announces the type from the trait, so it is heard twice",
                        correction: Self.correction(label))
        }
    }

    /// The literal without its type word (`"Play button"` → `"Play"`), for a plain one-line
    /// literal read as written or as a key no table translates. Not for a translation's source
    /// (`NSLocalizedString`, `String(localized:)`): translators work from that text.
    private static func correction(_ label: LabelLiteral) -> SourceCorrection? {
        guard !label.hasInterpolation, !label.isTranslationSource, label.literal.openingQuote.tokenKind == .stringQuote,
              label.literal.segments.count == 1, let segment = label.literal.segments.first?.as(StringSegmentSyntax.self),
              !segment.content.text.contains("\\"), let text = withoutTypeWord(segment.content.text) else { return nil }
        return SourceCorrection("Drop the type word: \"\(text)\"", replacing: segment.content, with: text)
    }

    /// Separators that may set a type word off from the rest ("Button: Play", "Play - button").
    private static let separatorCharacters: Set<Character> = [" ", ":", "-", "–", "—", ",", "|"]

    /// "Play button" → "Play", "Button: Play" → "Play", "Image of a cat" → "a cat": the type word
    /// and the separator joining it to the rest removed, the rest's case kept. `nil` where the
    /// word is not at an edge, something other than a separator stands next to it, or nothing
    /// would be left.
    static func withoutTypeWord(_ text: String) -> String? {
        let words = tokens(text)
        guard let index = typeWordIndex(words), words.count > 1 else { return nil }
        let removed: Range<String.Index>
        if index == 0 {
            let rest = words[1].text == "of" && ofWords.contains(words[0].text) ? 2 : 1
            guard rest < words.count, words[0].range.lowerBound == text.startIndex else { return nil }
            removed = words[0].range.lowerBound..<words[rest].range.lowerBound
        } else if index == words.count - 1 {
            guard words[index].range.upperBound == text.endIndex else { return nil }
            removed = words[index - 1].range.upperBound..<words[index].range.upperBound
        } else {
            return nil
        }
        guard text[removed].allSatisfy({ $0.isLetter || $0.isNumber || separatorCharacters.contains($0) }) else { return nil }
        var result = text
        result.removeSubrange(removed)
        return result.contains(where: { $0.isLetter || $0.isNumber }) && namedType(in: result) == nil ? result : nil
    }

    private struct Token {
        let text: String
        /// The characters between the previous token and this one.
        let separatorBefore: String
        /// Where the word is in the label's text.
        let range: Range<String.Index>
    }

    /// Letter/digit runs (the interpolation placeholder counts as a word), lower-cased, with
    /// two-word type names joined.
    private static func tokens(_ text: String) -> [Token] {
        var result: [Token] = []
        var current = ""
        var separator = ""
        var start = text.startIndex
        func flush(at end: String.Index) {
            guard !current.isEmpty else { return }
            result.append(Token(text: current.lowercased(), separatorBefore: separator, range: start..<end))
            current = ""
            separator = ""
        }
        for index in text.indices {
            let character = text[index]
            if character.isLetter || character.isNumber || character == LabelLiteral.placeholder {
                if current.isEmpty { start = index }
                current.append(character)
            } else {
                flush(at: index)
                separator.append(character)
            }
        }
        flush(at: text.endIndex)
        // "text field", "check box" are one type name.
        var joined: [Token] = []
        for token in result {
            if let last = joined.last, token.separatorBefore == " ",
               (last.text == "text" && token.text == "field") || (last.text == "check" && token.text == "box") {
                joined[joined.count - 1] = Token(text: last.text + " " + token.text, separatorBefore: last.separatorBefore,
                                                 range: last.range.lowerBound..<token.range.upperBound)
            } else {
                joined.append(token)
            }
        }
        return joined
    }

    /// The type word the label names, if any.
    static func namedType(in text: String) -> String? {
        let words = tokens(text)
        return typeWordIndex(words).map { words[$0].text }
    }

    /// Which of `words` names the element's type, if any.
    private static func typeWordIndex(_ words: [Token]) -> Int? {
        guard let first = words.first, let last = words.last else { return nil }
        if words.count == 1 {
            return typeWords[first.text]?.alone == true ? 0 : nil
        }
        // "Button: Play", "Image - sunset", "Image of a cat".
        if typeWords[first.text] != nil {
            let next = words[1]
            let separator = AccessibilityLabels.trimmed(next.separatorBefore)
            if [":", "-", "–", "—", ",", "|", "("].contains(where: { separator.hasPrefix($0) }) { return 0 }
            if next.text == "of", ofWords.contains(first.text) { return 0 }
        }
        // "Play button", "Profile image", "Settings tab", but not "Add image", "Close tab".
        if let type = typeWords[last.text], !type.actions.contains(first.text) { return words.count - 1 }
        return words.firstIndex { typeWords[$0.text]?.anywhere == true }
    }
}
