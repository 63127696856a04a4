import AuditModel
import Foundation

/// A judgement of one contrast ratio against one published threshold.
public struct Verdict: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Standard: String, Hashable, Sendable, Codable {
        /// WCAG 2.x SC 1.4.3 Contrast (Minimum), with WCAG's large-text definition.
        case wcagText
        /// The contrast table on Apple's HIG Accessibility page (Accessibility Inspector's values).
        case appleTable
        /// WCAG 2.x SC 1.4.11 Non-text Contrast.
        case wcagNonText

        /// How a message names the standard: Apple's table is "Apple's table", in those words.
        public var displayName: String {
            switch self {
            case .wcagText: "WCAG 2.x SC 1.4.3"
            case .appleTable: "Apple's table"
            case .wcagNonText: "WCAG 2.x SC 1.4.11"
            }
        }
    }

    /// The row of a table that applied, with the sizes its wording names. Kept as data: most
    /// verdicts pass and are never printed, so their wording is built only when asked.
    public enum Row: Hashable, Sendable, Codable {
        case wcagLargeText(regularPoints: Double, boldPoints: Double)
        case wcagNormalText(regularPoints: Double, boldPoints: Double)
        case appleBold
        case appleLarge(minimumPoints: Double)
        case appleSmall(maximumPoints: Double)
        case nonText
    }

    public let standard: Standard
    public let ratio: Double
    /// The minimum ratio that applies, e.g. 4.5 for 4.5:1.
    public let threshold: Double
    public let row: Row

    /// Which row applied, e.g. "text under 18 pt (14 pt bold)", "bold text of any size".
    public var basis: String {
        switch row {
        case .wcagLargeText(let regular, let bold): "large text (at least \(regular.points) pt, or \(bold.points) pt bold)"
        case .wcagNormalText(let regular, let bold): "text under \(regular.points) pt (\(bold.points) pt bold)"
        case .appleBold: "bold text of any size"
        case .appleLarge(let minimum): "text of \(minimum.points) pt and up"
        case .appleSmall(let maximum): "text up to \(maximum.points) pt"
        case .nonText: "non-text elements (shapes, icons, control outlines)"
        }
    }

    /// The ratio to two decimals; a failing ratio never prints as its threshold.
    public var ratioText: String { Contrast.format(ratio, threshold: threshold) }
    /// "4.5:1", "3:1".
    public var thresholdText: String { "\(threshold.points):1" }

    /// Compared unrounded: 2.999:1 does not meet 3:1 (Understanding SC 1.4.11).
    public var passes: Bool { ratio >= threshold }

    /// "3.29:1 fails WCAG 2.x SC 1.4.3 (4.5:1 for text under 18 pt or 14 pt bold)".
    public var description: String {
        "\(ratioText) \(passes ? "meets" : "fails") \(standard.displayName) "
            + "(\(thresholdText) for \(basis))"
    }
}

/// WCAG 2.x relative luminance and contrast ratio, and the three published thresholds.
/// Every constant comes from contrast.json.
public enum Contrast {
    /// WCAG 2.x relative luminance of an sRGB colour, clamped into gamut first. Alpha is
    /// ignored: composite a translucent colour over its background before asking.
    public static func relativeLuminance(_ color: RGBA, reference: ColorReference = .shared) -> Double {
        let c = color.clamped().color
        let (kr, kg, kb) = reference.luminanceCoefficients
        let t = reference.transfer
        return kr * ColorConversion.linearize(c.red, t) + kg * ColorConversion.linearize(c.green, t)
            + kb * ColorConversion.linearize(c.blue, t)
    }

    /// (L1 + 0.05) / (L2 + 0.05) with L1 the lighter; 1...21, symmetric in its arguments.
    public static func ratio(_ first: RGBA, _ second: RGBA, reference: ColorReference = .shared) -> Double {
        let a = relativeLuminance(first, reference: reference)
        let b = relativeLuminance(second, reference: reference)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The ratio of a possibly translucent foreground drawn over a background. The background
    /// is taken as opaque (composite it over what lies beneath first if it is not).
    public static func ratio(foreground: RGBA, background: RGBA, reference: ColorReference = .shared) -> Double {
        let base = background.opaque
        return ratio(foreground.composited(over: base), base, reference: reference)
    }

    /// WCAG's large scale text: at least 18 pt, or at least 14 pt bold.
    public static func isLargeText(pointSize: Double, bold: Bool, reference: ColorReference = .shared) -> Bool {
        pointSize >= reference.wcagLargeRegularPoints || (bold && pointSize >= reference.wcagLargeBoldPoints)
    }

    /// WCAG 2.x SC 1.4.3: 4.5:1, or 3:1 for large text (18 pt, or 14 pt bold).
    public static func wcag(ratio: Double, pointSize: Double, bold: Bool, reference: ColorReference = .shared) -> Verdict {
        let regular = reference.wcagLargeRegularPoints, boldPoints = reference.wcagLargeBoldPoints
        if isLargeText(pointSize: pointSize, bold: bold, reference: reference) {
            return Verdict(standard: .wcagText, ratio: ratio, threshold: reference.wcagLargeText,
                           row: .wcagLargeText(regularPoints: regular, boldPoints: boldPoints))
        }
        return Verdict(standard: .wcagText, ratio: ratio, threshold: reference.wcagNormalText,
                       row: .wcagNormalText(regularPoints: regular, boldPoints: boldPoints))
    }

    /// Apple's HIG table: up to 17 pt 4.5:1; 18 pt and up 3:1; bold text of any size 3:1.
    /// Sizes between the rows (17.5 pt) take the smaller-text row.
    public static func appleTable(ratio: Double, pointSize: Double, bold: Bool, reference: ColorReference = .shared) -> Verdict {
        if bold {
            return Verdict(standard: .appleTable, ratio: ratio, threshold: reference.appleBold, row: .appleBold)
        }
        if pointSize >= reference.appleLargeMinPoints {
            return Verdict(standard: .appleTable, ratio: ratio, threshold: reference.appleLarge,
                           row: .appleLarge(minimumPoints: reference.appleLargeMinPoints))
        }
        return Verdict(standard: .appleTable, ratio: ratio, threshold: reference.appleSmall,
                       row: .appleSmall(maximumPoints: reference.appleSmallMaxPoints))
    }

    /// WCAG 2.x SC 1.4.11: 3:1 for user-interface components and graphical objects.
    public static func nonText(ratio: Double, reference: ColorReference = .shared) -> Verdict {
        Verdict(standard: .wcagNonText, ratio: ratio, threshold: reference.wcagNonText, row: .nonText)
    }

    /// "4.48:1": two decimals. With a threshold, a ratio below it never prints as the threshold
    /// or above (4.497 against 4.5 is "4.49:1", not "4.50:1"), since WCAG compares unrounded.
    public static func format(_ ratio: Double, threshold: Double? = nil) -> String {
        guard ratio.isFinite else { return "?:1" }
        var hundredths = (ratio * 100).rounded()
        if let threshold, ratio < threshold, hundredths / 100 >= threshold {
            hundredths = (threshold * 100).rounded(.up) - 1
        }
        let whole = Int(hundredths) / 100, fraction = Int(hundredths) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction):1"
    }
}
