import Foundation

/// Builds the Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE` once per
/// family, then its samples, with label values and help text escaped as the format requires.
public struct PrometheusText: Sendable {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public enum MetricType: String, Sendable { case counter, gauge, histogram, summary }

    private(set) var lines: [String] = []

    public init() {}

    public mutating func family(_ name: String, _ type: MetricType, help: String) {
        lines.append("# HELP \(name) \(Self.escapeHelp(help))")
        lines.append("# TYPE \(name) \(type.rawValue)")
    }

    public mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        lines.append(name + Self.labelSet(labels) + " " + Self.number(value))
    }

    /// A histogram's cumulative `_bucket` samples (including `+Inf`), `_sum` and `_count`.
    /// `bucketCounts[i]` counts observations `<= bounds[i]`.
    public mutating func histogram(_ name: String, _ labels: [(String, String)], bounds: [Double], bucketCounts: [Int],
                                   count: Int, sum: Double) {
        for (bound, observed) in zip(bounds, bucketCounts) {
            sample(name + "_bucket", labels + [("le", Self.number(bound))], Double(observed))
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], Double(count))
        sample(name + "_sum", labels, sum)
        sample(name + "_count", labels, Double(count))
    }

    public var text: String { lines.joined(separator: "\n") + "\n" }

    static func labelSet(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values: backslash, double quote and line feed are escaped.
    static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Help text: backslash and line feed are escaped (quotes are not).
    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
