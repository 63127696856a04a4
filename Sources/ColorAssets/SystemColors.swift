import AuditModel

/// A system colour resolved for the four appearances, with the table it came from.
public struct SystemColor: Hashable, Sendable {
    /// UIKit-style name without the "Color" suffix: "systemBlue", "label", "systemBackground".
    public let name: String
    public let variants: [Appearance: RGBA]
    /// Where the numbers come from, for a finding's message.
    public let source: String
}

/// Apple's system colours by the names code and colour sets use, from system-colors.json.
///
/// What resolves:
/// - The tinted colours (`systemRed` … `systemBrown`; SwiftUI `.red` … `.brown`): the current
///   HIG table (values of June 2025), which the HIG now gives once for every platform. On
///   visionOS, whose "system colors use the default dark color values", all four variants are
///   the dark ones.
/// - `systemGray` (SwiftUI `.gray`, per the HIG's "the equivalent of systemGray is gray") and
///   `systemGray2`…`systemGray6`: the current iOS, iPadOS gray table; on macOS only `systemGray`,
///   from the 2023 macOS table (the current page has no macOS grays, and AppKit has no
///   systemGray2…6). tvOS and watchOS use the iOS table: the HIG gives them none of their own.
/// - iOS semantic colours (`label`, `secondaryLabel`, `systemBackground`, `separator`, `link`, …;
///   SwiftUI `.primary` = `label` and `.secondary` = `secondaryLabel`, an inference: the table
///   does not state it): the iOS 13-era public dump in the table (Apple publishes no values);
///   on iOS, tvOS and visionOS (dark values). Base level only: the elevated variants (sheets,
///   popovers) are not used.
/// - `black`, `white`, `clear`: their definitions, not a table.
///
/// What does not (returns nil): macOS semantic colours (`labelColor`, `windowBackgroundColor`,
/// `controlBackgroundColor`, `textColor`, …: the table has no values), semantic colours on
/// watchOS, `UIColor.red`-style fixed colours (pure primaries, not system colours: only the
/// qualified `UIColor.`/`NSColor.` spelling is told apart from SwiftUI's `.red`), the app's
/// `accentColor`/`tint`, and anything else.
public enum SystemColors {
    /// The four variants of a system colour on a platform, or nil when the table has none.
    public static func resolve(_ name: String, platform: Platform) -> [Appearance: RGBA]? {
        lookup(name, platform: platform)?.variants
    }

    /// Names as written in code or in a colour set's `reference`: "red", ".red", "Color.red",
    /// "systemRed", "UIColor.systemRed", "systemRedColor", ".primary", "label", "labelColor".
    public static func lookup(_ name: String, platform: Platform, reference: ColorReference = .shared) -> SystemColor? {
        let table = reference.systemColors
        guard let (canonical, _) = canonicalize(name, table: table) else { return nil }
        return table.color(canonical, platform: platform)
    }

    /// The UIKit-style name a spelling stands for ("systemBlue" for ".blue" and
    /// "systemBlueColor", "label" for ".primary"), whether or not `platform` has values for it.
    public static func canonicalName(_ name: String, reference: ColorReference = .shared) -> String? {
        canonicalize(name, table: reference.systemColors)?.name
    }

    /// Every canonical name the table knows.
    public static func knownNames(reference: ColorReference = .shared) -> [String] {
        reference.systemColors.allNames
    }

    private enum Framework { case swiftUI, appleKit, unqualified }

    private static func canonicalize(_ spelling: String, table: SystemColorTable) -> (name: String, framework: Framework)? {
        var name = Substring(spelling.trimmingWhitespace)
        if name.hasPrefix("SwiftUI.") { name = name.dropFirst("SwiftUI.".count) }
        var framework = Framework.unqualified
        for (prefix, kind) in [("Color.", Framework.swiftUI), ("UIColor.", .appleKit), ("NSColor.", .appleKit),
                               ("UIKit.UIColor.", .appleKit), ("AppKit.NSColor.", .appleKit)] where name.hasPrefix(prefix) {
            name = name.dropFirst(prefix.count)
            framework = kind
            break
        }
        if name.hasPrefix(".") { name = name.dropFirst() }
        let bare = String(name)
        if SystemColorTable.constants[bare] != nil { return (bare, framework) }
        if framework != .appleKit {
            if let uikit = table.swiftUINames[bare] { return (uikit, framework) }
            if bare == "primary" { return ("label", framework) }
            if bare == "secondary" { return ("secondaryLabel", framework) }
        }
        if table.knows(bare) { return (bare, framework) }
        if bare.hasSuffix("Color") {
            let stripped = String(bare.dropLast("Color".count))
            if table.knows(stripped) || SystemColorTable.constants[stripped] != nil { return (stripped, framework) }
        }
        return nil
    }
}

/// The parts of system-colors.json the resolver uses.
struct SystemColorTable: Sendable {
    /// Current HIG tinted colours, by UIKit name.
    var tinted: [String: [Appearance: RGBA]] = [:]
    /// SwiftUI member name -> UIKit name ("red" -> "systemRed"), from `swiftui_api`.
    var swiftUINames: [String: String] = [:]
    /// Current HIG iOS, iPadOS grays.
    var iosGrays: [String: [Appearance: RGBA]] = [:]
    /// 2023 HIG macOS (default tab) systemGray.
    var macGray: [Appearance: RGBA]?
    /// iOS semantic colours (public dump; Apple gives no values).
    var iosSemantic: [String: [Appearance: RGBA]] = [:]

    static let constants: [String: RGBA] = ["black": .black, "white": .white, "clear": .clear]

    static let tintedSource = "Apple HIG › Color › Specifications, system colors (values of June 9, 2025)"
    static let graySource = "Apple HIG › Color › Specifications, iOS, iPadOS system gray colors"
    static let macGraySource = "Apple HIG › Color › Specifications, macOS system colors (2023 revision)"
    static let semanticSource = "iOS 13-era UIKit values (public dump; the HIG names these colors but gives no values)"

    var allNames: [String] {
        (Array(tinted.keys) + Array(iosGrays.keys) + Array(iosSemantic.keys) + Array(Self.constants.keys)).sorted()
    }

    func knows(_ name: String) -> Bool {
        tinted[name] != nil || iosGrays[name] != nil || iosSemantic[name] != nil
    }

    init(_ root: JSONNode) throws(ColorReferenceError) {
        let current = try root.object("current_hig_2025", in: "system-colors")
        let colors = try current.object("system_colors", in: "system-colors")
        for member in colors.members ?? [] {
            tinted[member.key] = try Self.variants(member.value, name: member.key, keys: Self.tableKeys)
            if let swiftUI = member.value["swiftui_api"]?.string { swiftUINames[swiftUI] = member.key }
        }
        let grays = try current.object("ios_ipados_system_gray_colors", in: "system-colors")
            .object("colors", in: "system-colors")
        for member in grays.members ?? [] {
            iosGrays[member.key] = try Self.variants(member.value, name: member.key, keys: Self.tableKeys)
        }
        // "In SwiftUI, the equivalent of systemGray is gray." (HIG, quoted in the table's note)
        if iosGrays["systemGray"] != nil { swiftUINames["gray"] = "systemGray" }
        if let mac = root["hig_2023_per_platform"]?["macos_system_colors"]?["default"]?["systemGray"] {
            macGray = try Self.variants(mac, name: "macOS systemGray", keys: Self.tableKeys)
        }
        let semantic = try root.object("semantic_ui_colors_ios", in: "system-colors").object("colors", in: "system-colors")
        for member in semantic.members ?? [] {
            iosSemantic[member.key] = try Self.variants(member.value, name: member.key, keys: Self.semanticKeys)
        }
        guard !tinted.isEmpty, !iosGrays.isEmpty, !iosSemantic.isEmpty else {
            throw ColorReferenceError(table: "system-colors", reason: "a system colour table is empty")
        }
    }

    private static let tableKeys: [(String, Appearance)] = [
        ("default_light", .light), ("default_dark", .dark),
        ("increased_contrast_light", .lightIncreasedContrast), ("increased_contrast_dark", .darkIncreasedContrast),
    ]
    private static let semanticKeys: [(String, Appearance)] = [
        ("light", .light), ("dark", .dark),
        ("increased_contrast_light", .lightIncreasedContrast), ("increased_contrast_dark", .darkIncreasedContrast),
    ]

    private static func variants(_ node: JSONNode, name: String, keys: [(String, Appearance)]) throws(ColorReferenceError) -> [Appearance: RGBA] {
        var result: [Appearance: RGBA] = [:]
        for (key, appearance) in keys {
            guard let cell = node[key], let rgb = cell["rgb"]?.array?.compactMap(\.number), rgb.count == 3 else {
                throw ColorReferenceError(table: "system-colors", reason: "\(name).\(key) has no rgb triple")
            }
            // Semantic colours carry an 8-bit alpha (more exact than the rounded decimal).
            let alpha = cell["alpha_8bit"]?.number.map { $0 / 255 } ?? cell["alpha"]?.number ?? 1
            result[appearance] = RGBA(red: rgb[0] / 255, green: rgb[1] / 255, blue: rgb[2] / 255, alpha: alpha)
        }
        return result
    }

    /// All four appearances set to the dark ones (visionOS).
    private static func darkOnly(_ variants: [Appearance: RGBA]) -> [Appearance: RGBA] {
        var result: [Appearance: RGBA] = [:]
        for appearance in Appearance.allCases {
            result[appearance] = variants[appearance.isIncreasedContrast ? .darkIncreasedContrast : .dark]
        }
        return result
    }

    func color(_ name: String, platform: Platform) -> SystemColor? {
        if let constant = Self.constants[name] {
            var variants: [Appearance: RGBA] = [:]
            for appearance in Appearance.allCases { variants[appearance] = constant }
            return SystemColor(name: name, variants: variants, source: "the definition of \(name)")
        }
        let dark = platform == .visionOS
        if let variants = tinted[name] {
            return SystemColor(name: name, variants: dark ? Self.darkOnly(variants) : variants,
                               source: Self.tintedSource + (dark ? "; visionOS uses the dark values" : ""))
        }
        if let variants = iosGrays[name] {
            if platform == .macOS {
                guard name == "systemGray", let macGray else { return nil }
                return SystemColor(name: name, variants: macGray, source: Self.macGraySource)
            }
            let note = switch platform {
            case .iOS, .macOS: ""
            case .visionOS: "; visionOS uses the dark values"
            case .tvOS, .watchOS: "; applied to \(platform.displayName), which has no table of its own"
            }
            return SystemColor(name: name, variants: dark ? Self.darkOnly(variants) : variants, source: Self.graySource + note)
        }
        if let variants = iosSemantic[name] {
            switch platform {
            case .iOS, .tvOS:
                return SystemColor(name: name, variants: variants, source: Self.semanticSource)
            case .visionOS:
                return SystemColor(name: name, variants: Self.darkOnly(variants), source: Self.semanticSource + "; dark values on visionOS")
            case .macOS, .watchOS:
                return nil
            }
        }
        return nil
    }
}

extension String {
    var trimmingWhitespace: String {
        // Nearly always nothing to trim: both ends are printable ASCII.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return self
        }
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
