import AuditModel
import Foundation
import SwiftSyntax

/// Text styled as a title at the top of a stack, without the header trait: VoiceOver's rotor
/// cannot jump to it, and the section it heads has no heading.
struct HeadingMissingTraitRule: SourceRule {
    let description = RuleDescription(
        id: "heading-missing-trait",
        title: "Visual title without the header trait",
        kind: .recommendation, certainty: .review,
        rationale: """
            A `Text` in a title style (`.largeTitle`, `.title`, `.title2`, `.title3`) that opens a \
            stack reads as the heading of what follows it. Without the header trait VoiceOver \
            reads it as plain text: people using the rotor to move by heading skip it, and the \
            screen's structure is visible only to those who can see it. Whether it heads a \
            section is a person's call, so these are findings to review.
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Offer unique titles and accurate section headings. … Support the rotor so people can jump by heading and link."),
        ],
        fix: """
            `.accessibilityAddTraits(.isHeader)` on the title (or `.accessibilityHeading(.h2)` on \
            macOS); a `Section { … } header: { Text(…) }` or a navigation title gets the trait \
            from the system.
            """,
        limitations: """
            Only SwiftUI `Text` that opens a `VStack`, `LazyVStack`, `Section` content, \
            `ScrollView` or `Form` (or opens an icon-and-title row that does) is judged, and only \
            in a title text style, a fixed size as large as `title3` in semibold or heavier, or in \
            capitals (a section label), or in bold (not in a caption, \
            footnote or a size under 14 pt) where it opens the stack that is a view's whole \
            `body` (through `Group`s): a sheet's or a screen's title; other bold text and smaller or \
            lighter fixed sizes are not. A UIKit `UILabel` is judged by the font its file assigns \
            (a title text style, or a semibold or heavier fixed size as large as `title3`), outside \
            cells and views that are one accessibility element, unless its name says it shows a \
            value or the file sets its traits, hides it or makes it a bar's title view; where it \
            sits on screen is not known. The one label of a section header view (a \
            `UITableViewHeaderFooterView` subclass, or a class named `…SectionHeader…`, \
            `…HeaderCell`, `…HeaderViewCell`) is judged whatever its font. Text inside a control's label, a toolbar, a \
            section header or an alert is left alone, as is text in a view whose callers add \
            the trait (not followed across files).
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct ProfileCard: View {
                    var body: some View {
                        VStack(alignment: .leading) {
                            ↓Text("Latest followers").font(.title3).bold()
                            Text("Ada, Grace and 3 more")
                        }
                        VStack(spacing: 8) {
                            ↓Text("LATEST FOLLOWERS").font(.footnote.weight(.semibold))
                            Text("Ada")
                        }
                        VStack {
                            HStack {
                                Image(systemName: "checkmark.circle.fill")
                                ↓Text("Screen Recording Enabled").font(.title2.bold())
                            }
                            Text("TRex can capture text")
                        }
                    }
                }
                """),
            // A title drawn in a fixed size as large as `title3`, in semibold.
            RuleExample("""
                import SwiftUI
                struct WizardIntro: View {
                    let title: String
                    var body: some View { content }
                    var content: some View {
                        VStack(alignment: .leading, spacing: 8) {
                            ↓Text(title).font(.system(size: 20, weight: .semibold))
                            Text("Three steps to set up the helper").font(.system(size: 13))
                        }
                    }
                }
                """),
            // A name built from parts is a title too, and a tap that dismisses the keyboard on
            // the whole screen does not make the screen a card.
            RuleExample("""
                import SwiftUI
                struct ProfileHeader: View {
                    let first: String, last: String
                    @State private var bio = ""
                    var body: some View {
                        ScrollView {
                            VStack(alignment: .leading) {
                                ↓Text("\\(first) \\(last)").font(.system(size: 22, weight: .bold))
                                TextField("Bio", text: $bio)
                            }
                        }
                        .onTapGesture { hideKeyboard() }
                    }
                    func hideKeyboard() {}
                }
                """),
            // Bold text opening the stack that is a view's whole body: the sheet's title.
            RuleExample("""
                import SwiftUI
                struct ChangePasswordPrompt: View {
                    @State private var old = ""
                    var body: some View {
                        VStack {
                            Group {
                                ↓Text("Change the master password").bold()
                                SecureField("Current password", text: $old)
                            }
                            Button("Change") { }
                        }
                    }
                }
                """),
            // UIKit: a label in a title text style, or a heavy fixed size as large as title3,
            // outside a cell, with no header trait in its file.
            RuleExample("""
                import UIKit
                final class WelcomeViewController: UIViewController {
                    private let titleLabel: UILabel = {
                        let label = UILabel()
                        ↓label.font = .preferredFont(forTextStyle: .title1)
                        label.text = "Welcome to Trails"
                        return label
                    }()
                    private let sectionLabel = UILabel()
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        ↓sectionLabel.font = UIFontMetrics(forTextStyle: .title2).scaledFont(for: .systemFont(ofSize: 22, weight: .bold))
                        sectionLabel.text = "Nearby"
                        view.addSubview(titleLabel)
                        view.addSubview(sectionLabel)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A section header view's one label heads its section, in any font.
            RuleExample("""
                import UIKit
                final class TrailsSectionHeaderView: UITableViewHeaderFooterView {
                    let titleLabel = UILabel()
                    override init(reuseIdentifier: String?) {
                        super.init(reuseIdentifier: reuseIdentifier)
                        ↓titleLabel.font = .preferredFont(forTextStyle: .subheadline)
                        contentView.addSubview(titleLabel)
                    }
                    required init?(coder: NSCoder) { fatalError() }
                }
                final class GroupHeaderViewCell: UITableViewCell {
                    private let nameLabel = UILabel()
                    func configure() { ↓nameLabel.font = .preferredFont(forTextStyle: .footnote) }
                }
                """, platforms: PlatformSet(.iOS)),
        ],
        nonTriggering: [
            // UIKit labels that are not a section's heading or already carry the trait: a
            // cell's title, a value shown large, a bar's title view, a label marked as a header,
            // text in a view that is one accessibility element, body-sized or light text.
            RuleExample("""
                import UIKit
                final class TrailCell: UITableViewCell {
                    let nameLabel = UILabel()
                    func configure() { nameLabel.font = .preferredFont(forTextStyle: .title2) }
                }
                final class TrailsFooterView: UITableViewHeaderFooterView {
                    let noteLabel = UILabel()
                    func configure() { noteLabel.font = .preferredFont(forTextStyle: .footnote) }
                }
                final class RecentSectionHeader: UICollectionReusableView {
                    let titleLabel: UILabel = {
                        let label = UILabel()
                        label.font = .preferredFont(forTextStyle: .headline)
                        label.accessibilityTraits.insert(.header)
                        return label
                    }()
                }
                final class HeaderWithTwoLabels: UITableViewHeaderFooterView {
                    let titleLabel = UILabel(), countLabel = UILabel()
                    func configure() {
                        titleLabel.font = .preferredFont(forTextStyle: .subheadline)
                        countLabel.font = .preferredFont(forTextStyle: .caption1)
                    }
                }
                final class SummaryViewController: UIViewController {
                    let distanceValueLabel = UILabel()
                    let titleLabel = UILabel()
                    let headerLabel = UILabel()
                    let bodyLabel = UILabel()
                    let lightLabel = UILabel()
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        distanceValueLabel.font = .systemFont(ofSize: 34, weight: .bold)
                        titleLabel.font = .preferredFont(forTextStyle: .headline)
                        navigationItem.titleView = titleLabel
                        headerLabel.font = .preferredFont(forTextStyle: .title1)
                        headerLabel.accessibilityTraits.insert(.header)
                        bodyLabel.font = .preferredFont(forTextStyle: .body)
                        lightLabel.font = .systemFont(ofSize: 24, weight: .light)
                    }
                }
                final class BadgeView: UIView {
                    let caption = UILabel()
                    func setUp() {
                        isAccessibilityElement = true
                        caption.font = .preferredFont(forTextStyle: .title3)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // On a TV a 24 pt semibold label is smaller than body text: a field's caption, not a title.
            RuleExample("""
                import SwiftUI
                struct ServerForm: View {
                    @State private var url = ""
                    var body: some View {
                        VStack(alignment: .leading) {
                            Text("Server URL").font(.system(size: 24, weight: .semibold))
                            TextField("https://", text: $url)
                        }
                    }
                }
                """, platforms: PlatformSet(.tvOS)),
            // Bold in a small font is a label's emphasis; bold text further down the body, or in
            // a stack that is not the body, is not its title.
            RuleExample("""
                import SwiftUI
                struct ExpiryHint: View {
                    var body: some View {
                        VStack(spacing: 3) {
                            Text("Link expires in 1 day").font(.system(size: 10, weight: .heavy))
                            Slider(value: .constant(1), in: 0...3)
                        }
                    }
                }
                struct Summary: View {
                    var body: some View {
                        VStack {
                            Text("Plan")
                            Text("Pro").bold()
                        }
                        .overlay { VStack { Text("New").bold(); Text("since May") } }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Settings: View {
                    let monthCount = 12
                    let total: Int? = 30
                    func showPromo() {}
                    var body: some View {
                        VStack {
                            Text("Account").font(.title2).accessibilityAddTraits(.isHeader)
                            Text("Signed in")
                        }
                        VStack {
                            Text("Privacy").font(.title).accessibilityHeading(.h2)
                            Button { } label: { VStack { Text("Export").font(.title3); Text("All data") } }
                        }
                        VStack {
                            Text("Details")
                            Text("Big number").font(.largeTitle)
                        }
                        VStack {
                            Text("NEW")
                            Text("Arrivals")
                        }
                        VStack {
                            Text("".uppercased())
                            Text("Words")
                        }
                        VStack {
                            Text("Your recovery phrase is stored on this device only.").font(.title3)
                            Text("Words")
                        }
                        // Large but regular, or heavy but smaller than a title: a value and a label.
                        VStack {
                            Text("42").font(.system(size: 34))
                            Text("Steps")
                        }
                        VStack {
                            Text("Total").font(.system(size: 17, weight: .semibold))
                            Text("12 items")
                        }
                        // A number over its caption, and a card that is one tap target.
                        VStack {
                            HStack { Image("calendar"); Text("\\(monthCount)").font(.system(size: 22, weight: .bold)) }
                            Text("Months subscribed")
                        }
                        VStack {
                            Text(Strings.gemCap(total ?? 0, 50)).font(.system(size: 20, weight: .bold))
                            Text("Gems you can buy this month")
                        }
                        HStack {
                            VStack {
                                Text("Gift one, get one").font(.system(size: 22, weight: .bold))
                                Text("Until Friday")
                            }
                        }
                        .onTapGesture { showPromo() }
                        Form {
                            Section { Text("x") } header: { VStack { Text("Sync").font(.title3) } }
                        }
                    }
                }
                """),
        ]
    )

    static let titleStyles: Set<String> = ["largeTitle", "title", "title2", "title3"]
    static let stacks: Set<String> = ["VStack", "LazyVStack", "Section", "ScrollView", "Form"]
    /// Containers whose content is a control's label, a bar, a header the system marks, or a presentation.
    static let excluded: Set<String> = ["Button", "NavigationLink", "Link", "Menu", "Toggle", "Label", "Picker", "toolbar",
                                        "ToolbarItem", "ToolbarItemGroup", "alert", "confirmationDialog", "contextMenu",
                                        "navigationBarItems", "tabItem", "DisclosureGroup"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for label in UIKitTitleLabel.find(file) {
            sink.report(label.fontAssignment.node,
                        "`\(label.name)` is a UIKit label drawn in \(label.style), styled as a title, but nothing in this file gives it the header trait: "
                            + "VoiceOver reads it as plain text and the rotor cannot jump to it; if it heads the screen or a section, "
                            + "add `.header` to its `accessibilityTraits`")
        }
        for text in file.index.calls(named: "Text") where text.calledExpression.is(DeclReferenceExprSyntax.self) {
            let chain = ModifierChain(containing: ExprSyntax(text))
            guard chain.root.as(FunctionCallExprSyntax.self)?.id == text.id else { continue }
            let style = chain.modifiers.last(where: { $0.calleeName == "font" })?.arguments.first.flatMap { Self.textStyle(of: $0.expression) }
            let titled = style.map(Self.titleStyles.contains) ?? false
            // A fixed size written as large as a title style, in a heavy weight: a title drawn by hand.
            let sized = !titled && Self.isTitleSized(chain, file, at: text)
            let capitals = Self.isCapitalisedLabel(text, chain)
            // Bold text that opens a view's whole body is its title (a sheet's or a screen's).
            let boldTitle = !titled && !sized && !capitals && Self.isBold(chain) && !Self.isSmall(chain) && Self.opensBody(chain.outermost)
            guard titled || sized || capitals || boldTitle, !Self.isNotATitle(text),
                  !chain.modifiers.contains(where: { ["accessibilityAddTraits", "accessibilityHeading", "accessibilityHidden", "hidden"].contains($0.calleeName ?? "") }),
                  !chain.addedTraits.contains("isHeader"),
                  boldTitle || Self.opensStack(chain.outermost), !AccessibilityLabels.isInPreview(text) else { continue }
            let containers = text.enclosingViewCalls
            if containers.contains(where: { Self.excluded.contains($0.calleeName ?? "") }) { continue }
            // A card that is one tap target (one of the two stacks nearest the title): its title
            // heads nothing beyond the card. A tap on a whole screen's scroll view (to dismiss
            // the keyboard) does not make its titles a card's.
            if containers.prefix(2).contains(where: { container in
                ["VStack", "HStack", "ZStack"].contains(container.calleeName ?? "") && ModifierChain(containing: ExprSyntax(container)).has("onTapGesture")
            }) { continue }
            if Self.isValue(text) { continue }
            // A `Section`'s `header:` content is marked as its heading by the system.
            if containers.contains(where: { container in
                container.calleeName == "Section" && (container.argument("header").map { Syntax($0) }
                    ?? container.additionalTrailingClosures.first(where: { $0.label.text == "header" }).map { Syntax($0.closure) })
                    .map { ($0.position.utf8Offset..<$0.endPosition.utf8Offset).contains(text.position.utf8Offset) } ?? false
            }) { continue }
            let how = titled ? "in `.\(style ?? "title")`, styled as a title"
                : sized ? "in a heavy font as large as a title style, styled as a title"
                : capitals ? "in capitals, styled as a section label" : "in bold at the top of the view's body, styled as its title"
            sink.report(text, "`\(InputExcerpt.of(text.sourceText, limit: 50))` opens its stack \(how), but has no header trait: VoiceOver reads it as plain text and the rotor cannot jump to it; if it heads what follows, add `.accessibilityAddTraits(.isHeader)`")
        }
    }

    /// The text style a font expression names: `.title2`, `.title2.bold()`, `.system(.title2)`.
    /// A loop, not recursion: the chain's length is the input's.
    static func textStyle(of font: ExprSyntax) -> String? {
        var current = font
        while true {
            if let call = current.as(FunctionCallExprSyntax.self) {
                if call.calleeName == "system", let first = call.arguments.first, first.label == nil { return first.expression.memberName }
                guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return nil }
                current = base
            } else if let member = current.as(MemberAccessExprSyntax.self), let base = member.base, base.sourceText != "Font" {
                current = base
            } else {
                return current.memberName
            }
        }
    }

    /// Literal text no heading holds: nothing (`""`), or a sentence (eight words or more, or a
    /// full stop at the end).
    static func isNotATitle(_ text: FunctionCallExprSyntax) -> Bool {
        guard let argument = text.arguments.first?.expression else { return false }
        let literal = argument.stringLiteralValue
            ?? argument.as(FunctionCallExprSyntax.self).flatMap { $0.calledExpression.as(MemberAccessExprSyntax.self)?.base?.stringLiteralValue }
        guard let literal else { return false }
        let trimmed = literal.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.split(separator: " ").count >= 8 || trimmed.hasSuffix(".")
    }

    /// A number shown large (`Text("\(count ?? 0)")`, `"\(used) / \(gemCapTotal)"`, a localised
    /// format of the app's strings fed with numbers such as `L10n.gemCap(total ?? 0, 50)`): a
    /// value with its caption, not a title. Interpolated names (`"\(first) \(last)"`) are not.
    static func isValue(_ text: FunctionCallExprSyntax) -> Bool {
        guard let argument = text.arguments.first, argument.label == nil else { return false }
        func isNumber(_ expression: ExprSyntax) -> Bool {
            if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self) { return true }
            // `count ?? 0`: unfolded, a `??` and a number last.
            if let sequence = expression.as(SequenceExprSyntax.self), let last = sequence.elements.last, last.is(IntegerLiteralExprSyntax.self),
               sequence.elements.contains(where: { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" }) { return true }
            // A name that says it counts: `count`, `gemCapTotal`, `numberOfItems`.
            let name = (expression.memberName ?? expression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? "").lowercased()
            return ["count", "total", "number", "amount"].contains { name.contains($0) }
        }
        if let literal = argument.expression.as(StringLiteralExprSyntax.self) {
            let segments = literal.segments
            let plain = segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
            let values = segments.compactMap { $0.as(ExpressionSegmentSyntax.self) }
            return !values.isEmpty && !plain.contains(where: \.isLetter)
                && values.allSatisfy { $0.expressions.first.map { isNumber($0.expression) } ?? false }
        }
        // A generated strings accessor (`L10n.…`, `Strings.…`) given a number.
        if let call = argument.expression.as(FunctionCallExprSyntax.self),
           let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(DeclReferenceExprSyntax.self),
           base.baseName.text.first?.isUppercase == true {
            return call.arguments.contains { isNumber($0.expression) }
        }
        return false
    }

    /// A section label in capitals: `.textCase(.uppercase)`, `Text(title.uppercased())`, or a
    /// literal of at least two words or six letters, all capitals ("LATEST FOLLOWERS").
    static func isCapitalisedLabel(_ text: FunctionCallExprSyntax, _ chain: ModifierChain) -> Bool {
        if chain.modifiers.contains(where: { $0.calleeName == "textCase" && $0.arguments.first?.expression.memberName == "uppercase" }) { return true }
        guard let argument = text.arguments.first, argument.label == nil else { return false }
        if let call = argument.expression.as(FunctionCallExprSyntax.self), call.calleeName == "uppercased" { return true }
        guard let literal = argument.expression.stringLiteralValue else { return false }
        let letters = literal.filter(\.isLetter)
        return letters.count >= 6 || (letters.count >= 4 && literal.contains(" ")) ? letters.allSatisfy(\.isUppercase) : false
    }

    /// Whether `expression` is the first view of a stack's closure (`VStack { Text(…); … }`), or
    /// the first text of a row that is (`VStack { HStack { Image(…); Text(…) }; … }`). A loop up
    /// through such rows, not recursion: how deep they nest is the input's.
    static func opensStack(_ expression: ExprSyntax) -> Bool {
        var current = expression
        while true {
            guard let item = current.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
                  let closure = list.parent?.as(ClosureExprSyntax.self), let call = owner(of: closure), let name = call.calleeName else { return false }
            if stacks.contains(name) { return list.first?.id == item.id && list.count > 1 }
            // A title row: an icon and the title, the row opening a stack.
            guard name == "HStack", list.count <= 3,
                  list.prefix(while: { $0.id != item.id }).allSatisfy({ $0.item.as(ExprSyntax.self).flatMap { ModifierChain(containing: $0).root.as(FunctionCallExprSyntax.self)?.calleeName } == "Image" })
            else { return false }
            current = ModifierChain(containing: ExprSyntax(call)).outermost
        }
    }

    /// `.bold()`, `.fontWeight(.bold)` (or heavier), `.font(.headline)`, `.font(.body.bold())`.
    static func isBold(_ chain: ModifierChain) -> Bool {
        let heavy: Set<String> = ["bold", "heavy", "black"]
        for modifier in chain.modifiers {
            switch modifier.calleeName {
            case "bold": if modifier.arguments.isEmpty || modifier.arguments.first?.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true) { return true }
            case "fontWeight": if let weight = modifier.arguments.first?.expression.memberName, heavy.contains(weight) { return true }
            case "font":
                guard let font = modifier.arguments.first?.expression else { continue }
                if font.memberName == "headline" { return true }
                if let call = font.as(FunctionCallExprSyntax.self), call.calleeName == "bold" { return true }
                if let call = font.as(FunctionCallExprSyntax.self), let weight = call.argument("weight")?.memberName, heavy.contains(weight) { return true }
            default: continue
            }
        }
        return false
    }

    /// `.font(.system(size: 20, weight: .semibold))`: a fixed size at least that of the
    /// `title3` style on every platform the code builds for (20 pt on iOS, 15 pt on the Mac, from
    /// Apple's tables), in semibold or heavier; code built only for a TV, a watch or visionOS is not judged.
    static func isTitleSized(_ chain: ModifierChain, _ file: SourceFile, at text: FunctionCallExprSyntax) -> Bool {
        guard let font = chain.modifiers.last(where: { $0.calleeName == "font" })?.arguments.first?.expression.as(FunctionCallExprSyntax.self),
              font.calleeName == "system", let size = font.argument("size")?.numberValue,
              let weight = font.argument("weight")?.memberName, ["semibold", "bold", "heavy", "black"].contains(weight) else { return false }
        let platforms = file.platforms(at: Syntax(text))
        // Apple's tables give iOS's and the Mac's sizes; a TV's or a watch's titles are of
        // another scale (tvOS body text is larger than an iPhone's title3): code only they
        // build is not judged.
        guard !platforms.isDisjoint(with: PlatformSet([.iOS, .macOS])) else { return false }
        var threshold = 0.0
        if platforms.contains(.macOS) { threshold = max(threshold, file.reference.macosTextStyleSizes["title3"] ?? .infinity) }
        if platforms.contains(.iOS) {
            threshold = max(threshold, file.reference.iosTextStyleSizes["Large (default)"]?["title3"] ?? .infinity)
        }
        return threshold > 0 && size >= threshold
    }

    /// A small font (`.caption`, `.footnote`, a size under 14 pt): bold in it is a label's
    /// emphasis, not a title.
    static func isSmall(_ chain: ModifierChain) -> Bool {
        guard let font = chain.modifiers.last(where: { $0.calleeName == "font" })?.arguments.first?.expression else { return false }
        if let style = textStyle(of: font) { return ["caption", "caption2", "footnote"].contains(style) }
        if let call = font.as(FunctionCallExprSyntax.self), let size = call.argument("size")?.numberValue { return size < 14 }
        return false
    }

    /// Whether the expression opens the stack that is a view's whole `body` (through `Group`s
    /// it opens), with more in the stack after it.
    static func opensBody(_ expression: ExprSyntax) -> Bool {
        var current = expression
        var opensAStack = false
        while true {
            guard let item = current.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return false }
            if let closure = list.parent?.as(ClosureExprSyntax.self) {
                guard let call = owner(of: closure), let name = call.calleeName, list.first?.id == item.id,
                      name == "Group" || ["VStack", "LazyVStack", "ScrollView", "Form"].contains(name) else { return false }
                if name != "Group" {
                    guard list.count > 1 else { return false }
                    opensAStack = true
                }
                current = ModifierChain(containing: ExprSyntax(call)).outermost
                continue
            }
            // `var body: some View { VStack { … } }`: the stack is the body.
            guard opensAStack, list.count == 1 else { return false }
            // The getter's statements, in `{ … }` or `get { … }`.
            var node = list.parent
            while let parent = node, !parent.is(PatternBindingSyntax.self) {
                guard parent.is(AccessorBlockSyntax.self) || parent.is(CodeBlockSyntax.self) || parent.is(AccessorDeclSyntax.self)
                        || parent.is(AccessorDeclListSyntax.self) else { return false }
                node = parent.parent
            }
            return node?.as(PatternBindingSyntax.self)?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
        }
    }

    static func owner(of closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        var node = closure.parent
        while let current = node, !current.is(FunctionCallExprSyntax.self) { node = current.parent }
        return node?.as(FunctionCallExprSyntax.self)
    }
}
