import AuditModel
import ColorAssets
import Foundation
import Testing

/// `shared/` beside the checkout (as CI and the sessions lay it out), if present.
enum SharedFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var colorsets: URL? {
        let directory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/colorsets")
        return FileManager.default.fileExists(atPath: directory.path) ? directory : nil
    }

    /// One fixture parsed for iOS; nil (and the test returns) when `shared/` is absent.
    static func colorSet(_ file: String, platform: Platform? = .iOS) throws -> ColorSet? {
        guard let directory = colorsets else { return nil }
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return try ColorSetParser.parse(data, path: file, name: file, platform: platform)
    }
}

func parse(_ json: String, platform: Platform? = .iOS) throws(ColorSetError) -> ColorSet {
    try ColorSetParser.parse(Data(json.utf8), path: "Test.colorset/Contents.json", name: "Test", platform: platform)
}

/// The error a malformed colour set gives, or nil if it parsed.
func parseError(_ json: String) -> ColorSetError? {
    do {
        _ = try parse(json)
        return nil
    } catch {
        return error
    }
}

func hexes(_ set: ColorSet, platform: Platform? = nil) -> [String?] {
    Appearance.allCases.map { set.rgba($0, platform: platform)?.hex }
}

@Suite struct ColorSetParserTests {
    @Test func everySharedFixtureParses() throws {
        guard let directory = SharedFixtures.colorsets else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 60)
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            for platform in [Platform?.none] + Platform.allCases.map(Optional.some) {
                let set: ColorSet
                do { set = try ColorSetParser.parse(data, path: file, name: file, platform: platform) } catch {
                    Issue.record("\(file) does not parse: \(error)")
                    break
                }
                // Every set that defines a colour defines it for all four appearances after
                // fallbacks, from an entry with a line number.
                let definesColour = set.entries.contains { $0.value != nil }
                #expect(definesColour == !set.values.isEmpty, "\(file)")
                if definesColour {
                    #expect(set.values.count == 4 && set.lines.count == 4, "\(file)")
                    #expect(set.provided.contains(.light), "\(file)")
                }
                #expect(set.idioms == ["universal"], "\(file)")
            }
        }
    }

    @Test func hexNotationWithFourVariants() throws {
        guard let set = try SharedFixtures.colorSet("corona-warn-app__cwa-app-ios__ENA_Text_Primary_1_Color.json") else { return }
        #expect(hexes(set) == ["#17191A", "#FFFFFF", "#000000", "#FFFFFF"])
        #expect(set.provided == Set(Appearance.allCases))
        #expect(set.missing.isEmpty)
        #expect(set.lines == [.light: 3, .dark: 15, .lightIncreasedContrast: 33, .darkIncreasedContrast: 51])
    }

    @Test func eightBitIntegerNotationFallsBackForIncreasedContrast() throws {
        guard let set = try SharedFixtures.colorSet("Ranchero-Software__NetNewsWire__feedlyColor.json") else { return }
        // red 43, green 177, blue 76; dark 23, 157, 56.
        #expect(hexes(set) == ["#2BB14C", "#179D38", "#2BB14C", "#179D38"])
        #expect(set.provided == [.light, .dark])
        #expect(set.missing == [.lightIncreasedContrast, .darkIncreasedContrast])
    }

    @Test func integerZeroAndTranslucentAlpha() throws {
        guard let set = try SharedFixtures.colorSet("Ranchero-Software__NetNewsWire__controlBackgroundColor.json") else { return }
        // "0"/"255" with alpha "0.250": 0.25 * 255 = 63.75 -> 0x40.
        #expect(set.rgba(.light)?.hex == "#00000040")
        #expect(set.rgba(.dark)?.hex == "#FFFFFF40")
        #expect(set.rgba(.light)?.composited(over: .white).hex == "#BFBFBF")
    }

    @Test func mixedNotationsInOneSet() throws {
        guard let floats = try SharedFixtures.colorSet("mastodon__mastodon-ios__navigation.next.button.background.json"),
              let mixed = try SharedFixtures.colorSet("mastodon__mastodon-ios__profile.card.background.json") else { return }
        // 40, 44, 55 then "0.933" (237.9 -> EE).
        #expect(floats.rgba(.light)?.hex == "#282C37")
        #expect(floats.rgba(.dark)?.hex == "#EEEEEE")
        // 249, 250, 251 then 0x1C, 0x1C, 0x1E.
        #expect(mixed.rgba(.light)?.hex == "#F9FAFB")
        #expect(mixed.rgba(.dark)?.hex == "#1C1C1E")
    }

    @Test func displayP3IsConvertedToSRGB() throws {
        guard let accent = try SharedFixtures.colorSet("Dimillian__IceCubesApp__AccentColor.json"),
              let grey = try SharedFixtures.colorSet("duckduckgo__iOS__AutofillCellSelectedBackground.json"),
              let mixed = try SharedFixtures.colorSet("spacepandas__cineaste-ios__navBarTint.json") else { return }
        // P3 (0.675, 0.267, 0.859) -> sRGB (0.7308, 0.2294, 0.8889), in gamut.
        #expect(accent.rgba(.light)?.hex == "#BA3AE3")
        #expect(accent.clampedAppearances.isEmpty)
        guard case .color(let converted)? = accent[.light] else {
            Issue.record("expected a colour")
            return
        }
        #expect(converted.colorSpace == .displayP3)
        #expect(abs(converted.rgba.red - 0.7308) < 0.0005 && abs(converted.rgba.blue - 0.8889) < 0.0005)
        // Greys are the same in both spaces (rows of the matrix sum to 1): 0.8 -> CC, 0.267 -> 44.
        #expect(hexes(grey) == ["#CCCCCC", "#444444", "#CCCCCC", "#444444"])
        // srgb hex for standard contrast, display-p3 hex for increased contrast. P3
        // (FF, FE, FF) lies just outside sRGB and is clipped, and says so.
        #expect(hexes(mixed) == ["#FFFFFF", "#EA5630", "#FFFEFF", "#FF8600"])
        #expect(mixed.clampedAppearances == [.lightIncreasedContrast, .darkIncreasedContrast])
    }

    @Test func systemReferenceAndGrayGamma() throws {
        guard let background = try SharedFixtures.colorSet("Ranchero-Software__NetNewsWire__fullScreenBackgroundColor.json"),
              let separator = try SharedFixtures.colorSet("Ranchero-Software__NetNewsWire__timelineSeparatorColor.json"),
              let label = try SharedFixtures.colorSet("Dimillian__IceCubesApp__label.json") else { return }
        #expect(background[.light] == .system(SystemColorReference(name: "systemBackgroundColor", platform: "ios")))
        #expect(background.lines[.light] == 7 && background.lines[.dark] == 14)
        // systemBackground is white in light; the dark entry is gray-gamma-22 white 0.
        #expect(hexes(background) == ["#FFFFFF", "#000000", "#FFFFFF", "#000000"])
        // gray-gamma-22 0.9: 0.9^2.2 linear, re-encoded with the sRGB curve -> 230.2 -> E6.
        #expect(separator.rgba(.light)?.hex == "#E6E6E6")
        // quaternaryLabelColor on macOS: the table has no macOS semantic values.
        #expect(separator[.dark] == .system(SystemColorReference(name: "quaternaryLabelColor", platform: "osx")))
        #expect(separator[.dark]?.rgba(.dark, platform: .iOS) == nil)
        // labelColor with platform "universal" resolves on the set's platform (iOS).
        #expect(hexes(label) == ["#000000", "#FFFFFF", "#000000", "#FFFFFF"])
        #expect(label.provided == [.light, .dark])
    }

    @Test func extendedSRGBInRange() throws {
        guard let set = try SharedFixtures.colorSet("duckduckgo__iOS__CancelButtonBackgroundColor.json") else { return }
        #expect(set.rgba(.light)?.hex == "#EEEEEE")
        #expect(set.rgba(.dark)?.hex == "#666666")
        #expect(set.clampedAppearances.isEmpty)
    }

    @Test func emptySlotIsNotAnError() throws {
        guard let set = try SharedFixtures.colorSet("mastodon__mastodon-ios__AccentColor.json") else { return }
        #expect(set.values.isEmpty && set.provided.isEmpty && set.idioms == ["universal"])
        #expect(set.missing == Appearance.allCases)
    }

    @Test func extendedValuesAreClampedWithAFlag() throws {
        let set = try parse("""
        {"colors": [
          {"idiom": "universal", "color": {"color-space": "extended-srgb",
            "components": {"red": "1.200", "green": "-0.100", "blue": "0.500", "alpha": "1.000"}}},
          {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "dark"}],
           "color": {"color-space": "extended-gray", "components": {"white": "-0.200", "alpha": "1.000"}}}
        ]}
        """)
        #expect(set.rgba(.light)?.hex == "#FF0080")
        #expect(set.rgba(.dark)?.hex == "#000000")
        #expect(set.clampedAppearances == Appearance.allCases)
        guard case .color(let light)? = set[.light] else {
            Issue.record("expected a colour")
            return
        }
        #expect(light.wasClamped && light.unclamped.red == 1.2 && light.unclamped.green == -0.1)
    }

    @Test func componentNotations() throws {
        func light(_ components: String, space: String = "srgb") throws -> String? {
            try parse("""
            {"colors": [{"idiom": "universal", "color": {"color-space": "\(space)", "components": {\(components)}}}]}
            """).rgba(.light)?.hex
        }
        // Bare JSON numbers, as in Apple's sample.
        #expect(try light(#""red": 0.5, "green": 0.5, "blue": 0.5, "alpha": 1"#) == "#808080")
        // Hex alpha, lower-case hex, no alpha.
        #expect(try light(#""red": "0xff", "green": "0x80", "blue": "0x00", "alpha": "0x80""#) == "#FF800080")
        #expect(try light(#""red": "0.000", "green": "0.502", "blue": "1.000""#) == "#0080FF")
        // "1" beside 8-bit values is 1/255; on its own beside "0" it is 1.0.
        #expect(try light(#""red": "1", "green": "128", "blue": "0""#) == "#018000")
        #expect(try light(#""red": "1", "green": "0", "blue": "0""#) == "#FF0000")
        // Extended linear sRGB 0.5 linear light is 0.7354 encoded -> BC.
        #expect(try light(#""red": "0.500", "green": "0.500", "blue": "0.500""#, space: "extended-linear-srgb") == "#BCBCBC")
    }

    @Test func appearanceFallbacksAndIdioms() throws {
        // Any + contrast:high only: dark falls back to Any, dark + increased contrast to the
        // high-contrast Any entry.
        let anyAndHigh = try parse("""
        {"colors": [
          {"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "0x11", "green": "0x11", "blue": "0x11"}}},
          {"idiom": "universal", "appearances": [{"appearance": "contrast", "value": "high"}],
           "color": {"color-space": "srgb", "components": {"red": "0x22", "green": "0x22", "blue": "0x22"}}}
        ]}
        """)
        #expect(hexes(anyAndHigh) == ["#111111", "#111111", "#222222", "#222222"])
        #expect(anyAndHigh.provided == [.light, .lightIncreasedContrast])

        // Any, Light, Dark + high contrast for Any only: dark + increased contrast keeps dark.
        let layered = try parse("""
        {"colors": [
          {"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "0x11", "green": "0x11", "blue": "0x11"}}},
          {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "light"}],
           "color": {"color-space": "srgb", "components": {"red": "0x33", "green": "0x33", "blue": "0x33"}}},
          {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "dark"}],
           "color": {"color-space": "srgb", "components": {"red": "0x44", "green": "0x44", "blue": "0x44"}}},
          {"idiom": "universal", "appearances": [{"appearance": "contrast", "value": "high"}],
           "color": {"color-space": "srgb", "components": {"red": "0x22", "green": "0x22", "blue": "0x22"}}},
          {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "tinted"}],
           "color": {"color-space": "srgb", "components": {"red": "0x99", "green": "0x99", "blue": "0x99"}}}
        ]}
        """)
        #expect(hexes(layered) == ["#333333", "#444444", "#222222", "#444444"])
        #expect(layered.provided == [.light, .dark, .lightIncreasedContrast])
        #expect(layered.entries.last?.unsupportedAppearances == ["luminosity: tinted"])

        // Idioms: the platform's own idiom wins over universal; others are ignored.
        let idioms = """
        {"colors": [
          {"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "0x11", "green": "0x11", "blue": "0x11"}}},
          {"idiom": "mac", "color": {"color-space": "srgb", "components": {"red": "0x22", "green": "0x22", "blue": "0x22"}}},
          {"idiom": "ipad", "color": {"color-space": "srgb", "components": {"red": "0x33", "green": "0x33", "blue": "0x33"}}},
          {"idiom": "iphone", "color": {"color-space": "srgb", "components": {"red": "0x44", "green": "0x44", "blue": "0x44"}}}
        ]}
        """
        #expect(try parse(idioms, platform: .iOS).rgba(.light)?.hex == "#444444")
        #expect(try parse(idioms, platform: .macOS).rgba(.light)?.hex == "#222222")
        #expect(try parse(idioms, platform: .watchOS).rgba(.light)?.hex == "#111111")
        #expect(try parse(idioms, platform: nil).rgba(.light)?.hex == "#111111")
        #expect(try parse(idioms).idioms == ["universal", "mac", "ipad", "iphone"])
        let macOnly = try parse("""
        {"colors": [{"idiom": "mac", "color": {"color-space": "srgb", "components": {"red": "0x22", "green": "0x22", "blue": "0x22"}}}]}
        """, platform: .iOS)
        #expect(macOnly.values.isEmpty)

        // Current devices have P3 displays and draw the display-P3 gamut entry: it is the one
        // judged (converted to sRGB, clipped: pure P3 red lies outside sRGB).
        let gamuts = try parse("""
        {"colors": [
          {"idiom": "universal", "display-gamut": "display-P3", "color": {"color-space": "display-p3", "components": {"red": "1.000", "green": "0.000", "blue": "0.000"}}},
          {"idiom": "universal", "display-gamut": "sRGB", "color": {"color-space": "srgb", "components": {"red": "0.500", "green": "0.500", "blue": "0.500"}}}
        ]}
        """)
        #expect(gamuts.rgba(.light)?.hex == "#FF0000")
        #expect(gamuts.clampedAppearances.contains(.light))
    }

    @Test func aCommaAfterTheLastItemIsReadPastAndItsLineNoted() throws {
        let text = """
        {"colors": [
          {"idiom": "universal",
           "color": {"color-space": "srgb", "components": {"red": "0x11", "green": "0x22", "blue": "0x33", "alpha": "1.000",}}},
        ],
        "info": {"version": 1},
        }
        """
        let (set, line) = try ColorSetParser.parseNotingTrailingCommas(bytes: Array(text.utf8), path: "A.colorset/Contents.json",
                                                                       name: "A", platform: .iOS)
        #expect(set.rgba(.light)?.hex == "#112233")
        #expect(line == 3, "the first such comma, after alpha")
        let catalog = ColorCatalog.build([(path: "Assets.xcassets/A.colorset/Contents.json", bytes: Array(text.utf8))]) { _ in .iOS }
        #expect(catalog.errors.isEmpty && catalog.color(named: "A") != nil)
        #expect(catalog.tolerated.map(\.line) == [3] && catalog.tolerated.first?.reason == .trailingComma)
        // Two commas, or a comma where a value must follow, are still not JSON.
        for broken in [#"{"colors": [1,,]}"#, #"{"colors": [,]}"#, #"{, "colors": []}"#] {
            guard case .notJSON? = parseError(broken)?.reason else {
                Issue.record("\(broken) should not be read")
                continue
            }
        }
    }

    @Test func malformedInputsGiveReasons() {
        let notJSON = parseError(#"{"colors": [ {"idiom": "universal",, } ]}"#)
        if case .notJSON? = notJSON?.reason {} else { Issue.record("expected notJSON, got \(String(describing: notJSON))") }
        #expect(notJSON?.line == 1)
        #expect(notJSON?.description.hasPrefix("Test.colorset/Contents.json:1: not valid JSON") == true)

        #expect(parseError("").map { "\($0.reason)" }?.contains("empty") == true)
        #expect(parseError("[]")?.reason == .notAnObject)
        #expect(parseError(#"{"info": {"version": 1}}"#)?.reason == .missingColors)
        #expect(parseError(#"{"colors": {}}"#)?.reason == .wrongType(key: "colors", expected: "a list", found: "an object"))
        #expect(parseError(#"{"colors": [{"color": {"reference": "systemRedColor"}}]}"#)?.reason == .missingKey("idiom"))

        let missingBlue = parseError("""
        {"colors": [
          {"idiom": "universal",
           "color": {"color-space": "srgb", "components": {"red": "0.5", "green": "0.5", "alpha": "1.000"}}}
        ]}
        """)
        #expect(missingBlue?.reason == .missingComponent(name: "blue", colorSpace: .sRGB))
        #expect(missingBlue?.line == 3)
        #expect(missingBlue?.message.contains("needs red, green, blue, alpha") == true)

        for (value, detail) in [("\"0xZZ\"", "not 8-bit hex"), ("\"abc\"", "not a number"), ("\"300\"", "above 255"),
                                ("\"1e999\"", "not a number"), ("\"\"", "empty"), ("\"0x100\"", "not 8-bit hex"),
                                ("\"nan\"", "not a number")] {
            let error = parseError("""
            {"colors": [{"idiom": "universal", "color": {"color-space": "srgb",
              "components": {"red": \(value), "green": "0.5", "blue": "0.5"}}}]}
            """)
            guard case .badComponent(let name, _, let message)? = error?.reason else {
                Issue.record("\(value): expected badComponent, got \(String(describing: error))")
                continue
            }
            #expect(name == "red" && message.contains(detail), "\(value): \(message)")
            #expect(error?.message.contains("write a float 0...1") == true)
        }
        #expect(parseError("""
        {"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": true, "green": "0", "blue": "0"}}}]}
        """)?.reason == .wrongType(key: "red", expected: "a number or a numeric string", found: "a boolean"))
        #expect(parseError("""
        {"colors": [{"idiom": "universal", "color": {"color-space": "cmyk", "components": {"red": "0", "green": "0", "blue": "0"}}}]}
        """)?.reason == .unknownColorSpace("cmyk"))
        #expect(parseError(#"{"colors": [{"idiom": "universal", "color": {}}]}"#)?.reason == .emptyColor)
        // Deep nesting is refused, not a stack overflow.
        #expect(parseError(String(repeating: "[", count: 10_000)) != nil)
        // Not UTF-8.
        do {
            _ = try ColorSetParser.parse(bytes: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], path: "x", name: "x", platform: nil)
            Issue.record("invalid UTF-8 parsed")
        } catch {
            #expect(error.reason == .notJSON("a string is not valid UTF-8"))
        }
    }

    @Test func quotesAtMostEightyCharactersOfWhatTheFileSays() throws {
        let huge = String(repeating: "9", count: 5_000_000)
        let long = String(repeating: "x", count: 5_000_000)
        let cases = [
            // A component, as a string and as a bare number.
            #"{"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "\#(long)", "green": "0", "blue": "0"}}}]}"#,
            #"{"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": \#(huge), "green": "0", "blue": "0"}}}]}"#,
            // A colour space, and a key the JSON reader names in its syntax error.
            #"{"colors": [{"idiom": "universal", "color": {"color-space": "\#(long)", "components": {"red": "0", "green": "0", "blue": "0"}}}]}"#,
            #"{"\#(long)" 1}"#,
        ]
        for json in cases {
            let error = try #require(parseError(json))
            // The message and the reason (a finding's snippet) quote 80 characters and an ellipsis.
            #expect(error.description.count < 400, "\(error.description.prefix(200))")
            #expect(String(describing: error.reason).count < 400)
            #expect(error.message.contains(String(repeating: error.message.contains("999") ? "9" : "x", count: 80) + "…"))
        }
    }
}
