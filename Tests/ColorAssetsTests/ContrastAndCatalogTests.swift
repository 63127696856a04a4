import AuditModel
import ColorAssets
import Foundation
import Testing

/// contrast.json as the test reads it itself, to compare the module against the table.
func contrastTable() throws -> [String: Any] {
    let data = try ReferenceData.rawTable(named: "contrast")
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite struct ContrastTests {
    @Test func referenceTablesLoad() throws {
        _ = try ColorReference.load()
    }

    @Test func knownWCAGValues() {
        #expect(abs(Contrast.ratio(.black, .white) - 21) < 1e-12)
        #expect(Contrast.ratio(.white, .white) == 1)
        let grey = RGBA(hex: "#777777")
        #expect(grey != nil)
        if let grey {
            let ratio = Contrast.ratio(grey, .white)
            #expect(abs(ratio - 4.478) < 0.001)
            #expect(Contrast.format(ratio) == "4.48:1")
            #expect(Contrast.ratio(.white, grey) == ratio)
            #expect(!Contrast.wcag(ratio: ratio, pointSize: 17, bold: false).passes)
        }
        #expect(Contrast.relativeLuminance(.white) == 1 && Contrast.relativeLuminance(.black) == 0)
    }

    @Test func workedExamplesOfContrastJSON() throws {
        let examples = ColorReference.shared.workedExamples
        #expect(examples.count >= 6)
        for (pair, expected) in examples {
            // "HIG 2025 systemBlue Default (light) #0088FF on #FFFFFF"
            let colors = pair.split(separator: " ").filter { $0.hasPrefix("#") }.compactMap { RGBA(hex: String($0)) }
            guard colors.count == 2 else {
                Issue.record("cannot read the pair \(pair)")
                continue
            }
            let ratio = Contrast.ratio(foreground: colors[0], background: colors[1])
            // The table prints two or three decimals.
            #expect(abs(ratio - expected) < 0.005, "\(pair): \(ratio) vs \(expected)")
        }
    }

    @Test func smallBoldTextPassesApplesTableAndFailsWCAG() {
        let wcag = Contrast.wcag(ratio: 3.3, pointSize: 11, bold: true)
        let apple = Contrast.appleTable(ratio: 3.3, pointSize: 11, bold: true)
        #expect(!wcag.passes && wcag.threshold == 4.5 && wcag.standard == .wcagText)
        #expect(apple.passes && apple.threshold == 3 && apple.standard == .appleTable)
        #expect(wcag.description == "3.30:1 fails WCAG 2.x SC 1.4.3 (4.5:1 for text under 18 pt (14 pt bold))")
        #expect(apple.description == "3.30:1 meets Apple's table (3:1 for bold text of any size)")
    }

    @Test func thresholdsByRow() {
        // WCAG large text: 18 pt, or 14 pt bold.
        #expect(Contrast.wcag(ratio: 3.1, pointSize: 14, bold: true).passes)
        #expect(!Contrast.wcag(ratio: 3.1, pointSize: 13.5, bold: true).passes)
        #expect(Contrast.wcag(ratio: 3.1, pointSize: 18, bold: false).passes)
        #expect(!Contrast.wcag(ratio: 3.1, pointSize: 17, bold: false).passes)
        #expect(Contrast.isLargeText(pointSize: 18, bold: false) && !Contrast.isLargeText(pointSize: 17.9, bold: false))
        // Apple's table: up to 17 pt 4.5:1, 18 pt 3:1, bold any size 3:1.
        #expect(Contrast.appleTable(ratio: 4, pointSize: 17, bold: false).threshold == 4.5)
        #expect(Contrast.appleTable(ratio: 4, pointSize: 17.5, bold: false).threshold == 4.5)
        #expect(Contrast.appleTable(ratio: 4, pointSize: 18, bold: false).threshold == 3)
        #expect(Contrast.appleTable(ratio: 4, pointSize: 6, bold: true).threshold == 3)
        // SC 1.4.11, compared unrounded.
        #expect(Contrast.nonText(ratio: 3).passes && !Contrast.nonText(ratio: 2.999).passes)
        #expect(Contrast.nonText(ratio: 2.999).ratioText == "2.99:1")
        #expect(Contrast.format(4.497, threshold: 4.5) == "4.49:1" && Contrast.format(4.497) == "4.50:1")
        #expect(Contrast.format(21) == "21.00:1" && Contrast.format(1) == "1.00:1")
    }

    @Test func displayP3ConversionMatchesTheTable() throws {
        let table = try contrastTable()
        let p3 = try #require(table["display_p3_to_srgb"] as? [String: Any])
        let matrix = try #require(p3["M_linP3_to_linSRGB"] as? [[Double]])
        let yRow = try #require(p3["lin_P3_to_XYZ_Y_row"] as? [Double])
        // Pure P3 primaries land on the matrix's columns in linear light.
        for column in 0..<3 {
            var components = [0.0, 0.0, 0.0]
            components[column] = 1
            let converted = ColorConversion.toSRGB(components, alpha: 1, in: .displayP3)
            let linear = [converted.unclamped.red, converted.unclamped.green, converted.unclamped.blue]
                .map { ColorConversion.linearize($0) }
            for row in 0..<3 {
                #expect(abs(linear[row] - matrix[row][column]) < 1e-12, "P3 primary \(column), row \(row)")
            }
            // Every P3 primary lies outside sRGB: clipped, and flagged.
            #expect(converted.wasClamped)
            // The luminance shortcut: Y of a P3 colour from the Y row of lin_P3_to_XYZ equals
            // WCAG's Y of the unclipped conversion, up to WCAG's 4-digit coefficients.
            let coefficients = [0.2126, 0.7152, 0.0722]
            let y = zip(coefficients, linear).map(*).reduce(0, +)
            #expect(abs(y - yRow[column]) < 2e-4, "Y of P3 primary \(column)")
        }
        // The third-party check quoted in contrast.json: r = 1.2249401 r - 0.2249404 g.
        let sample = ColorConversion.toSRGB([0.6, 0.3, 0.2], alpha: 1, in: .displayP3)
        let r = ColorConversion.linearize(sample.unclamped.red)
        let expected = 1.2249401 * ColorConversion.linearize(0.6) - 0.2249404 * ColorConversion.linearize(0.3)
        #expect(abs(r - expected) < 1e-6)
        // Greys are unchanged (rows sum to 1).
        let grey = ColorConversion.toSRGB([0.5, 0.5, 0.5], alpha: 0.5, in: .displayP3)
        #expect(abs(grey.rgba.red - 0.5) < 1e-9 && abs(grey.rgba.blue - 0.5) < 1e-9 && grey.rgba.alpha == 0.5)
        #expect(!grey.wasClamped)
    }

    @Test func rgbaHexAndCompositing() {
        #expect(RGBA(red8: 0, green8: 136, blue8: 255).hex == "#0088FF")
        #expect(RGBA(hex: "#0088ff80")?.hex == "#0088FF80")
        #expect(RGBA(hex: "0x112233")?.hex == "#112233")
        #expect(RGBA(hex: "#12345") == nil && RGBA(hex: "#GG0000") == nil)
        #expect(RGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.999).hex == "#336699")
        let half = RGBA(red: 0, green: 0, blue: 0, alpha: 0.5)
        #expect(half.composited(over: .white).hex == "#808080")
        #expect(RGBA.clear.composited(over: .clear) == .clear)
        let extended = RGBA(red: 1.2, green: -0.1, blue: 0.5)
        #expect(extended.clamped().wasClamped && extended.clamped().color.hex == "#FF0080" && !extended.isInGamut)
        #expect(!RGBA.white.clamped().wasClamped)
        // Contrast of a translucent foreground is taken after compositing it.
        #expect(Contrast.ratio(foreground: half, background: .white) == Contrast.ratio(RGBA(red: 0.5, green: 0.5, blue: 0.5), .white))
    }

    @Test func appearanceNames() {
        #expect(Appearance.allCases.map(\.displayName)
            == ["light", "dark", "light + increased contrast", "dark + increased contrast"])
        #expect(Appearance.darkIncreasedContrast.standardContrast == .dark)
    }
}

@Suite struct SystemColorsTests {
    @Test func tintedColoursFromTheCurrentTable() throws {
        let blue = try #require(SystemColors.resolve("systemBlue", platform: .iOS))
        #expect(Appearance.allCases.map { blue[$0]?.hex } == ["#0088FF", "#0091FF", "#1E6EF4", "#5CB8FF"])
        for spelling in [".blue", "blue", "Color.blue", "systemBlueColor", "UIColor.systemBlue", "NSColor.systemBlue"] {
            #expect(SystemColors.resolve(spelling, platform: .iOS) == blue, "\(spelling)")
        }
        #expect(SystemColors.resolve("systemBlue", platform: .macOS) == blue)
        // UIColor.red is a fixed pure red, not systemRed.
        #expect(SystemColors.resolve("UIColor.red", platform: .iOS) == nil)
        // visionOS uses the dark values.
        let vision = try #require(SystemColors.resolve(".blue", platform: .visionOS))
        #expect(vision[.light] == blue[.dark] && vision[.lightIncreasedContrast] == blue[.darkIncreasedContrast])
        #expect(SystemColors.lookup("red", platform: .iOS)?.name == "systemRed")
    }

    @Test func grays() throws {
        let gray = try #require(SystemColors.resolve(".gray", platform: .iOS))
        #expect(gray[.light]?.hex == "#8E8E93" && gray[.lightIncreasedContrast]?.hex == "#6C6C70")
        #expect(SystemColors.resolve("systemGray4", platform: .iOS) != nil)
        #expect(SystemColors.resolve("systemGray4", platform: .macOS) == nil)
        #expect(SystemColors.resolve("systemGray", platform: .macOS) != nil)
        #expect(SystemColors.lookup("systemGray", platform: .macOS)?.source.contains("macOS") == true)
    }

    @Test func semanticColours() throws {
        let primary = try #require(SystemColors.resolve(".primary", platform: .iOS))
        #expect(primary == SystemColors.resolve("label", platform: .iOS))
        #expect(primary[.light]?.hex == "#000000" && primary[.dark]?.hex == "#FFFFFF")
        let secondary = try #require(SystemColors.resolve(".secondary", platform: .iOS))
        #expect(secondary[.light]?.hex == "#3C3C4399")
        #expect(secondary == SystemColors.resolve("secondaryLabelColor", platform: .iOS))
        let background = try #require(SystemColors.resolve("systemBackground", platform: .iOS))
        #expect(background[.light]?.hex == "#FFFFFF" && background[.dark]?.hex == "#000000")
        // No macOS values in the table; none for watchOS either.
        #expect(SystemColors.resolve("labelColor", platform: .macOS) == nil)
        #expect(SystemColors.resolve(".primary", platform: .macOS) == nil)
        #expect(SystemColors.resolve("windowBackgroundColor", platform: .macOS) == nil)
        #expect(SystemColors.resolve("label", platform: .watchOS) == nil)
        #expect(SystemColors.canonicalName(".primary") == "label")
        #expect(SystemColors.resolve("accentColor", platform: .iOS) == nil)
        #expect(SystemColors.resolve("white", platform: .macOS)?[.dark] == .white)
        // secondaryLabel (60% alpha) composited over white is #8A8A8E: 3.44:1.
        let onLight = try #require(secondary[.light]?.composited(over: .white))
        #expect(onLight.hex == "#8A8A8E")
        #expect(Contrast.format(Contrast.ratio(onLight, .white)) == "3.44:1")
    }
}

@Suite struct ColorCatalogTests {
    static let colour = Array("""
    {"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "0x11", "green": "0x22", "blue": "0x33"}}}]}
    """.utf8)

    @Test func namespacedFoldersPrefixNames() {
        let files: [(path: String, bytes: [UInt8])] = [
            ("App/Assets.xcassets/Contents.json", Array(#"{"info": {"author": "xcode", "version": 1}}"#.utf8)),
            ("App/Assets.xcassets/Brand/Contents.json", Array(#"{"properties": {"provides-namespace": true}}"#.utf8)),
            ("App/Assets.xcassets/Brand/Primary.colorset/Contents.json", Self.colour),
            ("App/Assets.xcassets/Brand/Sub/Contents.json", Array(#"{"properties": {"provides-namespace": true}}"#.utf8)),
            ("App/Assets.xcassets/Brand/Sub/Deep.colorset/Contents.json", Self.colour),
            ("App/Assets.xcassets/Brand/Plain/Contents.json", Array(#"{"info": {"version": 1}}"#.utf8)),
            ("App/Assets.xcassets/Brand/Plain/Flat.colorset/Contents.json", Self.colour),
            ("App/Assets.xcassets/Loose/Secondary.colorset/Contents.json", Self.colour),
            ("App/Assets.xcassets/Broken.colorset/Contents.json", Array("{".utf8)),
            ("App/Assets.xcassets/Icon.imageset/Contents.json", Array("not json, not read".utf8)),
            ("App/Assets.xcassets/Icon.imageset/icon.png", [0x89, 0x50]),
            ("Widget/Widget.xcassets/Secondary.colorset/Contents.json", Self.colour),
            ("Widget/Widget.xcassets/Bad/Contents.json", Array("[1,".utf8)),
            ("Widget/Widget.xcassets/Bad/Tint.colorset/Contents.json", Self.colour),
        ]
        let catalog = ColorCatalog.build(files) { $0.hasPrefix("Widget/") ? .watchOS : .iOS }
        #expect(catalog.names == ["Brand/Flat", "Brand/Primary", "Brand/Sub/Deep", "Secondary", "Tint"])
        #expect(catalog.color(named: "Brand/Primary")?.rgba(.dark)?.hex == "#112233")
        #expect(catalog.color(named: "Primary") == nil)
        #expect(catalog.colors(named: "Secondary").map(\.path)
            == ["App/Assets.xcassets/Loose/Secondary.colorset/Contents.json", "Widget/Widget.xcassets/Secondary.colorset/Contents.json"])
        #expect(catalog.color(named: "Secondary")?.platform == .iOS)
        #expect(catalog.colors(named: "Secondary").last?.platform == .watchOS)
        #expect(catalog.errors.map(\.path)
            == ["App/Assets.xcassets/Broken.colorset/Contents.json", "Widget/Widget.xcassets/Bad/Contents.json"])
        #expect(catalog.errors.allSatisfy { !$0.message.isEmpty })
        #expect(ColorCatalog.empty.sets.isEmpty)
    }

    @Test func aNameSeveralCatalogsDefineResolvesToTheNearest() {
        let files: [(path: String, bytes: [UInt8])] = [
            ("App/Resources/Assets.xcassets/Brand.colorset/Contents.json", Self.colour),
            ("Extensions/Widget/Assets.xcassets/Brand.colorset/Contents.json", Self.colour),
            ("Extensions/Widget/Assets.xcassets/Solo.colorset/Contents.json", Self.colour),
        ]
        let catalog = ColorCatalog.build(files) { _ in .iOS }
        #expect(catalog.color(named: "Brand", near: "Extensions/Widget/Views/Entry.swift")?.path
            == "Extensions/Widget/Assets.xcassets/Brand.colorset/Contents.json")
        #expect(catalog.color(named: "Brand", near: "App/Views/Home.swift")?.path
            == "App/Resources/Assets.xcassets/Brand.colorset/Contents.json")
        // Nothing in common with either: the first by path, as `color(named:)` gives.
        #expect(catalog.color(named: "Brand", near: "Shared/Theme.swift")?.path == catalog.color(named: "Brand")?.path)
        #expect(catalog.color(named: "Solo", near: "App/Views/Home.swift") != nil)
        #expect(catalog.color(named: "Missing", near: "App/Views/Home.swift") == nil)
        #expect(catalog.duplicates.map(\.name) == ["Brand"])
        #expect(catalog.duplicates.first?.sets.count == 2)
        #expect(ColorCatalog.catalogPath(of: "Extensions/Widget/Assets.xcassets/Brand.colorset/Contents.json")
            == "Extensions/Widget/Assets.xcassets")
    }

    @Test func sharedFixturesAsOneCatalog() throws {
        guard let directory = SharedFixtures.colorsets else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        let entries: [(path: String, bytes: [UInt8])] = try files.map { file in
            let name = String(file.dropLast(".json".count))
            return ("Repo/Assets.xcassets/\(name).colorset/Contents.json",
                    Array(try Data(contentsOf: directory.appendingPathComponent(file))))
        }
        let catalog = ColorCatalog.build(entries) { _ in .iOS }
        #expect(catalog.errors.isEmpty)
        #expect(catalog.sets.count == files.count)
        #expect(catalog.color(named: "mastodon__mastodon-ios__alert.yellow") != nil)
    }
}
