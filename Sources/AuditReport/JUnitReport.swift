import AuditModel
import AuditScanner
import Foundation

/// JUnit XML in the shape Jenkins' JUnit schema describes (`testsuites` > `testsuite` >
/// `testcase` > `failure`, with counts), which Jenkins, Bitrise, CircleCI and GitLab read as test
/// results: one suite per rule with findings, one test case per file in it, failing with that
/// file's violations. Findings that need review go to the test case's `system-out` without
/// failing it, as they never fail `--fail-on`. A first suite, `a11y-audit`, always holds a
/// passing `scan` case (a report with no test cases fails Jenkins' junit step) and a case per
/// file the scan could not check: `skipped` when it was left out, `error` when it did not parse.
public enum JUnitReport {
    /// How a test case did, as the element that says so; a passing case has none.
    struct Outcome {
        enum Element: String { case failure, error, skipped }
        var element: Element
        var message: String
        /// Jenkins' schema gives `skipped` no type.
        var type: String?
        var body = ""
    }

    struct TestCase {
        var name: String
        var className: String
        var time = 0.0
        var outcome: Outcome?
        var systemOut = ""
    }

    public static func render(_ report: ScanReport) -> String {
        var suites: [(name: String, cases: [TestCase])] = [("a11y-audit", scanCases(report))]
        var byRule: [String: [String: [Finding]]] = [:]
        for finding in report.findings { byRule[finding.ruleID, default: [:]][finding.location.file, default: []].append(finding) }
        for rule in byRule.keys.sorted() {
            let files = byRule[rule] ?? [:]
            suites.append((rule, files.keys.sorted().map { file in testCase(rule: rule, file: file, findings: files[file] ?? []) }))
        }

        let all = suites.flatMap(\.cases)
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites name=\"a11y-audit\"\(counts(all)) time=\"\(seconds(report.statistics.durationSeconds))\">\n"
        for suite in suites {
            out += "  <testsuite name=\"\(XMLText.attribute(suite.name))\"\(counts(suite.cases)) skipped=\"\(count(suite.cases, .skipped))\""
            out += " time=\"\(seconds(suite.cases.map(\.time).reduce(0, +)))\">\n"
            for testCase in suite.cases { out += element(testCase) }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func scanCases(_ report: ScanReport) -> [TestCase] {
        var scan = TestCase(name: "scan", className: "a11y-audit", time: report.statistics.durationSeconds)
        scan.systemOut = TextReport.summary(report)
        var cases = [scan]
        for note in report.notes where note.kind.isWarning {
            let file = note.file == "." ? "the input" : note.file
            let place = note.line.map { "\(file):\($0)" } ?? file
            var testCase = TestCase(name: place, className: "a11y-audit.\(note.kind.rawValue)")
            testCase.outcome = note.kind == .skipped ? Outcome(element: .skipped, message: note.message)
                : Outcome(element: .error, message: note.message, type: note.kind.rawValue)
            cases.append(testCase)
        }
        return cases
    }

    static func testCase(rule: String, file: String, findings: [Finding]) -> TestCase {
        var testCase = TestCase(name: file, className: rule)
        let violations = findings.filter { $0.certainty == .violation }
        let review = findings.filter { $0.certainty == .review }
        if let first = violations.first {
            let message = violations.count == 1 ? first.message : "\(violations.count) findings; the first: \(first.message)"
            let highest = violations.map(\.severity).max() ?? first.severity
            testCase.outcome = Outcome(element: .failure, message: message, type: highest.rawValue, body: violations.map(line).joined())
        }
        if !review.isEmpty { testCase.systemOut = "Needs review:\n" + review.map(line).joined() }
        return testCase
    }

    /// One finding as the body of its case: where, how bad, what, and the fix.
    static func line(_ finding: Finding) -> String {
        "\(finding.location.file):\(finding.location.line):\(finding.location.column): \(finding.shownSeverity.rawValue): "
            + "\(finding.message)\n    fix: \(finding.fix)\n"
    }

    static func element(_ testCase: TestCase) -> String {
        var out = "    <testcase name=\"\(XMLText.attribute(testCase.name))\" classname=\"\(XMLText.attribute(testCase.className))\""
            + " time=\"\(seconds(testCase.time))\""
        guard testCase.outcome != nil || !testCase.systemOut.isEmpty else { return out + "/>\n" }
        out += ">\n"
        if let outcome = testCase.outcome {
            out += "      <\(outcome.element.rawValue) message=\"\(XMLText.attribute(outcome.message))\""
            if let type = outcome.type { out += " type=\"\(XMLText.attribute(type))\"" }
            out += outcome.body.isEmpty ? "/>\n" : ">\(XMLText.text(outcome.body))</\(outcome.element.rawValue)>\n"
        }
        if !testCase.systemOut.isEmpty { out += "      <system-out>\(XMLText.text(testCase.systemOut))</system-out>\n" }
        return out + "    </testcase>\n"
    }

    static func count(_ cases: [TestCase], _ element: Outcome.Element) -> Int { cases.filter { $0.outcome?.element == element }.count }

    static func counts(_ cases: [TestCase]) -> String {
        " tests=\"\(cases.count)\" failures=\"\(count(cases, .failure))\" errors=\"\(count(cases, .error))\""
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// XML 1.0 character data and attribute values.
enum XMLText {
    /// Element content: markup characters escaped, and `\r` as a reference, which a parser would
    /// otherwise fold into `\n`.
    static func text(_ value: String) -> String { escape(value, attribute: false) }

    /// A double-quoted attribute value: also quotes, and tabs and line breaks as references, which
    /// a parser would otherwise normalise to spaces.
    static func attribute(_ value: String) -> String { escape(value, attribute: true) }

    private static func escape(_ value: String, attribute: Bool) -> String {
        ReportText.escaping(value) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"" where attribute: "&quot;"
            case "'" where attribute: "&apos;"
            case "\r": "&#13;"
            case "\n" where attribute: "&#10;"
            case "\t" where attribute: "&#9;"
            case "\t", "\n": nil
            // XML 1.0 has no way to write other control characters, nor U+FFFE and U+FFFF, even
            // as references: a document holding one is not well-formed.
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: "\u{FFFD}"
            default: nil
            }
        }
    }
}
