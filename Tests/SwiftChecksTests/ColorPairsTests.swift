import AuditModel
import ColorAssets
@testable import SwiftChecks
import SwiftParser
import SwiftSyntax
import Testing

/// The pair extractor, case by case: each source gives exactly the listed pairs, in source
/// order, written `kind foreground on background [style] [size] [bold]`.
struct ColorPairsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let expected: [String]
        var testDescription: String { name }
        init(_ name: String, _ expected: [String], _ source: String) {
            self.name = name
            self.source = source
            self.expected = expected
        }
    }

    static func pairs(_ source: String, symbols: [String: String] = [:]) -> [ColorPair] {
        let file = SourceFile(path: "Sample.swift", tree: Parser.parse(source: source),
                              context: ProjectContext(colorSymbols: symbols), platformOverride: nil, reference: .shared)
        return file.colorPairs()
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func text(_ color: ColorExpression) -> String {
        switch color {
        case .asset(let name): return "asset:\(name)"
        case .system(let name): return name
        case .literal(let space, let red, let green, let blue, let alpha):
            let components = [red, green, blue] + (alpha == 1 ? [] : [alpha])
            return "\(space)(\(components.map(number).joined(separator: ",")))"
        case .opacity(let color, let alpha): return "\(text(color))@\(number(alpha))"
        }
    }

    static func summary(_ pair: ColorPair) -> String {
        var result = "\(pair.isText ? "text" : "indicator") \(text(pair.foreground)) on \(pair.background.map(text) ?? "default")"
        if let style = pair.textStyle { result += " \(style)" }
        if let size = pair.pointSize { result += " \(number(size))pt" }
        if pair.isBold { result += " bold" }
        return result
    }

    static func view(_ body: String, imports: String = "import SwiftUI") -> String {
        """
        \(imports)
        struct Sample: View {
            @State private var isOn = false
            var body: some View {
        \(body)
            }
        }
        """
    }

    static let swiftUICases: [Case] = [
        Case("own foreground and background", ["text secondary on asset:Card"], view("""
            Text("Hi").foregroundStyle(.secondary).background(Color("Card"))
            """)),
        Case("ZStack whose first child is a colour", ["text gray on black"], view("""
            ZStack {
                Color.black.ignoresSafeArea()
                Text("Title").foregroundStyle(.gray)
            }
            """)),
        Case("ZStack whose first child is a filled shape; the shape is no indicator", ["indicator white on blue"], view("""
            ZStack {
                Circle().fill(.blue)
                Image(systemName: "checkmark").foregroundStyle(.white)
            }
            """)),
        Case("ZStack whose first child is a view, not a background", [], view("""
            ZStack {
                VStack { Text("a") }
                Text("b")
            }
            """)),
        Case("ZStack over an image: no verdict", [], view("""
            ZStack {
                Image("hero").resizable()
                Text("Caption").foregroundStyle(.white)
            }
            """)),
        Case("text in a ZStack's first child is not over it", ["text white on default"], view("""
            ZStack {
                Text("Top").foregroundStyle(.white)
                Color.red
            }
            """)),
        Case("background inherited from an outer VStack", ["text white on blue"], view("""
            VStack {
                HStack { Text("Name").foregroundColor(.white) }
            }
            .padding()
            .background(Color.blue)
            """)),
        Case("nearest background wins", ["text primary on yellow"], view("""
            VStack {
                Text("Inner").padding().background(Color.yellow)
            }
            .background(Color.blue)
            """)),
        Case("only the background is set: the label is primary", ["text primary on systemGray6 caption1"], view("""
            VStack { Text("Hello").font(.caption) }.background(Color(.systemGray6))
            """)),
        Case("foreground inherited by every text", ["text asset:Muted on default", "text asset:Muted on default title1"], view("""
            VStack {
                Text("A")
                Text("B").font(.title)
            }
            .foregroundStyle(Color("Muted"))
            """)),
        Case("own foreground overrides the inherited one", ["text red on default"], view("""
            VStack { Text("A").foregroundStyle(.red) }.foregroundStyle(.blue)
            """)),
        Case("nothing set: system label on system background", [], view("""
            VStack {
                Text("A").font(.body)
                Image(systemName: "star")
                Circle().frame(width: 4, height: 4)
                Button("Go") {}
            }
            .padding()
            """)),
        Case("button tint colours the title", ["text red on default"], view("""
            Button("Delete") {}.tint(.red)
            """)),
        Case("tint reaches a button's label from outside", ["text orange on default"], view("""
            VStack {
                Button { } label: { Text("Go") }
            }
            .tint(.orange)
            """)),
        Case("tint does not colour plain text or a plain button", [], view("""
            VStack {
                Text("x")
                Button("Plain") {}.buttonStyle(.plain)
            }
            .tint(.red)
            """)),
        Case("prominent button: white on the tint", ["text white on yellow"], view("""
            Button("Buy") {}
                .buttonStyle(.borderedProminent)
                .tint(.yellow)
            """)),
        Case("button on a background, default label colour is the accent", ["text accentColor on black"], view("""
            HStack { Button("More") {} }.background(Color.black)
            """)),
        Case("custom button style: no guess", [], view("""
            Button("Custom") {}.buttonStyle(PillStyle()).tint(.red)
            """)),
        Case("switch tint is a non-text indicator", ["indicator mint on default"], view("""
            Toggle("Wi-Fi", isOn: $isOn).tint(.mint)
            """)),
        Case("opacity of a colour", ["text black@0.4 on white"], view("""
            Text("Faint").foregroundStyle(.black.opacity(0.4)).background(.white)
            """)),
        Case("literal colours", ["text srgb(0.2,0.4,0.6) on srgb(0.231,1,1,0.5)", "text srgb(0.9,0.9,0.9) on display-p3(1,0,0)"], view("""
            Text("a")
                .foregroundColor(Color(red: 0.2, green: 0.4, blue: 0.6))
                .background(Color(.sRGB, red: 59 / 255, green: 1, blue: 1, opacity: 0.5))
            Text("b").foregroundStyle(Color(white: 0.9)).background(Color(.displayP3, red: 1, green: 0, blue: 0))
            """)),
        Case("hex and hue literals", ["text srgb(1,0.231,0.188) on srgb(0,1,1)"], view("""
            Text("a").foregroundStyle(Color(hex: "#FF3B30")).background(Color(hue: 0.5, saturation: 1, brightness: 1))
            """)),
        Case("ternary foreground gives one pair per branch", ["text green on black", "text red on black"], view("""
            Text("Status").foregroundStyle(isOn ? .green : .red).background(Color.black)
            """)),
        Case("undescribable colours are skipped", [], view("""
            Text("a").foregroundStyle(theme.text).background(.white)
            Text("b").foregroundStyle(tint).background(.white)
            Text("c").foregroundStyle(makeColor())
            Text("d").foregroundStyle(isOn ? .red : accent)
            Text("e").foregroundStyle(.red).background(.ultraThinMaterial)
            Text("f").foregroundStyle(.red).background(Image("paper"))
            Text("g").foregroundStyle(Color.blue.gradient)
            """)),
        Case("shapes: fill and stroke", ["indicator green on default", "indicator gray on default"], view("""
            Circle().fill(.green).frame(width: 8, height: 8)
            Capsule().stroke(Color.gray, lineWidth: 1)
            """)),
        Case("a shape used as a background is not an indicator", ["text white on accentColor", "text primary on blue"], view("""
            Text("Tag").foregroundStyle(.white).padding().background(Capsule().fill(Color.accentColor))
            Text("Card").background { RoundedRectangle(cornerRadius: 8).fill(.blue) }
            """)),
        Case("a stroked outline shows the background behind it", ["text primary on asset:Surface"], view("""
            VStack {
                Text("Boxed").background(RoundedRectangle(cornerRadius: 4).stroke(.gray))
            }
            .background(Color("Surface"))
            """)),
        Case("overlay content sits on the view it covers", ["indicator red on default", "text white on red caption2 bold"], view("""
            Circle().fill(.red).overlay {
                Text("3").foregroundStyle(.white).font(.caption2.bold())
            }
            """)),
        Case("overlay as an argument; over an image no verdict", ["indicator blue on default", "text white on blue"], view("""
            Circle().fill(Color.blue).overlay(Text("1").foregroundColor(.white))
            Image("photo").overlay(Text("NEW").foregroundColor(.white), alignment: .topLeading)
            """)),
        Case("SF Symbols; asset images and multicolour symbols are not", ["indicator yellow on default"], view("""
            Image(systemName: "star.fill").foregroundStyle(.yellow)
            Image("logo").foregroundStyle(.red)
            Image(systemName: "cloud.sun.fill").symbolRenderingMode(.multicolor).foregroundStyle(.red)
            """)),
        Case("fonts: size, weight, style", [
            "text gray on default 11pt bold", "text gray on default 11pt", "text gray on default body bold",
            "text gray on default title1 bold", "text gray on default 14pt", "text gray on default headline",
        ], view("""
            Text("a").font(.system(size: 11, weight: .bold)).foregroundStyle(.gray)
            Text("b").font(.system(size: 11)).fontWeight(.semibold).foregroundStyle(.gray)
            Text("c").font(.body).bold().foregroundStyle(.gray)
            Text("d").font(.title.weight(.heavy)).foregroundStyle(.gray)
            Text("e").font(.custom("Avenir", size: 14)).foregroundStyle(.gray)
            VStack { Text("f") }.font(.headline).foregroundStyle(.gray)
            """)),
        Case("list row background; a list hides what is outside it", ["text primary on yellow"], view("""
            VStack {
                List {
                    Text("Row").listRowBackground(Color.yellow)
                    Text("Other")
                }
            }
            .background(Color.red)
            """)),
        Case("a list with its background hidden shows the container's", ["text primary on red"], view("""
            VStack {
                List { Text("Row") }.scrollContentBackground(.hidden)
            }
            .background(Color.red)
            """)),
        Case("a sheet has its own background and environment", ["text white on black"], view("""
            VStack { Text("x") }
                .foregroundStyle(.white)
                .background(Color.black)
                .sheet(isPresented: $isOn) { Text("In sheet") }
            """)),
        Case("colour constants and asset symbols", [
            "text srgb(0.1,0.1,0.1) on default", "text asset:brand on asset:brandBackground", "text asset:Text on default",
        ], """
            import SwiftUI
            extension Color { static let ink = Color(red: 0.1, green: 0.1, blue: 0.1) }
            enum Palette { static let text = Color("Text") }
            struct Sample: View {
                var body: some View {
                    Text("a").foregroundStyle(.ink)
                    Text("b").foregroundStyle(.brand).background(Color(.brandBackground))
                    Text("c").foregroundStyle(Palette.text)
                }
            }
            """),
        Case("system colours through UIKit and AppKit wrappers", [
            "text label on secondarySystemBackground", "text labelColor on systemBackground",
        ], view("""
            Text("a").foregroundStyle(Color(uiColor: .label)).background(Color(uiColor: .secondarySystemBackground))
            Text("b").foregroundStyle(Color(nsColor: .labelColor)).background(Color(.systemBackground))
            """)),
        Case("background with a shape argument", ["text white on red"], view("""
            Text("Live").foregroundStyle(.white).background(.red, in: Capsule())
            """)),
        Case("a menu's content is presented elsewhere; its label is in place", ["text accentColor on black"], view("""
            VStack {
                Menu("More") { Button("Delete") {} }
            }
            .background(Color.black)
            """)),
        Case("hidden views are not drawn", [], view("""
            Text("x").foregroundStyle(.red).hidden()
            """)),
        Case("this file's colours shadow style names; computed ones are unknown", ["text white on asset:Background"], """
            import SwiftUI
            extension Color {
                static let background = Color("Background")
                static var accentSoft: Color { Color.blue.opacity(0.2) }
            }
            struct Sample: View {
                var body: some View {
                    Text("a").foregroundStyle(.white).background(Color.background)
                    Text("b").foregroundStyle(.accentSoft)
                }
            }
            """),
        Case("a view passed as a label or title is not drawn content", [], view("""
            Text("x").accessibilityLabel(Text("Label").foregroundColor(.red))
            Image("y").clipShape(Circle().fill(.red))
            """)),
    ]

    static let platformCases: [Case] = [
        Case("label textColor against the parent view's background", ["text secondaryLabel on systemBackground caption1"], """
            import UIKit
            final class ProfileViewController: UIViewController {
                let titleLabel = UILabel()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.backgroundColor = .systemBackground
                    titleLabel.textColor = .secondaryLabel
                    titleLabel.font = .preferredFont(forTextStyle: .caption1)
                }
            }
            """),
        Case("own background first; fixed UIKit colours are literals", [
            "text asset:Brand on extended-gray(0.95,0.95,0.95) 11pt bold",
        ], """
            import UIKit
            final class Badge: UIView {
                func configure(_ label: UILabel) {
                    label.textColor = UIColor(named: "Brand")
                    label.backgroundColor = UIColor(white: 0.95, alpha: 1)
                    label.font = UIFont.systemFont(ofSize: 11, weight: .bold)
                }
            }
            """),
        Case("UIColor made from a SwiftUI colour: `.red` is SwiftUI's system red, not UIKit's pure red",
             ["text red on extended-srgb(1,0,0)", "text asset:brand on extended-srgb(1,0,0)"], """
            import UIKit
            import SwiftUI
            final class Badge: UIView {
                func configure(_ label: UILabel, _ note: UILabel) {
                    label.textColor = UIColor(.red)
                    label.backgroundColor = UIColor.red
                    note.textColor = NSColor(.brand)
                    note.backgroundColor = .red
                }
            }
            """),
        Case("a label with the default colour on a dark view", ["text label on extended-gray(0,0,0)"], """
            import UIKit
            final class Banner: UIView {
                let label = UILabel()
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    backgroundColor = .black
                }
            }
            """),
        Case("no colour set anywhere", [], """
            import UIKit
            final class Plain: UIView {
                let label = UILabel()
                func setUp() { label.font = .preferredFont(forTextStyle: .body) }
            }
            """),
        Case("button title colours; disabled state exempt", ["text extended-gray(1,1,1) on systemBlue 15pt bold"], """
            import UIKit
            final class Buttons: UIViewController {
                let button = UIButton(type: .system)
                func style() {
                    button.setTitleColor(.white, for: .normal)
                    button.setTitleColor(.gray, for: .disabled)
                    button.backgroundColor = .systemBlue
                    button.titleLabel?.font = .boldSystemFont(ofSize: 15)
                }
            }
            """),
        Case("tintColor of a non-button is a non-text indicator", ["indicator systemGray3 on extended-gray(1,1,1)"], """
            import UIKit
            final class Icon: UIViewController {
                let imageView = UIImageView()
                override func viewDidLoad() {
                    view.backgroundColor = .white
                    imageView.tintColor = .systemGray3
                }
            }
            """),
        Case("layer colours are ignored; cgColor is stripped", ["text extended-gray(0.333,0.333,0.333) on default"], """
            import UIKit
            func style(_ label: UILabel) {
                label.layer.backgroundColor = UIColor.black.cgColor
                label.textColor = .darkGray
            }
            """),
        Case("ternary text colour gives two pairs", ["text systemRed on asset:Card", "text label on asset:Card"], """
            import UIKit
            final class Row: UITableViewCell {
                func update(isError: Bool) {
                    contentView.backgroundColor = UIColor(named: "Card")
                    textLabel?.textColor = isError ? .systemRed : .label
                }
            }
            """),
        Case("a cell's label against the cell's content view", ["text extended-gray(1,1,1) on extended-gray(0,0,0)"], """
            import UIKit
            func configure(_ cell: UITableViewCell) {
                cell.textLabel?.textColor = .white
                cell.contentView.backgroundColor = .black
            }
            """),
        Case("opacity, literal and fallback colours", [
            "text extended-gray(0,0,0)@0.3 on extended-srgb(1,0.8,0)", "text asset:Brand on extended-srgb(1,0.8,0)",
        ], """
            import UIKit
            final class Hint: UIView {
                let hint = UILabel()
                let title = UILabel()
                func setUp() {
                    backgroundColor = UIColor(red: 1, green: 0.8, blue: 0, alpha: 1)
                    hint.textColor = UIColor.black.withAlphaComponent(0.3)
                    title.textColor = UIColor(named: "Brand") ?? .label
                }
            }
            """),
        Case("undescribable UIKit colours are skipped", [], """
            import UIKit
            final class Themed: UIView {
                let label = UILabel()
                func apply(_ theme: Theme) {
                    backgroundColor = .white
                    label.textColor = theme.textColor
                }
            }
            """),
        Case("a clear background shows the parent's", ["text extended-gray(1,1,1) on systemIndigo"], """
            import UIKit
            final class Header: UIViewController {
                let name = UILabel()
                override func viewDidLoad() {
                    view.backgroundColor = .systemIndigo
                    name.backgroundColor = .clear
                    name.textColor = .white
                }
            }
            """),
        Case("a nil background shows the parent's", ["text label on asset:Paper"], """
            import UIKit
            final class Note: UIView {
                let body = UITextField()
                func setUp() {
                    backgroundColor = UIColor(named: "Paper")
                    body.backgroundColor = nil
                }
            }
            """),
        Case("parameters of different methods are different objects", ["text extended-gray(1,1,1) on default"], """
            import UIKit
            final class Styler {
                func title(_ label: UILabel) { label.textColor = .white }
                func badge(_ label: UILabel) { label.backgroundColor = .red }
            }
            """),
        Case("a stored property is one object across methods", ["text extended-gray(1,1,1) on systemRed"], """
            import UIKit
            final class Card: UIView {
                let title = UILabel()
                func setUpText() { title.textColor = .white }
                func setUpBackground() { title.backgroundColor = .systemRed }
            }
            """),
        Case("top-level functions do not share objects", ["text systemBlue on default"], """
            import UIKit
            func tint(_ view: UIView) { view.backgroundColor = .black }
            func color(_ label: UILabel) { label.textColor = .systemBlue }
            """),
        Case("AppKit text field", ["text secondaryLabelColor on textBackgroundColor"], """
            import AppKit
            final class Inspector: NSViewController {
                let field = NSTextField(string: "")
                func style() {
                    field.textColor = NSColor.secondaryLabelColor
                    field.backgroundColor = .textBackgroundColor
                }
            }
            """),
    ]

    @Test("SwiftUI pairs", arguments: swiftUICases)
    func swiftUI(_ example: Case) {
        let found = Self.pairs(example.source).map(Self.summary)
        #expect(found == example.expected, "in:\n\(example.source)")
    }

    @Test("UIKit and AppKit pairs", arguments: platformCases)
    func platform(_ example: Case) {
        let found = Self.pairs(example.source).map(Self.summary)
        #expect(found == example.expected, "in:\n\(example.source)")
    }

    static func line(_ node: Syntax?, in source: String) -> Int? {
        guard let node else { return nil }
        let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
        return source.utf8.prefix(offset).filter { $0 == UInt8(ascii: "\n") }.count + 1
    }

    @Test("An inherited foreground points at the container's colour; the element at the text")
    func inheritedNodes() throws {
        let source = """
            import SwiftUI
            struct Sample: View {
                var body: some View {
                    ZStack {
                        Color.black.ignoresSafeArea()
                        VStack {
                            Text("Caption")
                        }
                        .foregroundStyle(.gray)
                    }
                }
            }
            """
        let pairs = Self.pairs(source)
        let pair = try #require(pairs.first)
        #expect(pairs.count == 1)
        #expect(Self.line(pair.node, in: source) == 9)
        #expect(pair.node.trimmedDescription == ".gray")
        #expect(Self.line(pair.element, in: source) == 7)
        #expect(Self.line(pair.backgroundNode, in: source) == 5)
    }

    @Test("Only a background set: the finding points at the element")
    func backgroundOnlyNodes() throws {
        let source = """
            import UIKit
            final class Banner: UIView {
                let label = UILabel()
                func setUp() {
                    backgroundColor = .black
                }
            }
            """
        let pair = try #require(Self.pairs(source).first)
        #expect(Self.line(pair.node, in: source) == 3)
        #expect(Self.line(pair.backgroundNode, in: source) == 5)
    }

    @Test("A colour set named like a system colour is what Xcode's generated symbols mean")
    func assetSymbolsShadowSystemNames() {
        // "Background", "secondaryColor" and "Label" sets: Xcode generates `Color.background`,
        // `UIColor.background`, `ColorResource.background` and `.secondary`, `.label` for
        // ColorResource only (Color and UIColor already have those members).
        let symbols = ["background": "Background", "secondary": "secondaryColor", "label": "Label"]
        let swiftUI = Self.view("""
            Text("a").foregroundStyle(.white).background(Color.background)
            Text("b").foregroundStyle(Color(.background))
            Text("c").foregroundStyle(.secondary).background(Color.black)
            Text("d").foregroundColor(.background).background(Color.black)
            """)
        #expect(Self.pairs(swiftUI, symbols: symbols).map(Self.summary) == [
            "text white on asset:background", "text asset:background on default",
            "text secondary on black", "text asset:background on black",
        ])
        // Without such a set the same code names the system colours.
        #expect(Self.pairs(swiftUI).map(Self.summary) == [
            "text white on background", "text background on default", "text secondary on black", "text background on black",
        ])
        let uiKit = """
            import UIKit
            final class Card: UIView {
                func configure(_ title: UILabel, _ body: UILabel) {
                    title.textColor = .background
                    title.backgroundColor = .black
                    body.textColor = .label
                    body.backgroundColor = .black
                }
            }
            """
        #expect(Self.pairs(uiKit, symbols: symbols).map(Self.summary) == [
            "text asset:background on extended-gray(0,0,0)", "text label on extended-gray(0,0,0)",
        ])
    }

    @Test("A name two catalogs define is judged against the catalog nearest the Swift file")
    func nearestCatalogWins() throws {
        func set(_ gray: String) -> [UInt8] {
            Array(ContrastReliesOnIncreaseContrastRule.set(light: gray, dark: gray, lightHigh: gray, darkHigh: gray).utf8)
        }
        let catalog = ColorCatalog.build([
            ("App/Assets.xcassets/Ink.colorset/Contents.json", set("0.600")),      // fails on white
            ("Widget/Assets.xcassets/Ink.colorset/Contents.json", set("0.200")),   // passes on white
        ]) { _ in .iOS }
        let source = "import SwiftUI\nlet t = Text(\"x\").foregroundStyle(Color(\"Ink\")).background(Color.white)\n"
        func messages(_ path: String) -> [String] {
            SourceChecker().check(path: path, source: source, context: ProjectContext(colors: catalog)).findings
                .filter { $0.ruleID == "insufficient-contrast" }.map(\.message)
        }
        let app = messages("App/Views/Tag.swift")
        #expect(app.count == 1)
        #expect(app.first?.contains("colour set \"Ink\" (from App/Assets.xcassets, the nearest of 2 sets with that name)") == true)
        #expect(messages("Widget/Tag.swift").isEmpty)
        // Equally near: the first by path, as before.
        #expect(messages("Shared/Tag.swift").count == 1)
    }

    static func judgeable(_ source: String) -> (all: [String], judgeable: [String], counts: (Int, Int)) {
        func isSystem(_ color: ColorExpression?) -> Bool {
            guard let color else { return true }
            if case .system = color.base { return true }
            return false
        }
        func judged(_ pairs: [ColorPair]) -> [String] {
            pairs.filter { !(isSystem($0.foreground) && isSystem($0.background)) }.map(summary)
        }
        let file = SourceFile(path: "Sample.swift", tree: Parser.parse(source: source), context: ProjectContext(),
                              platformOverride: nil, reference: .shared)
        let all = file.colorPairs(), judgeable = file.colorPairs(judgeableOnly: true)
        return (judged(all), judged(judgeable), (all.count, judgeable.count))
    }

    @Test("Judgeable pairs are all pairs but system colours on system colours", arguments: swiftUICases + platformCases)
    func judgeableOnly(_ example: Case) {
        let result = Self.judgeable(example.source)
        #expect(result.judgeable == result.all, "in:\n\(example.source)")
        #expect(result.counts.1 <= result.counts.0)
    }

    @Test("Only system pairs are left out: a system foreground over an overlaid colour is kept")
    func judgeableKeepsOverlaidColours() {
        let result = Self.judgeable(Self.view("""
            Color(red: 0.9, green: 0.1, blue: 0.1).overlay { Text("x").foregroundStyle(.white) }
            Text("y").foregroundStyle(.secondary)
            Circle().fill(.green)
            """))
        #expect(result.judgeable == ["text white on srgb(0.9,0.1,0.1)"])
        #expect(result.counts.0 == 3 && result.counts.1 == 1)
    }

    @Test("A file with no colour modifiers costs nothing and yields nothing")
    func noColors() {
        #expect(Self.pairs(Self.view("Text(\"a\")\nButton(\"b\") {}")).isEmpty)
        #expect(Self.pairs("").isEmpty)
        #expect(Self.pairs("let x = Color(").isEmpty)
    }
}
