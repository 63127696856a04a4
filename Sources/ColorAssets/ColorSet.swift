import AuditModel
import Foundation

/// A colour set's alias to a system colour: `{"platform": "ios", "reference": "systemBlueColor"}`.
public struct SystemColorReference: Hashable, Sendable, Codable {
    /// As written: "systemBlueColor", "labelColor", "separatorColor".
    public let name: String
    /// As written: "ios", "osx", "universal", "XR" (observed), or nil.
    public let platform: String?

    public init(name: String, platform: String?) {
        self.name = name
        self.platform = platform
    }

    /// The platform the reference names: "ios" is iOS, "osx"/"macos" macOS, "XR" visionOS (an
    /// inference, see asset-catalog-colorset.json), "tvos", "watchos"; nil for "universal".
    public var referencedPlatform: Platform? {
        guard let platform else { return nil }
        if platform.lowercased() == "xr" { return .visionOS }
        return Platform(spelling: platform)
    }
}

/// The value of one appearance of a colour set.
public enum ColorValue: Hashable, Sendable {
    /// Components in a colour space, converted to sRGB.
    case color(ConvertedColor)
    /// An alias to a system colour, resolved through `SystemColors` when asked.
    case system(SystemColorReference)

    /// The sRGB colour this value shows in `appearance`. A system reference resolves on the
    /// platform it names, else on `platform`; nil when the system table has no values for it.
    public func rgba(_ appearance: Appearance, platform: Platform) -> RGBA? {
        switch self {
        case .color(let converted):
            return converted.rgba
        case .system(let reference):
            return SystemColors.resolve(reference.name, platform: reference.referencedPlatform ?? platform)?[appearance]
        }
    }
}

/// One element of a colour set's `colors` list.
public struct ColorSetEntry: Hashable, Sendable {
    public enum Luminosity: String, Hashable, Sendable { case light, dark }

    /// "universal", "iphone", "ipad", "mac", "vision", "watch", "tv", "car", …
    public let idiom: String
    /// nil is "Any".
    public let luminosity: Luminosity?
    /// `contrast: high`.
    public let highContrast: Bool
    /// "sRGB", "display-P3", or nil.
    public let displayGamut: String?
    /// nil for an empty slot (`{"idiom": "universal"}` alone, as Xcode writes an unset AccentColor).
    public let value: ColorValue?
    /// Appearances this reader does not model ("luminosity: tinted", …); such an entry is kept
    /// but never chosen.
    public let unsupportedAppearances: [String]
    /// 1-based line of the entry's opening brace in Contents.json.
    public let line: Int
}

/// A `.colorset` resolved for one platform into the four appearances.
public struct ColorSet: Hashable, Sendable {
    /// The name code uses: "Brand", or "Folder/Brand" under a namespace-providing folder.
    public let name: String
    /// Path of the set's Contents.json.
    public let path: String
    /// The platform whose idioms were chosen (nil: universal, else the first idiom present).
    public let platform: Platform?
    public let entries: [ColorSetEntry]
    /// Idioms present in the file, in order of first appearance.
    public let idioms: [String]
    /// What each appearance renders as, after Xcode's fallbacks (dark falls back to Any;
    /// increased contrast to the standard variant of the same luminosity). Empty when the set
    /// defines no colour for the chosen idioms.
    public let values: [Appearance: ColorValue]
    /// The appearances the file defines itself (Any counts as light), before fallbacks.
    public let provided: Set<Appearance>
    /// Line in Contents.json of the entry each appearance's value came from.
    public let lines: [Appearance: Int]

    public subscript(appearance: Appearance) -> ColorValue? { values[appearance] }

    /// Appearances the file does not define (it falls back for them), in light, dark, light +
    /// increased contrast, dark + increased contrast order.
    public var missing: [Appearance] { Appearance.allCases.filter { !provided.contains($0) } }

    /// Appearances whose value had to be clipped into sRGB for contrast.
    public var clampedAppearances: [Appearance] {
        Appearance.allCases.filter {
            if case .color(let converted) = values[$0] { return converted.wasClamped }
            return false
        }
    }

    /// The sRGB colour of `appearance`; system references are resolved on the platform they
    /// name, else on `platform`, else this set's platform, else iOS.
    public func rgba(_ appearance: Appearance, platform: Platform? = nil) -> RGBA? {
        values[appearance]?.rgba(appearance, platform: platform ?? self.platform ?? .iOS)
    }
}

/// Why a colour set (or a folder's Contents.json) could not be read, with the fix.
public struct ColorSetError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The file is not JSON; the message says what the reader expected.
        case notJSON(String)
        /// The top level is not an object.
        case notAnObject
        /// No `colors` list.
        case missingColors
        /// A key holds the wrong kind of value.
        case wrongType(key: String, expected: String, found: String)
        /// A key every entry needs (`idiom`, `components`, `color-space`).
        case missingKey(String)
        case unknownColorSpace(String)
        case missingComponent(name: String, colorSpace: ColorSpace)
        /// A component that is not a number in any notation Xcode writes.
        case badComponent(name: String, value: String, detail: String)
        /// A `color` with neither `components` nor a `reference`.
        case emptyColor
        /// A comma after the last item of a list or object: read past (the colours are checked),
        /// though strict JSON readers refuse the file.
        case trailingComma
    }

    public let path: String
    /// 1-based line in the file, when known.
    public let line: Int?
    public let reason: Reason

    public init(path: String, line: Int?, reason: Reason) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// What is wrong and how to fix it, without the location.
    public var message: String {
        switch reason {
        case .notJSON(let detail):
            "not valid JSON: \(detail); restore the file from version control or recreate the colour set in Xcode"
        case .notAnObject:
            "the top level is not a JSON object; a colour set's Contents.json is {\"colors\": [...], \"info\": {...}}"
        case .missingColors:
            "there is no \"colors\" list; recreate the colour set in Xcode or add \"colors\": [{\"idiom\": \"universal\", \"color\": {...}}]"
        case .wrongType(let key, let expected, let found):
            "\"\(key)\" should be \(expected) but is \(found)"
        case .missingKey(let key):
            "an entry has no \"\(key)\"; every entry of \"colors\" needs one (see Xcode's Named Color format)"
        case .unknownColorSpace(let space):
            "unknown color-space \"\(space)\"; use one of \(ColorSpace.allCases.map(\.rawValue).joined(separator: ", "))"
        case .missingComponent(let name, let space):
            "the \(space.rawValue) colour has no \"\(name)\" component; \(space.rawValue) needs \((space.componentNames + ["alpha"]).joined(separator: ", "))"
        case .badComponent(let name, let value, let detail):
            "component \"\(name)\" is \(value), \(detail); write a float 0...1 (\"0.500\"), an 8-bit integer (\"128\") or 8-bit hex (\"0x80\")"
        case .trailingComma:
            "a comma follows the last item of a list or object; its colours were read and checked, but strict JSON readers refuse the file and Xcode may rewrite or reject it: delete the comma"
        case .emptyColor:
            "a \"color\" has neither \"components\" nor a system \"reference\"; pick a colour for this appearance in Xcode or delete the entry"
        }
    }

    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// Reads one `.colorset/Contents.json`. No I/O: the caller passes the bytes.
public enum ColorSetParser {
    public static func parse(_ data: Data, path: String, name: String, platform: Platform?) throws(ColorSetError) -> ColorSet {
        try parse(bytes: Array(data), path: path, name: name, platform: platform)
    }

    public static func parse(bytes: [UInt8], path: String, name: String, platform: Platform?) throws(ColorSetError) -> ColorSet {
        try parseNotingTrailingCommas(bytes: bytes, path: path, name: name, platform: platform).set
    }

    /// The set, and the line of the first comma that ends a list or an object (nil when none).
    public static func parseNotingTrailingCommas(bytes: [UInt8], path: String, name: String,
                                                 platform: Platform?) throws(ColorSetError) -> (set: ColorSet, trailingCommaLine: Int?) {
        let root: JSONNode
        let trailingCommaLines: [Int]
        do { (root, trailingCommaLines) = try JSONReader.parseNotingTrailingCommas(bytes) } catch {
            throw ColorSetError(path: path, line: error.line, reason: .notJSON(error.message))
        }
        guard root.members != nil else { throw ColorSetError(path: path, line: root.line, reason: .notAnObject) }
        guard let colors = root["colors"] else { throw ColorSetError(path: path, line: nil, reason: .missingColors) }
        guard let list = colors.array else {
            throw ColorSetError(path: path, line: colors.line, reason: .wrongType(key: "colors", expected: "a list", found: colors.kind))
        }
        var entries: [ColorSetEntry] = []
        for node in list { entries.append(try entry(node, path: path)) }
        return (resolve(name: name, path: path, platform: platform, entries: entries), trailingCommaLines.first)
    }

    // MARK: Entries

    private static func entry(_ node: JSONNode, path: String) throws(ColorSetError) -> ColorSetEntry {
        guard node.members != nil else {
            throw ColorSetError(path: path, line: node.line, reason: .wrongType(key: "colors[]", expected: "an object", found: node.kind))
        }
        let idiom = try string(node, "idiom", path: path, required: true) ?? "universal"
        let gamut = try string(node, "display-gamut", path: path, required: false)
        var luminosity: ColorSetEntry.Luminosity?
        var high = false
        var unsupported: [String] = []
        if let appearances = node["appearances"] {
            guard let items = appearances.array else {
                throw ColorSetError(path: path, line: appearances.line,
                                    reason: .wrongType(key: "appearances", expected: "a list", found: appearances.kind))
            }
            for item in items {
                guard item.members != nil else {
                    throw ColorSetError(path: path, line: item.line,
                                        reason: .wrongType(key: "appearances[]", expected: "an object", found: item.kind))
                }
                let kind = try string(item, "appearance", path: path, required: true) ?? ""
                let value = try string(item, "value", path: path, required: true) ?? ""
                switch (kind, value) {
                case ("luminosity", "light"): luminosity = .light
                case ("luminosity", "dark"): luminosity = .dark
                case ("contrast", "high"): high = true
                default: unsupported.append("\(kind): \(value)")
                }
            }
        }
        var value: ColorValue?
        if let color = node["color"] {
            value = try colorValue(color, path: path)
        }
        return ColorSetEntry(idiom: idiom, luminosity: luminosity, highContrast: high, displayGamut: gamut,
                             value: value, unsupportedAppearances: unsupported, line: node.line)
    }

    private static func string(_ node: JSONNode, _ key: String, path: String, required: Bool) throws(ColorSetError) -> String? {
        guard let child = node[key] else {
            if required { throw ColorSetError(path: path, line: node.line, reason: .missingKey(key)) }
            return nil
        }
        guard let text = child.string else {
            throw ColorSetError(path: path, line: child.line, reason: .wrongType(key: key, expected: "a string", found: child.kind))
        }
        return text
    }

    private static func colorValue(_ color: JSONNode, path: String) throws(ColorSetError) -> ColorValue {
        guard color.members != nil else {
            throw ColorSetError(path: path, line: color.line, reason: .wrongType(key: "color", expected: "an object", found: color.kind))
        }
        if let reference = try string(color, "reference", path: path, required: false) {
            let platform = try string(color, "platform", path: path, required: false)
            return .system(SystemColorReference(name: reference, platform: platform))
        }
        guard let components = color["components"] else {
            if color["color-space"] != nil { throw ColorSetError(path: path, line: color.line, reason: .missingKey("components")) }
            throw ColorSetError(path: path, line: color.line, reason: .emptyColor)
        }
        guard components.members != nil else {
            throw ColorSetError(path: path, line: components.line,
                                reason: .wrongType(key: "components", expected: "an object", found: components.kind))
        }
        let spaceName = try string(color, "color-space", path: path, required: true) ?? ""
        guard let space = ColorSpace(rawValue: spaceName) else {
            throw ColorSetError(path: path, line: color["color-space"]?.line ?? color.line,
                                reason: .unknownColorSpace(InputExcerpt.of(spaceName)))
        }
        var nodes: [JSONNode] = []
        for name in space.componentNames {
            guard let node = components[name] else {
                throw ColorSetError(path: path, line: components.line, reason: .missingComponent(name: name, colorSpace: space))
            }
            nodes.append(node)
        }
        let notations = try zip(space.componentNames, nodes).map { (name, node) throws(ColorSetError) in
            try ComponentNotation(node, name: name, path: path)
        }
        // "1" alone is ambiguous (1.0 or 1/255); beside other 8-bit values it is 8-bit.
        let eightBitContext = notations.contains { $0.isUnambiguouslyEightBit }
        let values = notations.map { $0.value(eightBitContext: eightBitContext) }
        var alpha = 1.0
        if let alphaNode = components["alpha"] {
            alpha = try ComponentNotation(alphaNode, name: "alpha", path: path).value(eightBitContext: false)
        }
        return .color(ColorConversion.toSRGB(values, alpha: alpha, in: space))
    }

    // MARK: Appearance resolution

    /// Idioms that serve a platform, most specific first. `universal` serves every platform.
    static func idioms(for platform: Platform) -> [String] {
        switch platform {
        case .iOS: ["iphone", "ipad"]
        case .macOS: ["mac"]
        case .visionOS: ["vision"]
        case .watchOS: ["watch"]
        case .tvOS: ["tv"]
        }
    }

    static func resolve(name: String, path: String, platform: Platform?, entries: [ColorSetEntry]) -> ColorSet {
        var idioms: [String] = []
        for entry in entries where !idioms.contains(entry.idiom) { idioms.append(entry.idiom) }

        // Score of an entry's idiom: 0 means it does not serve the platform.
        let platformIdioms = platform.map(Self.idioms(for:)) ?? []
        func idiomScore(_ idiom: String) -> Int {
            if let index = platformIdioms.firstIndex(of: idiom) { return platformIdioms.count - index + 1 }
            if idiom == "universal" { return 1 }
            // Without a platform, a set that has no universal entry uses the first idiom present.
            if platform == nil, idiom == idioms.first(where: { $0 != "universal" }) { return 1 }
            return 0
        }
        let candidates = entries.filter { $0.value != nil && $0.unsupportedAppearances.isEmpty && idiomScore($0.idiom) > 0 }

        var values: [Appearance: ColorValue] = [:]
        var lines: [Appearance: Int] = [:]
        var provided: Set<Appearance> = []
        for appearance in Appearance.allCases {
            let wantsDark = appearance.isDark, wantsHigh = appearance.isIncreasedContrast
            // Most significant first: idiom; a high-contrast entry never stands in for a standard
            // appearance unless nothing else exists; luminosity (for light, Any and Light are the
            // same class; for dark, Any is the fallback); contrast; an explicit Light over Any;
            // the sRGB gamut entry over a display-P3 one.
            func key(_ entry: ColorSetEntry) -> [Int] {
                let luminosityClass: Int = switch entry.luminosity {
                case .none: wantsDark ? 1 : 2
                case .dark?: wantsDark ? 2 : 0
                case .light?: wantsDark ? 0 : 2
                }
                return [
                    idiomScore(entry.idiom),
                    wantsHigh || !entry.highContrast ? 1 : 0,
                    luminosityClass,
                    entry.highContrast == wantsHigh ? 1 : 0,
                    entry.luminosity == nil ? 0 : 1,
                    // Current iPhones, iPads and Macs have P3 displays and draw the P3 entry.
                    entry.displayGamut?.lowercased() == "display-p3" ? 1 : 0,
                ]
            }
            var best: ColorSetEntry?
            var bestKey: [Int] = []
            for entry in candidates {
                let entryKey = key(entry)
                // Strictly better only: among equals the first in the file wins.
                if best == nil || bestKey.lexicographicallyPrecedes(entryKey) {
                    best = entry
                    bestKey = entryKey
                }
            }
            guard let best, let value = best.value else { continue }
            values[appearance] = value
            lines[appearance] = best.line
            let luminosityMatches = wantsDark ? best.luminosity == .dark : best.luminosity != .dark
            if luminosityMatches && best.highContrast == wantsHigh { provided.insert(appearance) }
        }
        return ColorSet(name: name, path: path, platform: platform, entries: entries, idioms: idioms,
                        values: values, provided: provided, lines: lines)
    }
}

/// One component as written, before the 8-bit ambiguity is settled.
private struct ComponentNotation {
    enum Form {
        /// "0.500", 0.5, "1e-1": the value itself.
        case float(Double)
        /// "0x80": 8-bit hex.
        case hex(Int)
        /// "128", 128: 8-bit when above 1; "0" and "1" depend on their neighbours.
        case integer(Int)
    }

    let form: Form

    init(_ node: JSONNode, name: String, path: String) throws(ColorSetError) {
        let text: String
        switch node.value {
        case .string(let string):
            text = string.trimmingWhitespace
        case .number(let number):
            text = number
        default:
            throw ColorSetError(path: path, line: node.line,
                                reason: .wrongType(key: name, expected: "a number or a numeric string", found: node.kind))
        }
        func bad(_ detail: String) -> ColorSetError {
            // As written, a string in its quotes and a number bare, and excerpted here rather than
            // in the message: a finding's snippet shows the reason too.
            let written = if case .string(let string) = node.value { "\"\(InputExcerpt.of(string))\"" } else { InputExcerpt.of(text) }
            return ColorSetError(path: path, line: node.line, reason: .badComponent(name: name, value: written, detail: detail))
        }
        // Almost every component Xcode writes is a short ASCII decimal ("0.502", "1", "128"):
        // read those from the bytes; anything else takes the general path below.
        if let quick = Self.plainDecimal(text) {
            form = quick
            return
        }
        guard !text.isEmpty else { throw bad("which is empty") }
        let lower = text.lowercased()
        if lower.hasPrefix("0x") {
            let digits = lower.dropFirst(2).utf8
            guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy({ hexDigitValue($0) != nil }) else {
                throw bad("which is not 8-bit hex (0x00 to 0xFF)")
            }
            form = .hex(digits.reduce(0) { $0 << 4 | Int(hexDigitValue($1) ?? 0) })
            return
        }
        let allowed = Set("0123456789+-.e")
        guard lower.allSatisfy({ allowed.contains($0) }) else { throw bad("which is not a number") }
        if lower.allSatisfy(\.isNumber) {
            guard let integer = Int(lower), integer <= 255 else { throw bad("which is above 255, the largest 8-bit value") }
            form = .integer(integer)
            return
        }
        guard let value = Double(lower), value.isFinite else { throw bad("which is not a number") }
        form = .float(value)
    }

    /// Digits with at most one '.' between digits: an integer up to 255, or a float; nil for
    /// anything else (signs, exponents, hex, larger integers, other characters), which the
    /// general path reads or rejects with its message.
    static func plainDecimal(_ text: String) -> Form? {
        var integer = 0, digits = 0, dot = false, digitsAfterDot = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if dot { digitsAfterDot += 1 } else { integer = integer * 10 + Int(byte - UInt8(ascii: "0")); digits += 1 }
                if digits > 3 { return nil }
            case UInt8(ascii: "."):
                if dot { return nil }
                dot = true
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        if !dot { return integer <= 255 ? .integer(integer) : nil }
        guard digitsAfterDot > 0, let value = Double(text) else { return nil }
        return .float(value)
    }

    /// Hex, or an integer above 1: certainly an 8-bit value.
    var isUnambiguouslyEightBit: Bool {
        switch form {
        case .hex: true
        case .integer(let value): value > 1
        case .float: false
        }
    }

    func value(eightBitContext: Bool) -> Double {
        switch form {
        case .float(let value): value
        case .hex(let value): Double(value) / 255
        case .integer(let value): value > 1 || eightBitContext ? Double(value) / 255 : Double(value)
        }
    }
}
