import AuditModel
import ColorAssets
import SwiftSyntax

/// A foreground/background pair below WCAG's minimum in an appearance, and still below it with
/// Increase Contrast on: nothing the person can switch on makes it readable.
struct InsufficientContrastRule: SourceRule {
    let description = RuleDescription(
        id: "insufficient-contrast",
        title: "Contrast below the minimum, even with Increase Contrast",
        category: .colorAsset,
        kind: .requirement, certainty: .review,
        rationale: """
            Colours are resolved for light, dark, light + increased contrast and dark + increased \
            contrast (asset catalogs, system colours, literals), and each pair is judged by WCAG 2.x \
            (SC 1.4.3: 4.5:1, large text of 18 pt or 14 pt bold 3:1; SC 1.4.11: 3:1 for non-text \
            indicators). Apple's table is stated beside it, named as such: it accepts bold text of \
            any size at 3:1, so an 11 pt bold label at 3.3:1 meets Apple's table and fails WCAG. \
            When no background is set, the system background of each appearance is assumed, and \
            the message says so. A pair that passes once Increase Contrast is on is \
            contrast-relies-on-increase-contrast instead.
            """,
        citations: [
            Citation("HIG › Accessibility, Vision",
                     "Accessibility Inspector uses the following values from WCAG Level AA as guidance in determining whether your app's colors have an acceptable contrast."),
            Citation("HIG › Accessibility",
                     "If your app doesn't provide this minimum contrast by default, ensure it at least provides a higher contrast color scheme when the system setting Increase Contrast is turned on."),
            Citation("HIG › Accessibility",
                     "If your app supports dark mode, make sure to check the minimum contrast in both light and dark appearances."),
        ],
        fix: """
            Darken or lighten the colour in the failing appearance (in the asset catalog, the well \
            named in the message), or give the colour set an increased-contrast variant that \
            reaches the ratio; prefer system colours, which adapt on their own.
            """,
        limitations: """
            Every finding needs review: on real apps the real container was often not the one in \
            the file (a background image, a parent's colour, a forced appearance, attributed text \
            replacing the text colour; docs/accuracy.md). \
            Only pairs whose colours are written in the file, in its asset catalogs, or as the \
            app's own constants on a colour type in any Swift file (`extension Color { static \
            var black40: Color { .init(red: 0.57, green: 0.57, blue: 0.57) } }`, a name no two \
            files give different values), a namespace's constants (`Palette.text`), or a colour \
            type of the app's own whose cases name colour sets (`BeamColor.Niobium.swiftUI`, \
            believed only when every case it declares is a set of the catalogs and the converter \
            maps a case to its set by name without changing it) are judged: \
            colours passed in as parameters, gradients, materials, images behind text and \
            view-wide `.opacity` are not. Text size is the text style at the default size \
            (Large) unless a fixed size is set; the system background is Apple's base level, not \
            the elevated one of sheets. A colour set named like a system colour is read the way \
            Xcode's generated symbols make Swift read it: `Color.x` and `.x` in SwiftUI mean the set \
            unless `Color` has an `x` of its own (`.secondary`, `.red`), `UIColor.x`/`NSColor.x` \
            unless UIKit or AppKit has one (`.label`), and `Color(.x)` means the set; \
            `.foregroundStyle(.background)` with a "Background" set is ambiguous to Swift and does \
            not build, and is read as the set. A name several catalogs define is taken from the \
            catalog in the folder nearest the Swift file (an app's and its extensions' own \
            catalogs); target membership in the Xcode project is not read, so a file shared by two \
            targets is judged against one of them, and the scan notes every such name.
            """,
        triggering: [
            // The increased-contrast variant is worse than the default: it fails for exactly the
            // people who turned the setting on.
            RuleExample("""
                import SwiftUI
                let note = Text("Note").foregroundStyle(↓Color("Inverted"))
                """, assets: ["Assets.xcassets/Inverted.colorset/Contents.json":
                    ContrastReliesOnIncreaseContrastRule.set(light: "0.200", dark: "0.867", lightHigh: "0.600", darkHigh: "0.933")]),
            RuleExample("""
                import SwiftUI
                struct Price: View {
                    var body: some View {
                        Text("Sale").foregroundStyle(↓Color(red: 0.6, green: 0.6, blue: 0.6)).background(Color.white)
                    }
                }
                """),
            // 11 pt bold at 3.5:1: meets Apple's table (bold, any size), fails WCAG (under 14 pt bold).
            RuleExample("""
                import SwiftUI
                let badge = Text("NEW")
                    .font(.system(size: 11, weight: .bold))
                    .foregroundStyle(↓Color(red: 0.533, green: 0.533, blue: 0.533))
                    .background(Color.white)
                """),
            // Grey on the (assumed) system background: fine in light, fails in dark.
            RuleExample("""
                import SwiftUI
                struct Footer: View {
                    var body: some View { Text("v1.2").font(.footnote).foregroundStyle(↓Color("Caption")) }
                }
                """, assets: ["Assets.xcassets/Caption.colorset/Contents.json": InsufficientContrastRule.captionSet]),
            // A "Background" colour set: `Color(.background)` is Xcode's generated symbol for it,
            // not the system background (on which this grey would pass in every appearance).
            RuleExample("""
                import SwiftUI
                let caption = Text("Caption").foregroundStyle(↓Color(white: 0.463)).background(Color(.background))
                """, assets: ["Assets.xcassets/Background.colorset/Contents.json":
                    ContrastReliesOnIncreaseContrastRule.set(light: "0.600", dark: "0.600", lightHigh: "0.600", darkHigh: "0.600")]),
            RuleExample("""
                import UIKit
                final class Cell: UITableViewCell {
                    let hint = UILabel()
                    func configure() {
                        ↓hint.textColor = UIColor(white: 0.7, alpha: 1)
                        hint.backgroundColor = .white
                    }
                }
                """),
            // A colour the app declares in another file (a design-system token) is its value.
            RuleExample("""
                import SwiftUI
                struct FirmwareHint: View {
                    var body: some View {
                        Text("Firmware version").font(.system(size: 12)).foregroundColor(↓.black40).background(Color.white)
                    }
                }
                """, assets: ["Sources/Common/Colors.swift": InsufficientContrastRule.tokens]),
            // The app's own colour type whose cases name colour sets, declared in another file,
            // and a namespace's constants built from it or from a set: each is the set it names.
            RuleExample("""
                import SwiftUI
                struct EditedRow: View {
                    var body: some View {
                        VStack {
                            Text("Edited").foregroundColor(↓Palette.Generic.subtitle.swiftUI).background(Palette.Generic.window.swiftUI)
                            Text("Draft").foregroundColor(↓Palette.Stone.swiftUI).background(Color.white)
                            Text("Hint").foregroundStyle(↓Theme.hint).background(Color.white)
                        }
                    }
                }
                """, assets: InsufficientContrastRule.palette),
            // The app's accent colour (an orange `AccentColor` set with no dark or
            // increased-contrast variant) is the tint of a default button's title.
            RuleExample("""
                import SwiftUI
                struct Troubleshoot: View {
                    var body: some View {
                        Form {
                            Button(action: upload) { ↓Text("Upload debug bundle") }
                            Text("Create a new bundle").foregroundColor(↓.accentColor)
                        }
                    }
                    func upload() {}
                }
                """, assets: ["Assets.xcassets/AccentColor.colorset/Contents.json": InsufficientContrastRule.orangeAccent]),
            // A selection checkmark in the accent colour beside its row's text shows the state;
            // a type's own `let color` is its value, though another type declares a `color` too.
            RuleExample("""
                import SwiftUI
                struct Networks: View {
                    let names: [String]
                    @State private var chosen: Set<String> = []
                    var body: some View {
                        List(names, id: \\.self) { name in
                            HStack {
                                Text(name)
                                Image(systemName: "checkmark.circle.fill")
                                    .foregroundColor(↓chosen.contains(name) ? .accentColor : Color.clear)
                            }
                        }
                    }
                }
                struct OpeningButton: View {
                    private let color: Color = .accentColor
                    var body: some View { Text("Opening…").foregroundColor(↓color) }
                }
                struct ActionButton: View {
                    let color: Color
                    var body: some View { Text("Open").foregroundColor(color) }
                }
                // A symbol shown only while its row is chosen; a destructive title, drawn in the
                // system red (3.6:1 on the dark grey; the orange accent would pass at 4.9:1).
                struct Tasks: View {
                    let done: Bool
                    var body: some View {
                        HStack {
                            Text("Water the plants")
                            if done { Image(systemName: "circle.fill").foregroundColor(↓Color(red: 1, green: 0.95, blue: 0.4)) }
                        }
                        ↓Button("Delete", role: .destructive) { }
                            .background(Color(red: 0.2, green: 0.2, blue: 0.2))
                    }
                }
                """, assets: ["Assets.xcassets/AccentColor.colorset/Contents.json": InsufficientContrastRule.orangeAccent]),
            // The selected branch's white text on the selected branch's pink.
            RuleExample("""
                import UIKit
                final class ChannelCell: UICollectionViewCell {
                    let titleLabel = UILabel()
                    func configure(selected: Bool) {
                        backgroundColor = selected ? UIColor(red: 0.98, green: 0.38, blue: 0.4, alpha: 1) : UIColor.clear
                        ↓titleLabel.textColor = selected ? UIColor.white : UIColor.label
                    }
                }
                """),
        ],
        nonTriggering: [
            // With an orange accent colour: a destructive button's title is the system red; a
            // symbol beside the text of its row is not what names it; a title the app's own
            // style modifier colours; a filled shape the view's background property draws
            // behind its content; a stored colour of this type, not another type's `color`.
            RuleExample("""
                import SwiftUI
                struct Settings: View {
                    var body: some View {
                        Form {
                            Button("Delete all", role: .destructive) { }
                            Button(action: {}) {
                                HStack {
                                    Image(systemName: "server.rack").foregroundColor(.accentColor)
                                    Text("Change server").foregroundColor(.primary)
                                }
                            }
                            Button(action: {}) { Text("Start").roundedButtonStyle() }
                        }
                    }
                }
                struct Card: View {
                    var body: some View { Text("Card").padding().background(background) }
                    private var background: some View { Capsule().fill(Color.accentColor) }
                }
                struct Ring: View {
                    private let color: Color = .accentColor
                    var body: some View { Circle().shadow(color: color, radius: 2) }
                }
                struct Meter: View {
                    let color: Color
                    var body: some View { RoundedRectangle(cornerRadius: 4).stroke(color, lineWidth: 2) }
                }
                // A closure's parameter is not the file's `let` of the same name.
                let tone = Color(red: 1, green: 0.95, blue: 0.4)
                struct Palette: View {
                    let tones: [Color]
                    var body: some View { ForEach(tones, id: \\.self) { tone in Text("Aa").foregroundColor(tone) } }
                }
                """, assets: ["Assets.xcassets/AccentColor.colorset/Contents.json": InsufficientContrastRule.orangeAccent]),
            // Xcode's template accent colour (a set with no colour) is the system blue: the
            // system's own pairing.
            RuleExample("""
                import SwiftUI
                struct Troubleshoot: View {
                    var body: some View {
                        Form { Button(action: upload) { Text("Upload debug bundle") } }
                    }
                    func upload() {}
                }
                """, assets: ["Assets.xcassets/AccentColor.colorset/Contents.json": #"{ "colors" : [ { "idiom" : "universal" } ], "info" : { "author" : "xcode", "version" : 1 } }"#]),
            // One condition picks both colours: black is on white, the label colour on no
            // background of the cell's own (white label on white is never shown).
            RuleExample("""
                import UIKit
                final class ChannelCell: UICollectionViewCell {
                    let titleLabel = UILabel()
                    func configure(selected: Bool) {
                        backgroundColor = selected ? UIColor.white : UIColor.clear
                        titleLabel.textColor = selected ? UIColor.black : UIColor.label
                    }
                }
                """),
            // The same type's dark case; a converter that changes the colour (`faded`), a colour
            // type one of whose cases is no colour set (`Shade.mist` may be anything), and a
            // case chosen at run time are not known.
            RuleExample("""
                import SwiftUI
                struct EditedRow: View {
                    let palette: Palette
                    var body: some View {
                        VStack {
                            Text("Edited").foregroundColor(Palette.Generic.text.swiftUI).background(Palette.Generic.window.swiftUI)
                            Text("Faded").foregroundColor(Palette.Ink.faded).background(Color.white)
                            Text("Mist").foregroundColor(Shade.mist.color).background(Color.white)
                            Text("Chosen").foregroundColor(palette.swiftUI).background(Color.white)
                        }
                    }
                }
                """, assets: InsufficientContrastRule.palette),
            // Tokens: one dark enough; one two files give different values, and one a `static var`
            // anyone can reassign, are not known.
            RuleExample("""
                import SwiftUI
                struct Tokens: View {
                    var body: some View {
                        VStack {
                            Text("Body").foregroundColor(.black80).background(Color.white)
                            Text("Brand").foregroundColor(.brand).background(Color.white)
                            Text("Faint").foregroundStyle(Color.faint).background(Color.white)
                        }
                    }
                }
                """, assets: ["Sources/Common/Colors.swift": InsufficientContrastRule.tokens,
                              "Sources/Other/Brand.swift": "import SwiftUI\nextension Color {\n    static let brand = Color(white: 0.2)\n}\n"]),
            // Bars draw their own backgrounds; a label added to a dark header sits on the header.
            RuleExample("""
                import UIKit
                final class Feed: UIViewController {
                    let header = UIView()
                    let headerLabel = UILabel()
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        view.backgroundColor = .white
                        navigationController?.navigationBar.tintColor = .white
                        header.backgroundColor = .black
                        header.addSubview(headerLabel)
                        headerLabel.textColor = .white
                    }
                }
                """),
            // System colours on system backgrounds are Apple's pairings; a translucent chip over an
            // unknown backdrop is not guessed.
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        VStack {
                            Text("Subtitle").foregroundStyle(.secondary)
                            Rectangle().fill(Color(.separator)).frame(height: 1)
                            ZStack {
                                Color.black
                                Text("Chip").foregroundStyle(.white).padding().background(Color.white.opacity(0.15))
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Title: View {
                    var body: some View {
                        VStack {
                            Text("Ready").foregroundStyle(Color(red: 0.45, green: 0.45, blue: 0.45)).background(Color.white)
                            Text("Sale").font(.title).foregroundStyle(Color(red: 0.533, green: 0.533, blue: 0.533)).background(Color.white)
                            Text("Plain").foregroundStyle(.primary)
                        }
                    }
                }
                """),
            // Without a "Background" colour set, `Color(.background)` is the system background,
            // which this grey reaches 4.5:1 against in light and dark.
            RuleExample("""
                import SwiftUI
                let caption = Text("Caption").foregroundStyle(Color(white: 0.463)).background(Color(.background))
                """),
            // Colours the file does not write down are not guessed.
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    let tint: Color
                    var body: some View { Text("Row").foregroundStyle(tint) }
                }
                """),
        ]
    )

    /// Dark grey text colour whose dark variant is a grey too close to black.
    /// A design system's colours, declared in one file and used in others.
    static let tokens = """
        import SwiftUI

        public extension Color {
            static var black40: Color {
                .init(red: 0.57, green: 0.57, blue: 0.57)
            }
            static var black80: Color { .init(red: 0.19, green: 0.19, blue: 0.19) }
            static let brand = Color(white: 0.75)
            static var faint = Color(white: 0.75)
        }
        """

    /// A colour type whose cases name sets (`Palette.Stone` is the set "Stone"), a namespace of
    /// constants, and the sets.
    static let palette: [String: String] = [
        "Sources/Design/Palette.swift": """
            import SwiftUI
            import UIKit

            enum Palette {
                case Ink
                case Stone
                case Custom(named: String)

                var uiColor: UIColor {
                    switch self {
                    case .Custom(let named): return UIColor(named: named)!
                    default: return UIColor(named: String(describing: self))!
                    }
                }
                var swiftUI: Color { Color(self.uiColor) }
                var faded: Color { Color(uiColor).opacity(0.2) }
            }

            extension Palette {
                enum Generic {
                    static let text = Palette.Ink
                    static let subtitle = Palette.Stone
                    static let window = Palette.Custom(named: "Window")
                }
            }

            enum Theme {
                static let hint = Color("Stone")
            }

            enum Shade: String {
                case mist, ink
                var color: Color { Color(rawValue) }
            }
            """,
        "Assets.xcassets/Ink.colorset/Contents.json": ContrastReliesOnIncreaseContrastRule.set(light: "0.100", dark: "0.100", lightHigh: "0.100", darkHigh: "0.100"),
        "Assets.xcassets/Stone.colorset/Contents.json": ContrastReliesOnIncreaseContrastRule.set(light: "0.700", dark: "0.700", lightHigh: "0.700", darkHigh: "0.700"),
        "Assets.xcassets/Window.colorset/Contents.json": ContrastReliesOnIncreaseContrastRule.set(light: "1.000", dark: "1.000", lightHigh: "1.000", darkHigh: "1.000"),
        "Assets.xcassets/ink.colorset/Contents.json": ContrastReliesOnIncreaseContrastRule.set(light: "0.800", dark: "0.800", lightHigh: "0.800", darkHigh: "0.800"),
    ]

    /// #F68330 in every appearance: 2.56:1 on white.
    static let orangeAccent = """
        { "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb", "components" : { "red" : "0.965", "green" : "0.514", "blue" : "0.188", "alpha" : "1" } } } ] }
        """

    static let captionSet = """
        { "colors" : [
          { "idiom" : "universal", "color" : { "color-space" : "srgb", "components" : { "red" : "0.333", "green" : "0.333", "blue" : "0.333", "alpha" : "1" } } },
          { "idiom" : "universal", "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
            "color" : { "color-space" : "srgb", "components" : { "red" : "0.300", "green" : "0.300", "blue" : "0.300", "alpha" : "1" } } } ] }
        """

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for evaluation in file.contrastEvaluations {
            let failing = evaluation.failsWithIncreasedContrast
            guard let worst = failing.min(by: { $0.ratio < $1.ratio }) else { continue }
            // Each failing increased-contrast reading with its default beside it (which may pass:
            // an increased-contrast variant worse than the default is reported too).
            let shown = failing.flatMap { [evaluation.standardReading(of: $0), $0].compactMap { $0 } }
            let luminosities = failing.map { $0.appearance.isDark ? "dark" : "light" }
            sink.report(evaluation.pair.element, at: evaluation.pair.node, """
                \(evaluation.describe(shown, in: file)). \(evaluation.verdicts(worst)). It fails with Increase Contrast on, in \
                \(luminosities.joined(separator: " and ")) appearance
                """)
        }
    }
}
