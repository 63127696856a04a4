import AuditScanner
import Foundation

/// The scan as JSON: the `ScanReport` structure, keys sorted so output is deterministic.
public enum JSONReport {
    public static func render(_ report: ScanReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }
}
