import AuditModel
import SwiftChecks

/// A scan report as lines, in the cache's format for findings and notes (without the fix and
/// citation the catalog holds): how a scan child hands its report to the worker. Foundation's
/// JSON coding of the same report cost as much as checking a one-file repository.
public enum ScanReportWire {
    static let header = "a11y-audit report 1"

    /// Every statistic, by the name it travels under. `ScanReportWireTests` checks that the
    /// list names each stored property, so a new one cannot be left out silently.
    static let integerStatistics: [(String, WritableKeyPath<ScanStatistics, Int> & Sendable)] = [
        ("swiftFiles", \.swiftFiles), ("interfaceBuilderFiles", \.interfaceBuilderFiles), ("filesChecked", \.filesChecked),
        ("filesParsed", \.filesParsed), ("bytesParsed", \.bytesParsed), ("cacheHits", \.cacheHits),
        ("findingsSuppressed", \.findingsSuppressed), ("skippedVendored", \.skippedVendored),
        ("skippedExcluded", \.skippedExcluded), ("skippedGenerated", \.skippedGenerated),
        ("skippedWithoutUIImport", \.skippedWithoutUIImport), ("skippedUnreadable", \.skippedUnreadable),
        ("skippedTests", \.skippedTests), ("skippedDebugScreens", \.skippedDebugScreens),
        ("skippedExamples", \.skippedExamples), ("skippedNotInTarget", \.skippedNotInTarget),
        ("findingsNotShipped", \.findingsNotShipped), ("findingsUnused", \.findingsUnused), ("colorSets", \.colorSets), ("platforms", \.platformBits),
    ]
    public static let statisticNames: [String] = integerStatistics.map(\.0) + ["durationSeconds"]

    public static func encode(_ report: ScanReport) -> [UInt8] {
        var out = header + "\n"
        out += line(["R", report.root, report.rootIsArchive ? "1" : "0", report.toolVersion])
        out += line(["T"] + integerStatistics.map { String(report.statistics[keyPath: $0.1]) } + [String(report.statistics.durationSeconds)])
        var result = FileResult()
        result.findings = report.findings
        result.notes = report.notes
        out += ScanCache.Entry.encode(result)
        return Array(out.utf8)
    }

    /// Nil for bytes that are not a report of this build (damaged, cut short, another version).
    public static func decode(_ bytes: ArraySlice<UInt8>) -> ScanReport? {
        let newline = UInt8(ascii: "\n")
        var lines = bytes.split(separator: newline, maxSplits: 3, omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0].elementsEqual(header.utf8) else { return nil }
        let identity = fields(of: lines[1]), numbers = fields(of: lines[2])
        guard identity.count == 4, identity[0] == "R", numbers.count == integerStatistics.count + 2, numbers[0] == "T",
              let duration = Double(numbers[numbers.count - 1]) else { return nil }
        var statistics = ScanStatistics()
        for (index, (_, path)) in integerStatistics.enumerated() {
            guard let value = Int(numbers[index + 1]) else { return nil }
            statistics[keyPath: path] = value
        }
        statistics.durationSeconds = duration
        guard let result = ScanCache.Entry.decode(Array(lines.removeLast())) else { return nil }
        return ScanReport(root: identity[1], rootIsArchive: identity[2] == "1", findings: result.findings, notes: result.notes,
                          statistics: statistics, toolVersion: identity[3])
    }
}

extension ScanReportWire {
    /// One line of tab-separated fields, backslash, tab and line breaks escaped (the cache's
    /// format), ending in a line break.
    public static func line(_ fields: [String]) -> String { ScanCache.Entry.line(fields) }
    /// The fields of one such line, without its line break.
    public static func fields(of line: ArraySlice<UInt8>) -> [String] { ScanCache.Entry.fields(of: line) }
}
