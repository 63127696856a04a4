import AuditModel
import Foundation

/// Why the bundled colour tables could not be read. This is an installation fault, not an input
/// error: the tables ship inside the binary's resource bundle.
public struct ColorReferenceError: Error, Sendable, CustomStringConvertible {
    public let table: String
    public let reason: String

    public var description: String {
        "reference table \(table).json cannot be used: \(reason); reinstall a11y-audit or copy the table again from shared/reference"
    }
}

/// The numbers the colour code needs, read from `contrast.json` and `system-colors.json`
/// (copied verbatim from `shared/reference/`). Nothing here is typed in from Apple's tables.
public struct ColorReference: Sendable {
    /// sRGB transfer function (WCAG 2.x relative-luminance definition).
    struct Transfer: Sendable {
        let threshold: Double       // 0.04045
        let linearDivisor: Double   // 12.92
        let offset: Double          // 0.055
        let scale: Double           // 1.055
        let exponent: Double        // 2.4
    }

    let transfer: Transfer
    /// WCAG luminance coefficients for R, G, B.
    let luminanceCoefficients: (Double, Double, Double)
    /// Linear Display P3 to linear sRGB, rows of three.
    let p3ToSRGB: [[Double]]

    /// WCAG 2.x SC 1.4.3 thresholds and the large-text definition.
    let wcagNormalText: Double
    let wcagLargeText: Double
    let wcagLargeRegularPoints: Double
    let wcagLargeBoldPoints: Double
    /// WCAG 2.x SC 1.4.11 (non-text contrast).
    let wcagNonText: Double

    /// Apple's HIG table: up to `appleSmallMaxPoints` -> `appleSmall`; from `appleLargeMinPoints`
    /// -> `appleLarge`; bold of any size -> `appleBold`.
    let appleSmallMaxPoints: Double
    let appleSmall: Double
    let appleLargeMinPoints: Double
    let appleLarge: Double
    let appleBold: Double

    /// Worked examples of contrast.json ("#777777 on #FFFFFF" -> 4.478), for tests.
    public let workedExamples: [(pair: String, ratio: Double)]

    let systemColors: SystemColorTable

    /// The one shared copy, loaded on first use. A missing or malformed bundled table stops the
    /// program with the reason: no colour rule can give a number without it. Call `check()` at
    /// start-up to report it as an error instead.
    public static let shared: ColorReference = {
        switch loaded {
        case .success(let reference): return reference
        case .failure(let error): fatalError("\(error)")
        }
    }()

    /// Read once: `check()` and `shared` are the same load.
    private static let loaded = Result { () throws(ColorReferenceError) in try ColorReference.load() }

    public static func check() throws(ColorReferenceError) { _ = try loaded.get() }

    public static func load() throws(ColorReferenceError) -> ColorReference {
        let contrast = try table("contrast")
        let wcag = try contrast.object("wcag_2_2", in: "contrast")
        let definitions = try wcag.object("definitions", in: "contrast")
        let luminance = try definitions.object("relative_luminance", in: "contrast")
        let coefficients = try luminance.object("coefficients", in: "contrast")
        let transfer = Transfer(
            threshold: try luminance.number("threshold", in: "contrast"),
            linearDivisor: try luminance.number("linear_divisor", in: "contrast"),
            offset: try luminance.number("offset", in: "contrast"),
            scale: try luminance.number("scale", in: "contrast"),
            exponent: try luminance.number("exponent", in: "contrast"))
        let large = try definitions.object("large_scale_text", in: "contrast")
        let sc143 = try wcag.object("sc_1_4_3", in: "contrast")
        let sc1411 = try wcag.object("sc_1_4_11", in: "contrast")

        let p3 = try contrast.object("display_p3_to_srgb", in: "contrast")
        guard let rows = p3["M_linP3_to_linSRGB"]?.array, rows.count == 3 else {
            throw ColorReferenceError(table: "contrast", reason: "M_linP3_to_linSRGB is not a 3x3 matrix")
        }
        var matrix: [[Double]] = []
        for row in rows {
            let values = (row.array ?? []).compactMap(\.number)
            guard values.count == 3 else {
                throw ColorReferenceError(table: "contrast", reason: "M_linP3_to_linSRGB is not a 3x3 matrix")
            }
            matrix.append(values)
        }

        // Apple's table: rows of (text_size, text_weight, minimum_contrast_ratio).
        let apple = try contrast.object("apple", in: "contrast")
        let accessibilityTable = try apple.object("accessibility_page_table", in: "contrast")
        guard let appleRows = accessibilityTable["rows"]?.array else {
            throw ColorReferenceError(table: "contrast", reason: "apple.accessibility_page_table.rows is not a list")
        }
        var small: (points: Double, ratio: Double)?
        var largeRow: (points: Double, ratio: Double)?
        var bold: Double?
        for row in appleRows {
            guard let size = row["text_size"]?.string, let weight = row["text_weight"]?.string,
                  let ratio = row["minimum_contrast_ratio"]?.number else {
                throw ColorReferenceError(table: "contrast", reason: "a row of Apple's contrast table lacks text_size, text_weight or minimum_contrast_ratio")
            }
            if weight == "Bold" && size == "All" {
                bold = ratio
            } else if weight == "All", let points = leadingNumber(in: size) {
                if size.hasPrefix("Up to") { small = (points, ratio) } else { largeRow = (points, ratio) }
            }
        }
        guard let small, let largeRow, let bold else {
            throw ColorReferenceError(table: "contrast", reason: "Apple's contrast table does not have its three rows (up to 17 pts, 18 pts, bold)")
        }

        var examples: [(String, Double)] = []
        for example in contrast["worked_examples_computed_here"]?.array ?? [] {
            if let pair = example["pair"]?.string, let ratio = example["ratio"]?.number { examples.append((pair, ratio)) }
        }

        return ColorReference(
            transfer: transfer,
            luminanceCoefficients: (try coefficients.number("R", in: "contrast"),
                                    try coefficients.number("G", in: "contrast"),
                                    try coefficients.number("B", in: "contrast")),
            p3ToSRGB: matrix,
            wcagNormalText: try sc143.number("normal_text", in: "contrast"),
            wcagLargeText: try sc143.number("large_scale_text", in: "contrast"),
            wcagLargeRegularPoints: try large.number("regular_min_pt", in: "contrast"),
            wcagLargeBoldPoints: try large.number("bold_min_pt", in: "contrast"),
            wcagNonText: try sc1411.number("minimum", in: "contrast"),
            appleSmallMaxPoints: small.points, appleSmall: small.ratio,
            appleLargeMinPoints: largeRow.points, appleLarge: largeRow.ratio,
            appleBold: bold,
            workedExamples: examples,
            systemColors: try SystemColorTable(try table("system-colors")))
    }

    static func table(_ name: String) throws(ColorReferenceError) -> JSONNode {
        let data: Data
        do { data = try ReferenceData.rawTable(named: name) } catch {
            throw ColorReferenceError(table: name, reason: "\(error)")
        }
        do { return try JSONReader.parse(Array(data)) } catch {
            throw ColorReferenceError(table: name, reason: "line \(error.line): \(error.message)")
        }
    }

    /// 17 from "Up to 17 pts", 18 from "18 pts".
    private static func leadingNumber(in text: String) -> Double? {
        let digits = text.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }
}

extension JSONNode {
    func object(_ key: String, in table: String) throws(ColorReferenceError) -> JSONNode {
        guard let node = self[key], node.members != nil else {
            throw ColorReferenceError(table: table, reason: "\(key) is missing or not an object")
        }
        return node
    }

    func number(_ key: String, in table: String) throws(ColorReferenceError) -> Double {
        guard let value = self[key]?.number else {
            throw ColorReferenceError(table: table, reason: "\(key) is missing or not a number")
        }
        return value
    }
}
