import AuditModel
import SwiftSyntax

/// `.system(size:)`, `Font.custom(_:fixedSize:)`, `UIFont.systemFont(ofSize:)` and friends:
/// a raw point size with no text style to scale against.
struct FixedFontSizeRule: SourceRule {
    let description = RuleDescription(
        id: "fixed-font-size",
        title: "Fixed font size does not scale with Dynamic Type",
        platforms: PlatformSet([.iOS, .tvOS, .visionOS, .watchOS]),
        kind: .recommendation,
        rationale: """
            A raw point size instead of a text style keeps text at one size whatever size people \
            choose in Settings. Body text at the largest accessibility size is about three times \
            its default size, so a fixed 17 pt label is a third of what a low-vision reader asked for. \
            macOS has no Dynamic Type, so macOS-only code is not flagged (text-below-minimum-size \
            still applies there).
            """,
        citations: [
            Citation("WWDC24 › Get started with Dynamic Type",
                     "Instead of providing a fixed font, your app selects one of the system-provided text styles… By using these styles, your app's text can automatically adjust to different sizes that someone may select on their device, but retain the visual hierarchy of your content."),
            Citation("UIKit › UIFont.systemFont(ofSize:)",
                     "Instead of using this method to get a font, it's often more appropriate to use preferredFont(forTextStyle:) because that method respects the user's selected content size category."),
            Citation("SwiftUI › Applying custom fonts to text",
                     "Font.custom(_:fixedSize:) is documented as 'a fixed size that does not scale with Dynamic Type.'"),
            Citation("HIG › Typography", "macOS doesn't support Dynamic Type."),
        ],
        fix: """
            Use a text style: `.font(.body)`, `.font(.system(.body, design: .rounded))`, \
            `Font.custom(name, size: 17, relativeTo: .body)`; in UIKit \
            `UIFont.preferredFont(forTextStyle: .body)` or \
            `UIFontMetrics(forTextStyle: .body).scaledFont(for: font)` with \
            `adjustsFontForContentSizeCategory = true`. A size computed elsewhere can be a \
            `@ScaledMetric` property.
            """,
        limitations: """
            A size passed through a variable is flagged unless the variable is a `@ScaledMetric` \
            property of the same file. Fonts built in helper functions in another file are judged \
            where the helper is written. Text in a bar (a toolbar, a navigation title view, or a \
            type the app names as a bar or a bar's item: `…TabBar`, `…TabViewItem`, `…TabButton`) \
            is for review: bar and tab titles are meant to keep their size, and the Large Content \
            Viewer shows them enlarged instead.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").font(↓.system(size: 17)) }
                }
                """),
            // The helper returns words, so the text is read.
            RuleExample("""
                import SwiftUI
                struct RankRow: View {
                    let rank: Int
                    var body: some View {
                        Text(place(for: rank)).font(↓.system(size: 14))
                    }
                    func place(for rank: Int) -> String {
                        rank == 1 ? "First" : "🥈"
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A screen a bar button opens is not in the bar.
            RuleExample("""
                import SwiftUI
                struct Feed: View {
                    var body: some View {
                        List { Text("Posts") }
                            .toolbar { ToolbarItem { NavigationLink { FeedSettings() } label: { Image(systemName: "gear") } } }
                    }
                }
                struct FeedSettings: View { var body: some View { Text("Sort order").font(↓.system(size: 13)) } }
                """),
            // A builder the body calls shows what it builds.
            RuleExample("""
                import SwiftUI
                struct PlanView: View {
                    var body: some View { badge() }
                    func badge() -> some View { Text("New").font(↓.system(size: 11)) }
                }
                """),
        ],
        nonTriggering: [
            // Fonts that size a symbol image, and sizes UIFontMetrics already scaled.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct AddRow: View {
                    var body: some View {
                        Image(systemName: "plus.circle").resizable().font(.system(size: 17)).frame(width: 20, height: 20)
                    }
                }
                struct Empty: View {
                    var body: some View {
                        VStack { Image(systemName: "tray").font(.system(size: 64)) }
                        Image(systemName: "star").font(.system(size: 12))
                        Button(action: {}) { Image(systemName: "xmark").font(.system(size: 14)).accessibilityHidden(true) }
                        Menu("More") { Button(action: {}) { Image(systemName: "trash").font(.system(size: 20)) } }
                        Link(destination: URL(string: "https://example.com")!) {
                            HStack { Text("Terms"); Image(systemName: "arrow.up.right").font(.system(size: 12)) }
                        }
                    }
                }
                let configuration = UIImage.SymbolConfiguration(font: .systemFont(ofSize: 22, weight: .semibold))
                let widgetTitle = Font.system(size: UIFontMetrics.default.scaledValue(for: 12))
                """),
            RuleExample("""
                import SwiftUI
                struct Badge: View {
                    @ScaledMetric private var size: CGFloat = 15
                    var body: some View { Text("2").font(.system(size: self.size)) }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").font(.system(.title, design: .rounded)) }
                }
                """),
            RuleExample("""
                import SwiftUI
                let a = Font.custom("Avenir", size: 17)
                let b = Font.custom("Avenir", size: 17, relativeTo: .headline)
                """),
            RuleExample("""
                import SwiftUI
                struct Badge: View {
                    @ScaledMetric(relativeTo: .body) var size: CGFloat = 17
                    var body: some View { Text("1").font(.system(size: size)) }
                }
                """),
            RuleExample("""
                import UIKit
                let base = UIFont(name: "Avenir", size: 17)!
                let scaled = UIFontMetrics(forTextStyle: .body).scaledFont(for: base)
                let direct = UIFontMetrics.default.scaledFont(for: UIFont.systemFont(ofSize: 17))
                """),
            RuleExample("""
                import AppKit
                let font = NSFont.systemFont(ofSize: 13)
                let other = Font.system(size: 13)
                """),
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                let font = Font.system(size: 13)
                #endif
                """),
            // Mac Catalyst code runs on the Mac, which has no Dynamic Type setting.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct ServerPicker: View {
                    var body: some View {
                        #if targetEnvironment(macCatalyst)
                        Text("Servers").font(.system(size: 12))
                        #endif
                    }
                }
                """),
            // A separator glyph between two texts is not read as text.
            RuleExample("""
                import SwiftUI
                struct Period: View {
                    var body: some View {
                        HStack {
                            Text(period)
                            Text("·").font(.system(size: 11))
                            Text(verbatim: "|").font(.system(size: 11))
                            Text(total)
                        }
                    }
                    let period = "Today", total = "4 kWh"
                }
                """),
            // An emoji in a picker grid is a picture, not text anyone reads.
            RuleExample("""
                import SwiftUI
                struct EmojiGrid: View {
                    let items: [Item]
                    var body: some View {
                        ForEach(items) { item in Text(verbatim: item.emoji).font(.system(size: 40)) }
                    }
                }
                """),
            // A rank medal: every string the helper returns is an emoji.
            RuleExample("""
                import SwiftUI
                struct RankRow: View {
                    let rank: Int
                    var body: some View {
                        Text(medal(for: rank)).font(.system(size: 14))
                    }
                    func medal(for rank: Int) -> String {
                        switch rank {
                        case 1: return "🥇"
                        case 2: return "🥈"
                        default: return "🥉"
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Clear 1 pt text that only names an icon button: nobody reads it.
            RuleExample("""
                import SwiftUI
                struct SettingsButton: View {
                    var body: some View {
                        Button {} label: {
                            ZStack {
                                Text("Settings").foregroundColor(.clear).font(.system(size: 1))
                                Image(systemName: "gearshape")
                            }
                        }
                    }
                }
                """),
            // Builders nothing calls, private or not: what they build never shows.
            RuleExample("""
                import SwiftUI
                struct PlanView: View {
                    var body: some View { Text("Plan").font(.body) }
                    @ViewBuilder private func oldHeader() -> some View { Text("Premium").font(.system(size: 13)) }
                    func legacyBadge() -> some View { Text("New").font(.system(size: 11)) }
                }
                """),
        ],
        needsReview: [
            // An SF Symbol at a fixed size as a button's only label.
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: {}) { Image(systemName: "play.fill").font(↓.system(size: 22)) }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // An item of the app's own tab bar: Apple keeps tab titles fixed ("they don't expect
            // the tab titles to increase in size") and offers the Large Content Viewer instead.
            RuleExample("""
                import SwiftUI
                struct TabViewItem: View {
                    let title: String
                    var body: some View {
                        VStack {
                            Image(systemName: "house")
                            Text(title).font(↓.system(size: 10, weight: .bold))
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A bar's principal title: the system's own bar titles keep their size.
            RuleExample("""
                import SwiftUI
                struct Detail: View {
                    var body: some View {
                        List { Text("Rows") }
                            .toolbar {
                                ToolbarItem(placement: .principal) { Text("Weight").font(↓.system(size: 17, weight: .semibold)) }
                            }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A view of its own put in a bar: by a toolbar item, or hosted as a UIKit bar's title view.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct ThreadTitle: View {
                    let title: String
                    var body: some View { Text(title).font(↓.system(size: 17, weight: .semibold)) }
                }
                final class ThreadController: UIViewController {
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        let host = UIHostingController(rootView: ThreadTitle(title: "Posts"))
                        navigationItem.titleView = host.view
                    }
                }
                struct Inbox: View {
                    var body: some View {
                        List { Text("Mail") }.toolbar { ToolbarItem(placement: .principal) { HStack { InboxTitle() } } }
                    }
                }
                struct InboxTitle: View { var body: some View { Text("Inbox").font(↓.system(size: 17, weight: .semibold)) } }
                """, platforms: PlatformSet(.iOS)),
            // The Dynamic Island's compact and minimal regions are sized by the system, and so is the view put there.
            RuleExample("""
                import SwiftUI
                import WidgetKit
                import ActivityKit
                func island(_ minutes: Int) -> DynamicIsland {
                    DynamicIsland {
                        DynamicIslandExpandedRegion(.center) { Text("Arrives in \\(minutes) min") }
                    } compactLeading: {
                        Text("\\(minutes)").font(↓.system(size: 13, weight: .bold))
                    } compactTrailing: {
                        Image(systemName: "bus")
                    } minimal: {
                        MinimalETA(minutes: minutes)
                    }
                }
                struct MinimalETA: View {
                    let minutes: Int
                    var body: some View { Text("\\(minutes)").font(↓.system(size: 12)) }
                }
                """),
            // Drawn into a fixed-size picture by `ImageRenderer` (a HUD texture): text size does not reach it.
            RuleExample("""
                import SwiftUI
                struct StatsSnapshot: View {
                    let fps: Int
                    var body: some View { Text("\\(fps) fps").font(↓.system(size: 11)) }
                }
                @MainActor func hudImage(fps: Int) -> CGImage? {
                    let view = StatsSnapshot(fps: fps)
                    let renderer = ImageRenderer(content: view)
                    renderer.proposedSize = ProposedViewSize(width: 240, height: 250)
                    return renderer.cgImage
                }
                """),
            // The branch a widget takes for a Lock Screen accessory family.
            RuleExample("""
                import SwiftUI
                import WidgetKit
                struct GlucoseView: View {
                    @Environment(\\.widgetFamily) var family
                    var body: some View {
                        switch family {
                        case .accessoryCircular: Text("112").font(↓.system(size: 25))
                        default: Text("112 mg/dL").font(.title)
                        }
                    }
                }
                """),
            // A Live Activity's small family (the watch's Smart Stack, CarPlay) is sized by the system.
            RuleExample("""
                import SwiftUI
                import WidgetKit
                struct GlucoseActivityView: View {
                    @Environment(\\.activityFamily) var activityFamily
                    var body: some View {
                        if activityFamily == .small {
                            Text("112").font(↓.system(size: 22, weight: .bold))
                        } else {
                            Text("112 mg/dL").font(.title)
                        }
                    }
                }
                """),
            // A widget offered only as a Lock Screen accessory: the system sizes it.
            RuleExample("""
                import SwiftUI
                import WidgetKit
                struct SensorGauge: View {
                    var body: some View { Text("Warmup").font(↓.system(size: 10)) }
                }
                struct SensorWidget: Widget {
                    var body: some WidgetConfiguration {
                        StaticConfiguration(kind: "sensor", provider: SensorProvider()) { _ in SensorGauge() }
                            .supportedFamilies([.accessoryCircular])
                    }
                }
                """),
            // Only tvOS runs it: Apple publishes one size per text style there.
            RuleExample("""
                import SwiftUI
                struct ShelfTitle: View {
                    var body: some View {
                        #if os(tvOS)
                        Text("Continue Playing").font(↓.system(size: 32))
                        #endif
                    }
                }
                """),
            // Already past 200% of the default body size.
            RuleExample("""
                import SwiftUI
                struct Countdown: View {
                    let seconds: Int
                    var body: some View {
                        Text("\\(seconds)").font(↓.system(size: 48, weight: .bold))
                    }
                }
                """),
            // An initial drawn where a site's icon is missing.
            RuleExample("""
                import SwiftUI
                struct SiteIcon: View {
                    let host: String
                    var body: some View {
                        Text(host.prefix(1).uppercased()).font(↓.system(size: 14, weight: .semibold)).frame(width: 28, height: 28)
                    }
                }
                """),
            // Shrunk to fit a fixed frame: the literal is a ceiling, not what is drawn.
            RuleExample("""
                import SwiftUI
                struct Initials: View {
                    let name: String
                    var body: some View {
                        Text(name.prefix(1)).font(↓.system(size: 200)).minimumScaleFactor(0.01).frame(width: 40, height: 40)
                    }
                }
                """),
            // Not on a `Text` in the same expression: the font may be a face carrier, re-applied on
            // text-size changes, or shown where text size does not apply; a person checks the use.
            RuleExample("""
                import SwiftUI
                let font = ↓Font.system(size: 20, weight: .bold)
                """),
            RuleExample("""
                import SwiftUI
                let font = ↓Font.custom("Avenir", fixedSize: 15)
                """),
            RuleExample("""
                import UIKit
                func style(_ label: UILabel) {
                    label.font = ↓UIFont.systemFont(ofSize: 14)
                    label.font = ↓.boldSystemFont(ofSize: 14)
                    label.font = ↓UIFont(name: "Avenir", size: 14)
                }
                """),
            RuleExample("""
                import SwiftUI
                #if os(iOS)
                let caption = ↓Font.system(size: 12)
                #endif
                """),
        ],
        corrections: [
            CorrectionExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").font(.system(size: 17)) }
                }
                """, """
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").font(.body) }
                }
                """, platforms: PlatformSet(.iOS)),
            // The weight is kept where the style's default weight differs; 17 pt semibold is the headline.
            CorrectionExample("""
                import SwiftUI
                struct Order: View {
                    var body: some View {
                        Text("Total").font(.system(size: 15, weight: .semibold))
                        Text("Paid").font(.system(size: 17, weight: .semibold))
                        Text("Due").font(.system(size: 17, weight: .bold, design: .rounded))
                        Text("Note").font(Font.system(size: 13, design: .serif))
                    }
                }
                """, """
                import SwiftUI
                struct Order: View {
                    var body: some View {
                        Text("Total").font(.subheadline.weight(.semibold))
                        Text("Paid").font(.headline)
                        Text("Due").font(.system(.body, design: .rounded).weight(.bold))
                        Text("Note").font(Font.system(.footnote, design: .serif))
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A label's font, with the line that makes it follow later text-size changes.
            CorrectionExample("""
                import UIKit
                final class ProfileCell: UITableViewCell {
                    let nameLabel = UILabel()
                    func configure(_ field: UITextField) {
                        nameLabel.font = UIFont.systemFont(ofSize: 15)
                        nameLabel.numberOfLines = 0
                        field.font = .systemFont(ofSize: 17, weight: .semibold) // the title
                    }
                }
                """, """
                import UIKit
                final class ProfileCell: UITableViewCell {
                    let nameLabel = UILabel()
                    func configure(_ field: UITextField) {
                        nameLabel.font = UIFont.preferredFont(forTextStyle: .subheadline)
                        nameLabel.adjustsFontForContentSizeCategory = true
                        nameLabel.numberOfLines = 0
                        field.font = .preferredFont(forTextStyle: .headline) // the title
                        field.adjustsFontForContentSizeCategory = true
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // No text style of that default size; a custom face; a size from a variable.
            .suggestionOnly("""
                import SwiftUI
                struct Badge: View {
                    let size: CGFloat
                    var body: some View {
                        Text("New").font(.system(size: 14))
                        Text("Sale").font(.custom("Avenir", fixedSize: 17))
                        Text("Hot").font(.system(size: size))
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Code that may build for watchOS or tvOS, whose text styles have other default sizes,
            // and UIKit code nothing says is iOS code.
            .suggestionOnly("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").font(.system(size: 17)) }
                }
                """),
            .suggestionOnly("""
                import UIKit
                func style(_ label: UILabel) {
                    label.font = UIFont.systemFont(ofSize: 17)
                }
                """),
            // `Font.title2` needs iOS 14, which nothing says the app requires.
            .suggestionOnly("""
                import SwiftUI
                struct Title: View {
                    var body: some View { Text("Hi").font(.system(size: 22)) }
                }
                """, platforms: PlatformSet(.iOS)),
            // Not a label's font statement, a bold face no text style has, or a flag set to false on purpose.
            .suggestionOnly("""
                import UIKit
                final class Header: UIView {
                    let titleLabel = UILabel()
                    let subtitle = UILabel()
                    func configure() {
                        let font = UIFont.systemFont(ofSize: 17)
                        titleLabel.font = font
                        titleLabel.font = .boldSystemFont(ofSize: 17)
                        subtitle.font = .systemFont(ofSize: 15)
                        subtitle.adjustsFontForContentSizeCategory = false
                    }
                }
                """, platforms: PlatformSet(.iOS)),
        ],
        concernsDynamicType: true
    )

    private static let uiFontSizeCalls: Set<String> = [
        "systemFont", "boldSystemFont", "italicSystemFont", "monospacedSystemFont", "monospacedDigitSystemFont",
    ]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let largestStyle = file.reference.iosTextStyleSizes["Large (default)"]?.values.max() ?? .infinity
        for call in file.index.calls(named: Self.uiFontSizeCalls.union(["system", "custom", "UIFont"])) {
            guard let (size, form) = Self.fixedSize(of: call) else { continue }
            // `size` or `self.size`, a `@ScaledMetric` property, scales with Dynamic Type.
            let sizeName = size.as(DeclReferenceExprSyntax.self)?.baseName.text
                ?? size.as(MemberAccessExprSyntax.self).flatMap { member in
                    member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" ? member.declName.baseName.text : nil
                }
            if let name = sizeName, file.index.scaledMetricNames.contains(name) {
                continue
            }
            if isScaledByFontMetrics(call, file) { continue }
            // `UIFontMetrics.default.scaledValue(for: 12)` is already the person's size.
            if let sizeCall = size.as(FunctionCallExprSyntax.self), sizeCall.calleeName == "scaledValue" { continue }
            // A font that sizes an SF Symbol is not text. A symbol scales with Dynamic Type
            // through a text style; one at a fixed size that is a control's only label does
            // not grow with it, which a person judges.
            if call.sizesSymbolImage {
                if let value = size.numberValue, let image = Self.meaningfulFixedSymbol(call, points: value, file) {
                    sink.report(call, "an SF Symbol at a fixed \(value.points) pt: unlike a symbol sized by a text style it "
                                + "will not grow with the text size people choose (judge whether `\(image)` carries meaning "
                                + "people need at large sizes)", certainty: .review)
                }
                continue
            }
            let value = size.numberValue.map { "\($0.points) pt" } ?? "`\(size.sourceText)`"
            // Sure only where a literal size is put on a `Text` directly. A font stored or assigned
            // elsewhere was often rescaled later on real apps (trait-change handlers, sizes from
            // `UIFontMetrics` passed in, 1 pt faces resized before drawing): a person must look.
            let text = Self.textOfFont(call)
            // A lone "·" or "|" between two labels is a separator, not text anyone reads.
            if let literal = text?.arguments.first.flatMap({ [nil, "verbatim"].contains($0.label?.text) ? $0.expression.stringLiteralValue : nil }),
               !literal.isEmpty, !literal.contains(where: { $0.isLetter || $0.isNumber }) { continue }
            // An emoji shown as a picture (`Text(item.emoji)` in a picker grid) is not read as text.
            if let content = text?.arguments.first?.expression, Self.namesEmoji(content) || Self.yieldsOnlyGlyphs(content, in: file) { continue }
            // Text nobody sees (clear, fully transparent, hidden): a name for a button's label, not text read.
            if let text, Self.isInvisible(ModifierChain(containing: ExprSyntax(text))) { continue }
            // Text shrunk to fit a fixed frame (`.minimumScaleFactor`) from a size above every
            // default text style (an avatar's initials at 200 pt): the literal is a ceiling, not
            // the size drawn; a person judges whether it must grow. A 14 pt that may only shrink stands.
            let shrinks = (size.numberValue ?? 0) > largestStyle
                && text.map { ModifierChain(containing: ExprSyntax($0)).has("minimumScaleFactor") } == true
            // Already twice the default body size: Apple asks text to grow to at least 200%, so
            // whether a 48 pt countdown must grow further is a person's call.
            let body = file.reference.iosTextStyleSizes["Large (default)"]?["body"] ?? 17
            let large = (size.numberValue ?? 0) >= 2 * body
            // One initial standing in for a missing picture (`Text(name.prefix(1))` in an avatar).
            let initial = text?.arguments.first.map { Self.isInitial($0.expression) } ?? false
            // The Dynamic Island's compact and minimal regions are sized by the system.
            let systemSized = file.buildsWidgets && SourceFile.isInSystemSizedRegion(call)
            // Text in a navigation bar or toolbar (a `.principal` title): the system's own bar
            // titles keep their size too, and Apple asks for the Large Content Viewer there.
            // So is text of the app's own bar or bar item, by its type's name (`TabViewItem`,
            // `BottomToolbar`): tab titles are meant to stay fixed.
            let owner: String? = Syntax(call).enclosingTypeDecl?.declaredTypeName
            let inBar = call.enclosingViewCalls.contains { SwiftUIHitRegion.barContainers.contains($0.calleeName ?? "") }
                || owner.map(Self.namesBarOrBarItem) == true
            let sure = size.numberValue != nil && text != nil && !shrinks && !large && !initial && !systemSized && !inBar
            var message = "\(form) fixes the text at \(value); it will not follow the text size people choose"
            if large { message += " (already at least twice the default body size: judge whether it must grow further)" }
            if initial { message += " (a single initial standing in for a picture: judge whether it is read as text)" }
            if systemSized { message += " (in a region the system sizes: judge on a device whether the text can and must grow there)" }
            if inBar { message += " (in a bar, whose own titles keep their size: check that the Large Content Viewer shows it instead)" }
            // Where the size is a decision of its own (a ceiling, an initial, a region or bar the
            // system sizes), growing with the text size is not a mechanical change.
            let correction = shrinks || large || initial || systemSized || inBar ? nil : Self.correction(call, size: size, file)
            // A view drawn into a picture, or placed in an area the system sizes, in another file's code.
            sink.report(call, message, certainty: sure ? nil : .review,
                        reviewIf: owner.map { [$0 + FileResult.offscreenMarker, $0 + FileResult.systemSizedMarker, $0 + FileResult.inBarMarker] } ?? [],
                        correction: correction)
        }
    }

    /// For `.font(.system(size:))` on `Image(systemName:)`: the symbol's name where the symbol
    /// is a control's only label, is not stretched by a frame (`.resizable()`), hidden, in a
    /// bar, a menu or a region the system sizes, nor already large.
    static func meaningfulFixedSymbol(_ font: FunctionCallExprSyntax, points: Double, _ file: SourceFile) -> String? {
        var node = Syntax(font).parent
        var modifier: FunctionCallExprSyntax?
        while let current = node, !current.is(CodeBlockItemSyntax.self), !current.is(DeclSyntax.self) {
            if let call = current.as(FunctionCallExprSyntax.self), call.calleeName == "font", call.isMemberCallWithBase {
                modifier = call
                break
            }
            node = current.parent
        }
        guard let modifier, let image = modifier.fontModifierRoot, image.calleeName == "Image",
              let name = image.argument("systemName")?.stringLiteralValue else { return nil }
        let body = file.reference.iosTextStyleSizes["Large (default)"]?["body"] ?? 17
        guard points < 2 * body else { return nil }
        let chain = ModifierChain(containing: ExprSyntax(image))
        guard !chain.has("resizable"), !chain.has("accessibilityHidden"), !chain.has("imageScale") else { return nil }
        let around = image.enclosingViewCalls
        if around.contains(where: { SwiftUIHitRegion.barContainers.contains($0.calleeName ?? "") }) { return nil }
        if file.buildsWidgets && SourceFile.isInSystemSizedRegion(font) { return nil }
        // A menu's items are drawn by the system, which sets their symbols' size.
        if ImageAssetNameSpokenRule.isMenuItem(image) { return nil }
        if let owner = Syntax(font).enclosingTypeDecl?.declaredTypeName, Self.namesBarOrBarItem(owner) { return nil }
        // A symbol beside text is read with it (an arrow on a link row, an icon before a
        // title): the text carries the meaning. The only label of a control is the control.
        let controls: Set<String> = ["Button", "Link", "NavigationLink", "Toggle", "Menu"]
        guard around.first.map({ controls.contains($0.calleeName ?? "") }) == true, !SwiftUIColorPairs.hasTextBeside(image) else {
            return nil
        }
        return name
    }

    /// A custom bar (`…TabBar`, `…Toolbar`: the Large Content Viewer rule's names) or an item of
    /// one (`…TabItem`, `…TabBarItem`, `…TabViewItem`, `…TabButton`, `…BarItem`, `…BarButton`).
    static func namesBarOrBarItem(_ name: String) -> Bool {
        (LargeContentViewerMissingRule.barSuffixes + ["TabItem", "TabViewItem", "TabButton", "BarItem", "BarButton"])
            .contains { name.hasSuffix($0) }
    }

    // MARK: - The text style of the same default size

    /// SwiftUI's text styles that came after iOS 13 (`Font.title2`, `.title3`, `.caption2`: iOS 14).
    private static let swiftUIStylesSinceIOS14: Set<String> = ["title2", "title3", "caption2"]

    /// The edit to the text style whose default size (Apple's Dynamic Type table, "Large") is the
    /// literal size, on code the project, the config or an `#if os(iOS)` says only iOS/iPadOS
    /// builds (other platforms' text styles have other sizes): `.system(size: 17)` → `.body`, `.system(size: 15, weight: .semibold)` →
    /// `.subheadline.weight(.semibold)`, `.system(size: 17, weight: .bold, design: .rounded)` →
    /// `.system(.body, design: .rounded).weight(.bold)`, and a label's
    /// `UIFont.systemFont(ofSize: 15)` → `UIFont.preferredFont(forTextStyle: .subheadline)` with
    /// `adjustsFontForContentSizeCategory` set on the next line. Where two styles share the size
    /// (body and headline, 17 pt), the one whose default weight is the weight asked for; a weight
    /// no style has by default is kept explicitly (SwiftUI) or leaves the fix a suggestion (UIKit).
    static func correction(_ call: FunctionCallExprSyntax, size: ExprSyntax, _ file: SourceFile) -> SourceCorrection? {
        // Stated, not guessed from `import UIKit` (which tvOS code has too).
        guard file.platforms(at: call) == PlatformSet(.iOS), file.platformsAreDeclared(at: call), let points = size.numberValue,
              let name = call.calleeName else { return nil }
        let candidates = file.reference.iosTextStyles(ofDefaultSize: points).compactMap { file.reference.iosTextStyles[$0] }
        guard !candidates.isEmpty else { return nil }
        let labels = call.argumentLabels
        let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base.map { $0.sourceText + "." } ?? "."
        // A weight or design is kept as written only when it names a case (`.bold`, `Font.Weight.bold`):
        // a variable may be an optional, which the text-style forms do not take.
        guard let weight = CaseArgument(call, "weight"), let design = CaseArgument(call, "design") else { return nil }
        let asked = weight.name ?? "regular"
        let style = candidates.first { $0.weight == asked } ?? candidates.first { $0.weight == "regular" } ?? candidates[0]
        let keptWeight = style.weight == asked ? nil : weight.text ?? ".regular"
        let sizeText = "\(points.points) pt"
        switch name {
        case "system" where call.calleeBaseText == nil || call.calleeBaseText == "Font":
            guard [["size"], ["size", "weight"], ["size", "design"], ["size", "weight", "design"]].contains(labels),
                  !swiftUIStylesSinceIOS14.contains(style.swiftUIName) || file.context.deploymentTargets.guarantees(.iOS, [14]) else { return nil }
            var replacement = base + (design.text.map { "system(.\(style.swiftUIName), design: \($0))" } ?? style.swiftUIName)
            if let keptWeight { replacement += ".weight(\(keptWeight))" }
            return SourceCorrection("Use `\(replacement)`: the text style whose default size is \(sizeText), which follows the person's text size",
                                    replacing: call, with: replacement)
        case "systemFont" where call.calleeBaseText == nil || call.calleeBaseText == "UIFont":
            guard labels == ["ofSize"] || labels == ["ofSize", "weight"], keptWeight == nil,
                  let assignment = file.index.assignments.first(where: { $0.value.count == 1 && $0.value[0].id == ExprSyntax(call).id }),
                  FontCorrections.setsTextViewFont(assignment, file) else { return nil }
            let replacement = base + "preferredFont(forTextStyle: .\(style.uiKitName))"
            var edits = [SourceCorrection.Edit(range: call.codeOffsets, replacement: replacement)]
            switch FontCorrections.flagValue(for: assignment.targetObject, around: assignment.node, file) {
            case nil:
                guard let insertion = FontCorrections.flagInsertion(after: assignment) else { return nil }
                edits.append(insertion)
            case true?: break
            case false?: return nil // set to false on purpose: the text would still not follow
            }
            return SourceCorrection("Use `\(replacement)` (\(sizeText) at the default size) and let the view follow text-size changes",
                                    edits)
        default:
            return nil
        }
    }

    /// A `weight:` or `design:` argument: absent (both `nil`), or a case as written and its name.
    private struct CaseArgument {
        var text: String?
        var name: String?

        /// `nil` for an argument that is not a plain case.
        init?(_ call: FunctionCallExprSyntax, _ label: String) {
            guard let expression = call.argument(label) else { return }
            guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil else { return nil }
            text = expression.sourceText
            name = member.declName.baseName.text
        }
    }

    /// `.foregroundColor(.clear)`, `.foregroundStyle(.clear)`, `.opacity(0)`, `.hidden()`.
    static func isInvisible(_ chain: ModifierChain) -> Bool {
        chain.modifiers.contains { modifier in
            switch modifier.calleeName {
            case "foregroundColor", "foregroundStyle": modifier.arguments.first?.expression.memberName == "clear"
            case "opacity": modifier.arguments.first?.expression.numberValue == 0
            case "hidden": modifier.arguments.isEmpty
            default: false
            }
        }
    }

    /// `name.prefix(1)`, `String(name.prefix(1))`, `title.first.map(String.init)`: one letter.
    static func isInitial(_ expression: ExprSyntax) -> Bool {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if call.calleeName == "prefix", call.arguments.first?.expression.numberValue == 1 { return true }
            if call.calleeName == "String", let inner = call.arguments.first?.expression { return isInitial(inner) }
            if call.calleeName == "uppercased" || call.calleeName == "map",
               let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base { return isInitial(base) }
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "first" { return true }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return isInitial(optional.expression) }
        return false
    }

    /// `Text(medal(for: rank))` where every string `medal` can return is a glyph ("🥇", "·", ""):
    /// a picture or a mark, not text anyone reads.
    static func yieldsOnlyGlyphs(_ expression: ExprSyntax, in file: SourceFile) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.calledExpression.is(DeclReferenceExprSyntax.self),
              let name = call.calleeName, let body = file.index.soleFunction(named: name)?.body else { return false }
        let collector = ResultCollector(viewMode: .sourceAccurate)
        collector.walk(body)
        // Every string in it is a glyph, and every `return` hands one back (or the body is a
        // `switch` of them, returned implicitly).
        return !collector.literals.isEmpty && collector.literals.allSatisfy { literal in
            literal.segments.allSatisfy { segment in
                guard let text = segment.as(StringSegmentSyntax.self)?.content.text else { return false }
                return !text.contains { $0.isLetter || $0.isNumber }
            }
        } && collector.returns.allSatisfy { $0.expression?.is(StringLiteralExprSyntax.self) == true }
    }

    private final class ResultCollector: SyntaxVisitor {
        var returns: [ReturnStmtSyntax] = []
        var literals: [StringLiteralExprSyntax] = []
        override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
            returns.append(node)
            return .visitChildren
        }
        override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
            literals.append(node)
            return .skipChildren
        }
    }

    /// `emoji`, `item.emoji`, `category.emojiSymbol`: the text is an emoji by its name.
    static func namesEmoji(_ expression: ExprSyntax) -> Bool {
        let name = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? expression.as(DeclReferenceExprSyntax.self)?.baseName.text
        return name?.lowercased().contains("emoji") == true
    }

    /// The size argument and a short name of the API, when `call` makes a fixed-size font.
    static func fixedSize(of call: FunctionCallExprSyntax) -> (ExprSyntax, String)? {
        let name = call.calleeName
        let base = call.calleeBaseText
        if name == "system", base == nil || base == "Font", let size = call.argument("size") {
            return (size, "`.system(size:)`")
        }
        if name == "custom", base == nil || base == "Font", let size = call.argument("fixedSize") {
            return (size, "`Font.custom(_:fixedSize:)`")
        }
        if let name, uiFontSizeCalls.contains(name), base == nil || base == "UIFont", let size = call.argument("ofSize") {
            return (size, "`UIFont.\(name)(ofSize:)`")
        }
        if name == "UIFont", call.argument("name") != nil, let size = call.argument("size") {
            return (size, "`UIFont(name:size:)`")
        }
        return nil
    }

    /// The `Text(…)` in `Text(…).font(<this>)`, through other modifiers of the same `Text`.
    static func textOfFont(_ call: FunctionCallExprSyntax) -> FunctionCallExprSyntax? {
        guard let argument = call.parent?.as(LabeledExprSyntax.self),
              let modifier = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
              let root = modifier.fontModifierRoot, root.calleeName == "Text" else { return nil }
        return root
    }

    /// `UIFontMetrics(…).scaledFont(for: <this>)`, directly or through a `let` it initialises.
    private func isScaledByFontMetrics(_ call: FunctionCallExprSyntax, _ file: SourceFile) -> Bool {
        var node = Syntax(call).parent
        while let current = node, !current.is(CodeBlockItemSyntax.self) {
            if let outer = current.as(FunctionCallExprSyntax.self), outer.calleeName == "scaledFont" { return true }
            if let binding = current.as(PatternBindingSyntax.self),
               let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                return file.index.calls(named: "scaledFont").contains { outer in
                    outer.argument("for").map { Assignment.objectName($0) == name } == true
                }
            }
            node = current.parent
        }
        return false
    }
}
