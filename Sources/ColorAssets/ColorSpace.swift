import Foundation

/// The `color-space` values asset catalogs use (asset-catalog-colorset.json, color_space_values).
public enum ColorSpace: String, CaseIterable, Sendable, Codable {
    case sRGB = "srgb"
    case extendedSRGB = "extended-srgb"
    case displayP3 = "display-p3"
    case extendedLinearSRGB = "extended-linear-srgb"
    case grayGamma22 = "gray-gamma-22"
    case extendedGray = "extended-gray"

    /// Whether components may lie outside 0...1 (CGColorSpace.extended*).
    public var isExtended: Bool {
        switch self {
        case .extendedSRGB, .extendedLinearSRGB, .extendedGray: true
        case .sRGB, .displayP3, .grayGamma22: false
        }
    }

    /// Gray spaces carry a single `white` component.
    public var isGray: Bool { self == .grayGamma22 || self == .extendedGray }

    /// The component names a colour in this space needs, alpha aside.
    public var componentNames: [String] { isGray ? ["white"] : ["red", "green", "blue"] }
}

/// A colour decoded from an asset catalog and converted to sRGB.
public struct ConvertedColor: Hashable, Sendable {
    /// In-gamut sRGB: what contrast is computed on.
    public let rgba: RGBA
    /// The sRGB value before clamping; channels may lie outside 0...1.
    public let unclamped: RGBA
    /// The space the file wrote the colour in.
    public let colorSpace: ColorSpace
    /// True when the converted value lay outside sRGB and was clipped to it for contrast.
    public let wasClamped: Bool
}

/// Colour-space conversion to gamma-encoded sRGB. The transfer-function constants and the
/// Display P3 matrix come from contrast.json.
public enum ColorConversion {
    /// Converts components written in `space` (`[r, g, b]` or `[white]`) to sRGB. Out-of-gamut
    /// results are clipped to 0...1 per channel ("gamut-clip then WCAG", the first option in
    /// contrast.json's extended_srgb_out_of_range; our stated choice) and flagged.
    public static func toSRGB(_ components: [Double], alpha: Double, in space: ColorSpace,
                              reference: ColorReference = .shared) -> ConvertedColor {
        let transfer = reference.transfer
        let value: RGBA
        switch space {
        case .sRGB, .extendedSRGB:
            value = RGBA(red: component(components, 0), green: component(components, 1),
                         blue: component(components, 2), alpha: alpha)
        case .displayP3:
            // Display P3 uses the sRGB transfer function (CGColorSpace.displayP3).
            let linear = (0..<3).map { linearize(component(components, $0), transfer) }
            let m = reference.p3ToSRGB
            let converted = (0..<3).map { row in
                m[row][0] * linear[0] + m[row][1] * linear[1] + m[row][2] * linear[2]
            }
            value = RGBA(red: encode(converted[0], transfer), green: encode(converted[1], transfer),
                         blue: encode(converted[2], transfer), alpha: alpha)
        case .extendedLinearSRGB:
            value = RGBA(red: encode(component(components, 0), transfer), green: encode(component(components, 1), transfer),
                         blue: encode(component(components, 2), transfer), alpha: alpha)
        case .grayGamma22, .extendedGray:
            // Generic Gray Gamma 2.2: linear light is white^2.2 (sign-reflected for extended
            // values), an achromatic colour, re-encoded with the sRGB curve.
            let white = component(components, 0)
            let linear = white < 0 ? -pow(-white, 2.2) : pow(white, 2.2)
            let encoded = encode(linear, transfer)
            value = RGBA(red: encoded, green: encoded, blue: encoded, alpha: alpha)
        }
        let clamped = value.clamped()
        return ConvertedColor(rgba: clamped.color, unclamped: value, colorSpace: space, wasClamped: clamped.wasClamped)
    }

    /// sRGB transfer function to linear light, sign-reflected for negative values (CSS Color 4
    /// lin_sRGB, equivalent to CGColorSpace.extendedSRGB's definition).
    public static func linearize(_ value: Double, reference: ColorReference = .shared) -> Double {
        linearize(value, reference.transfer)
    }

    /// Linear light to the sRGB transfer function, sign-reflected.
    public static func encode(_ value: Double, reference: ColorReference = .shared) -> Double {
        encode(value, reference.transfer)
    }

    static func linearize(_ value: Double, _ t: ColorReference.Transfer) -> Double {
        let magnitude = abs(value)
        let linear = magnitude <= t.threshold
            ? magnitude / t.linearDivisor
            : pow((magnitude + t.offset) / t.scale, t.exponent)
        return value < 0 ? -linear : linear
    }

    static func encode(_ value: Double, _ t: ColorReference.Transfer) -> Double {
        let magnitude = abs(value)
        let encoded = magnitude <= t.threshold / t.linearDivisor
            ? magnitude * t.linearDivisor
            : t.scale * pow(magnitude, 1 / t.exponent) - t.offset
        return value < 0 ? -encoded : encoded
    }

    private static func component(_ components: [Double], _ index: Int) -> Double {
        index < components.count ? components[index] : 0
    }
}
