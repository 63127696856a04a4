import Foundation

/// A colour in gamma-encoded sRGB, each component nominally 0...1. Values outside that range
/// can exist (extended sRGB); `clamped()` brings them into gamut and says whether it had to.
public struct RGBA: Hashable, Sendable, Codable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From 8-bit channels, as Apple's tables print them ("R-0,G-136,B-255").
    public init(red8: Int, green8: Int, blue8: Int, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }

    /// "#RRGGBB", "#RRGGBBAA", "RRGGBB" or "0xRRGGBB" (case-insensitive); nil otherwise.
    public init?(hex: String) {
        var text = Substring(hex)
        if text.hasPrefix("#") { text = text.dropFirst() } else if text.lowercased().hasPrefix("0x") { text = text.dropFirst(2) }
        let bytes = Array(text.utf8)
        guard bytes.count == 6 || bytes.count == 8 else { return nil }
        var channels: [Double] = []
        var index = 0
        while index < bytes.count {
            guard let high = hexDigitValue(bytes[index]), let low = hexDigitValue(bytes[index + 1]) else { return nil }
            channels.append(Double(high << 4 | low) / 255)
            index += 2
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    }

    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 1, green: 1, blue: 1)
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)

    /// "#RRGGBB", or "#RRGGBBAA" when the alpha byte is below FF. Channels are clamped to 0...1
    /// first, so an extended value prints as the in-gamut colour that contrast is computed on.
    public var hex: String {
        var text: [UInt8] = [UInt8(ascii: "#")]
        text.reserveCapacity(9)
        func append(_ value: Int) {
            text.append(Self.digits[value >> 4])
            text.append(Self.digits[value & 15])
        }
        append(Self.byte(red))
        append(Self.byte(green))
        append(Self.byte(blue))
        let alphaByte = Self.byte(alpha)
        if alphaByte < 255 { append(alphaByte) }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { hex }

    /// Whether every channel (and alpha) lies in 0...1.
    public var isInGamut: Bool {
        [red, green, blue, alpha].allSatisfy { (0...1).contains($0) }
    }

    /// The colour with every channel and alpha clamped to 0...1 (gamut clipping, what an sRGB
    /// display shows), and whether anything had to change. NaN clamps to 0.
    public func clamped() -> Clamped {
        func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        let color = RGBA(red: clamp(red), green: clamp(green), blue: clamp(blue), alpha: clamp(alpha))
        return Clamped(color: color, wasClamped: color != self)
    }

    /// This colour drawn over `background` ("source over", in gamma-encoded sRGB as UIKit and
    /// AppKit blend by default). An opaque result when the background is opaque.
    public func composited(over background: RGBA) -> RGBA {
        let source = clamped().color
        let backdrop = background.clamped().color
        let outAlpha = source.alpha + backdrop.alpha * (1 - source.alpha)
        guard outAlpha > 0 else { return .clear }
        func mix(_ front: Double, _ back: Double) -> Double {
            (front * source.alpha + back * backdrop.alpha * (1 - source.alpha)) / outAlpha
        }
        return RGBA(red: mix(source.red, backdrop.red), green: mix(source.green, backdrop.green),
                    blue: mix(source.blue, backdrop.blue), alpha: outAlpha)
    }

    /// The same colour with alpha 1.
    public var opaque: RGBA { RGBA(red: red, green: green, blue: blue, alpha: 1) }

    private static func byte(_ value: Double) -> Int {
        value.isNaN ? 0 : Int((min(max(value, 0), 1) * 255).rounded())
    }

    private static let digits = Array("0123456789ABCDEF".utf8)
}

/// A colour brought into the sRGB gamut, and whether that changed it.
public struct Clamped: Hashable, Sendable {
    public let color: RGBA
    public let wasClamped: Bool
}

/// The four appearances Apple's system colour table and the HIG ask every colour to cover.
public enum Appearance: String, CaseIterable, Sendable, Codable, Comparable {
    case light
    case dark
    case lightIncreasedContrast
    case darkIncreasedContrast

    /// "light", "dark", "light + increased contrast", "dark + increased contrast".
    public var displayName: String {
        switch self {
        case .light: "light"
        case .dark: "dark"
        case .lightIncreasedContrast: "light + increased contrast"
        case .darkIncreasedContrast: "dark + increased contrast"
        }
    }

    public var isDark: Bool { self == .dark || self == .darkIncreasedContrast }
    public var isIncreasedContrast: Bool { self == .lightIncreasedContrast || self == .darkIncreasedContrast }

    /// The same luminosity without increased contrast (itself for `.light` and `.dark`).
    public var standardContrast: Appearance { isDark ? .dark : .light }

    public static func < (lhs: Appearance, rhs: Appearance) -> Bool { lhs.rank < rhs.rank }

    /// Position in `allCases`, without building the array.
    private var rank: Int {
        switch self {
        case .light: 0
        case .dark: 1
        case .lightIncreasedContrast: 2
        case .darkIncreasedContrast: 3
        }
    }
}
