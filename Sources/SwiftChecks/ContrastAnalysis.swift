import AuditModel
import ColorAssets
import SwiftSyntax

/// A colour pair resolved to concrete colours in the four appearances and judged by WCAG 2.x
/// (and, for text, by Apple's table). Shared by the two contrast rules.
struct ContrastEvaluation {
    struct Reading {
        let appearance: Appearance
        let foreground: RGBA
        let background: RGBA
        let ratio: Double
        /// WCAG 2.x SC 1.4.3 for text, SC 1.4.11 for non-text.
        let wcag: Verdict
        /// Apple's table (text only).
        let apple: Verdict?
    }

    let pair: ColorPair
    let readings: [Reading]
    let pointSize: Double
    /// The text style the size comes from; nil for a fixed size.
    let style: String?
    let bold: Bool

    var sizeSource: String { style.map { "\($0) at the default text size" } ?? "fixed size" }

    /// Increased-contrast readings that fail: with the setting on (whatever the default does),
    /// nothing more the person can do makes the pair readable in that luminosity.
    var failsWithIncreasedContrast: [Reading] {
        readings.filter { $0.appearance.isIncreasedContrast && !$0.wcag.passes }
    }

    /// Default readings that fail while their increased-contrast variant passes.
    var rescuedByIncreasedContrast: [Reading] {
        readings.filter { !$0.wcag.passes && !$0.appearance.isIncreasedContrast }.filter { standard in
            readings.contains { $0.appearance.isIncreasedContrast && $0.appearance.isDark == standard.appearance.isDark && $0.wcag.passes }
        }
    }

    /// The default reading of the same luminosity as an increased-contrast one.
    func standardReading(of reading: Reading) -> Reading? {
        readings.first { !$0.appearance.isIncreasedContrast && $0.appearance.isDark == reading.appearance.isDark }
    }

    /// "`Color("Caption")` #616161 on the system background #000000 (assumed: none set)".
    /// Built only for the pairs a rule reports.
    func describe(_ readings: [Reading], in file: SourceFile) -> String {
        // Appearances with the same colours (literals are the same in all four) are named together.
        var groups: [(appearances: [Appearance], reading: Reading)] = []
        for reading in readings.sorted(by: { $0.appearance < $1.appearance }) {
            if let index = groups.firstIndex(where: { $0.reading.foreground == reading.foreground && $0.reading.background == reading.background }) {
                groups[index].appearances.append(reading.appearance)
            } else {
                groups.append(([reading.appearance], reading))
            }
        }
        let parts = groups.map { group in
            let names = group.appearances.count == Appearance.allCases.count
                ? "every appearance" : group.appearances.map(\.displayName).joined(separator: ", ")
            return "\(names) \(group.reading.wcag.ratioText) (\(group.reading.foreground.hex) on \(group.reading.background.hex))"
        }
        let subject = pair.isText ? "\(pointSize.points) pt\(bold ? " bold" : "") text (\(sizeSource))" : "a non-text indicator"
        let background = pair.background.map { ContrastAnalysis.describe($0, file) }
            ?? "the system background (assumed: no background is set)"
        let foregroundName = ContrastAnalysis.describe(pair.foreground, file)
        // Colour sets whose extended-range or wide-gamut values were clipped into sRGB to be judged.
        let clampedSets = [pair.foreground, pair.background].compactMap { $0 }.compactMap { expression -> String? in
            guard case .asset(let name) = expression.base,
                  let set = ContrastAnalysis.assetSet(name, file.context.colors, file.context.colorSymbols, near: file.path),
                  !set.clampedAppearances.isEmpty else { return nil }
            return set.name
        }
        let clamped = clampedSets.isEmpty ? "" : " (values of \(clampedSets.map { "\"\($0)\"" }.joined(separator: ", ")) outside sRGB were clipped to judge them)"
        return "\(foregroundName) on \(background), \(subject): \(parts.joined(separator: "; "))\(clamped)"
    }

    /// Both verdicts for the worst reading, WCAG first and Apple's table named as such.
    func verdicts(_ reading: Reading) -> String {
        var text = reading.wcag.description
        if let apple = reading.apple { text += "; \(apple.description)" }
        return text
    }
}

enum ContrastAnalysis {
    /// Evaluations of every pair in the file whose colours resolve in all four appearances.
    static func evaluate(_ file: SourceFile) -> [ContrastEvaluation] {
        let pairs = file.colorPairs(judgeableOnly: true)
        guard !pairs.isEmpty else { return [] }
        // Files repeat the same few colours: each is resolved once per platform.
        var resolved: [ResolutionKey: [Appearance: RGBA]?] = [:]
        func lookup(_ expression: ColorExpression, _ platform: Platform) -> [Appearance: RGBA]? {
            let key = ResolutionKey(expression: expression, platform: platform)
            if let known = resolved[key] { return known }
            let value = resolve(expression, platform, file.context.colors, file.context.colorSymbols, near: file.path,
                                accent: file.context.accentColorIsSet.map { $0 ? file.context.accentColorSetPath : nil })
            resolved[key] = value
            return value
        }
        return pairs.compactMap { pair in
            if file.isInPreview(pair.element) { return nil }
            return evaluate(pair, file, lookup)
        }
    }

    struct ResolutionKey: Hashable {
        let expression: ColorExpression
        let platform: Platform
    }

    static func evaluate(_ pair: ColorPair, _ file: SourceFile,
                         _ lookup: (ColorExpression, Platform) -> [Appearance: RGBA]?) -> ContrastEvaluation? {
        // System colours on system colours (or the assumed system background) are Apple's own
        // pairings, and the table's semantic values are a public dump, not Apple's numbers:
        // judging `.secondary` on the default background would contradict the fix we give.
        // The accent colour is the app's own where its catalog sets one (`AccentColor`, Xcode's
        // global accent colour): a button's default tint is then a colour the app chose.
        if case .system = pair.foreground.base, !isAppAccent(pair.foreground.base, file),
           pair.background.map({ if case .system = $0.base { return true } else { return false } }) ?? true {
            return nil
        }
        let platforms = file.platforms(at: pair.element)
        let platform = [Platform.iOS, .visionOS, .tvOS, .watchOS, .macOS].first(where: platforms.contains) ?? .iOS
        guard let foreground = lookup(pair.foreground, platform) else { return nil }
        let systemBackground = lookup(.system("systemBackground"), platform)
        let background: [Appearance: RGBA]
        if let expression = pair.background {
            guard let resolved = lookup(expression, platform) else { return nil }
            background = resolved
        } else {
            guard let system = systemBackground else { return nil }
            background = system
        }

        // macOS's text styles are fixed and smaller (title2 is 17 pt there, 22 pt on iOS).
        let sizes = platform == .macOS ? file.reference.macosTextStyleSizes : file.reference.iosTextStyleSizes["Large (default)"] ?? [:]
        let style = pair.textStyle ?? "body"
        let pointSize = pair.pointSize ?? sizes[style] ?? sizes["body"] ?? 17

        // Read once: each use of `.shared` copies the tables' references.
        let reference = ColorReference.shared
        var readings: [ContrastEvaluation.Reading] = []
        readings.reserveCapacity(4)
        for appearance in Appearance.allCases {
            guard var back = background[appearance], let fore = foreground[appearance] else { return nil }
            // A translucent background shows whatever is behind it; that is the system background
            // only when nothing else is set, which the pair cannot tell. Judge only that case.
            if back.alpha < 1 {
                guard pair.background == nil, let base = systemBackground?[appearance] else { return nil }
                back = back.composited(over: base.opaque)
            }
            let shown = fore.composited(over: back.opaque)
            let ratio = Contrast.ratio(shown, back.opaque, reference: reference)
            let wcag = pair.isText ? Contrast.wcag(ratio: ratio, pointSize: pointSize, bold: pair.isBold, reference: reference)
                : Contrast.nonText(ratio: ratio, reference: reference)
            let apple = pair.isText ? Contrast.appleTable(ratio: ratio, pointSize: pointSize, bold: pair.isBold, reference: reference) : nil
            readings.append(.init(appearance: appearance, foreground: shown, background: back.opaque, ratio: ratio,
                                  wcag: wcag, apple: apple))
        }
        // Both rules report only failing readings: a pair that passes everywhere is done here.
        guard readings.contains(where: { !$0.wcag.passes }) else { return nil }
        return ContrastEvaluation(pair: pair, readings: readings, pointSize: pointSize,
                                  style: pair.pointSize == nil ? style : nil, bold: pair.isBold)
    }

    static func isAppAccent(_ expression: ColorExpression, _ file: SourceFile) -> Bool {
        guard case .system(let name) = expression, ["accentColor", "tint", "AccentColor"].contains(name) else { return false }
        // The targets building the file decide where they say; else the nearest set.
        if let known = file.context.accentColorIsSet { return known }
        return file.context.colors.color(named: "AccentColor", near: file.path)?.values.isEmpty == false
    }

    /// The colour in each appearance, or nil when any appearance cannot be resolved.
    /// `accent`: the accent colour of the targets building the file, where they say: the path
    /// of its set (`.some(path)`), or none set (`.some(nil)`, the system's blue); `nil` when no
    /// target says, and the nearest set decides.
    static func resolve(_ expression: ColorExpression, _ platform: Platform, _ catalog: ColorCatalog,
                        _ symbols: [String: String], near path: String, accent: String?? = nil) -> [Appearance: RGBA]? {
        switch expression {
        case .asset(let name):
            if let set = catalog.color(named: name, near: path) {
                var result: [Appearance: RGBA] = [:]
                for appearance in Appearance.allCases {
                    guard let color = set.rgba(appearance, platform: platform) else { return nil }
                    result[appearance] = color
                }
                return result
            }
            // `.brand` may be a generated symbol of a set named "Brand", or a system colour.
            if let setName = symbols[name] {
                return resolve(.asset(setName), platform, catalog, symbols, near: path)
            }
            return SystemColors.resolve(name, platform: platform)
        case .system(let name):
            switch name {
            case "accentColor", "tint", "AccentColor":
                if let accent {
                    // A set's own path is nearest to itself.
                    guard let own = accent else { return SystemColors.resolve("systemBlue", platform: platform) }
                    return resolve(.asset("AccentColor"), platform, catalog, symbols, near: own)
                }
                if catalog.color(named: "AccentColor", near: path)?.values.isEmpty == false {
                    return resolve(.asset("AccentColor"), platform, catalog, symbols, near: path)
                }
                return SystemColors.resolve("systemBlue", platform: platform)
            case "background":
                return SystemColors.resolve("systemBackground", platform: platform)
            default:
                return SystemColors.resolve(name, platform: platform)
            }
        case .literal(let space, let red, let green, let blue, let alpha):
            let colorSpace = ColorSpace(rawValue: space) ?? .sRGB
            let components = colorSpace == .grayGamma22 || colorSpace == .extendedGray ? [red] : [red, green, blue]
            let color = ColorConversion.toSRGB(components, alpha: alpha, in: colorSpace).rgba
            return Dictionary(uniqueKeysWithValues: Appearance.allCases.map { ($0, color) })
        case .opacity(let inner, let opacity):
            guard let base = resolve(inner, platform, catalog, symbols, near: path, accent: accent) else { return nil }
            return base.mapValues { color in
                var faded = color
                faded.alpha *= opacity
                return faded
            }
        }
    }

    /// The colour set `name` (a set name or a generated symbol) stands for in this file.
    static func assetSet(_ name: String, _ catalog: ColorCatalog, _ symbols: [String: String], near path: String) -> ColorSet? {
        catalog.color(named: name, near: path) ?? symbols[name].flatMap { catalog.color(named: $0, near: path) }
    }

    static func describe(_ expression: ColorExpression, _ file: SourceFile) -> String {
        switch expression {
        case .asset(let name):
            // A name several catalogs define: say which one was judged.
            let catalog = file.context.colors
            guard let set = assetSet(name, catalog, file.context.colorSymbols, near: file.path) else { return "colour set \"\(name)\"" }
            let count = catalog.count(named: set.name)
            guard count > 1 else { return "colour set \"\(name)\"" }
            return "colour set \"\(name)\" (from \(ColorCatalog.catalogPath(of: set.path)), the nearest of \(count) sets with that name)"
        case .system(let name):
            if isAppAccent(expression, file) { return "the app's accent colour (colour set \"AccentColor\", the tint of `\(name)` and of buttons)" }
            return "system colour `\(name)`"
        case .literal: return "a literal colour"
        case .opacity(let inner, let opacity): return "\(describe(inner, file)) at \(Int((min(max(opacity, 0), 1) * 100).rounded()))% opacity"
        }
    }
}

extension ColorExpression {
    /// The colour under any opacity.
    var base: ColorExpression {
        if case .opacity(let inner, _) = self { return inner.base }
        return self
    }
}
