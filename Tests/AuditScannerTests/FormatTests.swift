import AuditModel
@testable import AuditReport
import AuditScanner
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The CI and editor formats, each held to its published shape: Xcode's diagnostic lines, GitHub's
/// workflow commands as `@actions/core` escapes them, GitLab's documented Code Quality example,
/// Jenkins' JUnit schema, and a GitHub-flavoured Markdown table.
struct FormatTests {
    /// Everything a repository controls that a format could choke on: line breaks, the
    /// workflow-command delimiters, XML and Markdown markup, a control character.
    static let hostileMessage = "50% off: a, b\r\nline two\n<b>&amp;</b> | `code` \"q\" 'a' \u{1}end"
    static let hostilePath = "App/We,ird: 100%|<x>.swift"

    /// A real scan (one warning, one parse-error note), plus: the warning moved into a hostile
    /// file with a hostile message, an error of a requirement rule, a finding that needs review.
    func report() throws -> (TemporaryRepository, ScanReport) {
        let repository = try TemporaryRepository()
        try repository.write("App/Title View.swift", ScannerTests.uiFile)
        try repository.write("App/Broken.swift", "import SwiftUI\nfunc f( {\n")
        let input = try ScanInput.directory(repository.path, maxFileBytes: 2_000_000)
        var report = try Scanner().scan(input, root: repository.path)
        let warning = try #require(report.findings.first)
        var hostile = warning
        hostile.location.file = Self.hostilePath
        hostile.message = Self.hostileMessage
        hostile.fingerprint = String(repeating: "a", count: 32)
        var error = warning
        error.ruleID = "missing-label"
        error.kind = .requirement
        error.severity = .error
        error.location = SourceLocation(file: "App/Title View.swift", line: 9, column: 3)
        error.fingerprint = String(repeating: "b", count: 32)
        var review = warning
        review.certainty = .review
        review.severity = .note
        review.location.line = 12
        review.fingerprint = String(repeating: "c", count: 32)
        report.findings += [hostile, error, review]
        return (repository, report)
    }

    // MARK: Xcode

    @Test func xcodeLinesAreCompilerDiagnosticsWithAbsolutePaths() throws {
        let (repository, report) = try report()
        let lines = XcodeReport.render(report).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "", "ends with a newline")
        let root = URL(fileURLWithPath: repository.path).standardizedFileURL.path
        #expect(lines[0] == "\(root)/App/Title View.swift:5:28: warning: \(report.findings[0].message) (fixed-font-size)")
        #expect(lines[2] == "\(root)/App/Title View.swift:9:3: error: \(report.findings[0].message) (missing-label)")
        #expect(lines[3].hasPrefix("\(root)/App/Title View.swift:12:28: note: "), "a finding that needs review is a note")
        // The hostile message stays on its one line: nothing it holds starts another diagnostic.
        #expect(lines[1] == "\(root)/\(Self.hostilePath):5:28: warning: 50% off: a, b line two <b>&amp;</b> | `code` \"q\" 'a' \u{1}end (fixed-font-size)")
        #expect(lines.contains { $0.hasPrefix("\(root)/App/Broken.swift:2: warning: Swift syntax error") })
        // Every line is Xcode's `/path:line[:column]: level: message`.
        for line in lines.dropLast() { #expect(line.wholeMatch(of: /\/.+:\d+(:\d+)?: (error|warning|note): .+/) != nil, "\(line)") }
    }

    @Test func anArchivesPathsStayRelative() throws {
        var (_, report) = try report()
        report.rootIsArchive = true
        #expect(XcodeReport.render(report).hasPrefix("App/Title View.swift:5:28: warning: "))
    }

    @Test func xcodeIsChosenInsideAnXcodeBuildPhaseOnly() {
        #expect(ReportFormat.automatic(environment: [:]) == .text)
        #expect(ReportFormat.automatic(environment: ["XCODE_VERSION_ACTUAL": "1620"]) == .xcode)
        #expect(ReportFormat.automatic(environment: ["XCODE_PRODUCT_BUILD_VERSION": "16C5032a"]) == .xcode)
        #expect(ReportFormat.automatic(environment: ["XCODE_VERSION_ACTUAL": ""]) == .text, "set but empty is not Xcode")
    }

    // MARK: GitHub

    /// The runner's reading of a command (ActionCommand.cs): `::name k=v,k=v::data`, with the
    /// escapes undone.
    static func parseCommand(_ line: String) -> (name: String, properties: [String: String], data: String)? {
        guard line.hasPrefix("::"), let end = line.dropFirst(2).range(of: "::") else { return nil }
        let head = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]
        let data = String(line[end.upperBound...])
        let parts = head.split(separator: " ", maxSplits: 1)
        var properties: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: ",") {
                let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard keyValue.count == 2 else { return nil }
                properties[keyValue[0]] = unescape(keyValue[1], property: true)
            }
        }
        return (String(parts[0]), properties, unescape(data, property: false))
    }

    static func unescape(_ text: String, property: Bool) -> String {
        var out = text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
        if property { out = out.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",") }
        return out.replacingOccurrences(of: "%25", with: "%")
    }

    @Test func githubCommandsAreEscapedAsTheToolkitDoes() throws {
        let (_, report) = try report()
        let lines = GitHubReport.render(report).split(separator: "\n").map(String.init)
        #expect(lines[0] == "::warning file=App/Title View.swift,line=5,col=28,title=fixed-font-size::\(report.findings[0].message)")
        // escapeData: % CR LF; escapeProperty: also : and ,.
        #expect(lines[1] == "::warning file=App/We%2Cird%3A 100%25|<x>.swift,line=5,col=28,title=fixed-font-size::"
                + "50%25 off: a, b%0D%0Aline two%0A<b>&amp;</b> | `code` \"q\" 'a' \u{1}end")
        #expect(lines[2].hasPrefix("::error file=App/Title View.swift,line=9,col=3,title=missing-label::"))
        #expect(lines[3].hasPrefix("::notice "), "a finding that needs review is a notice")
        #expect(lines.contains { $0.hasPrefix("::warning file=App/Broken.swift,line=2,title=a11y-audit parse-error::Swift syntax error") })
        for line in lines { #expect(Self.parseCommand(line) != nil, "\(line)") }
        let hostile = try #require(Self.parseCommand(lines[1]))
        #expect(hostile.data == Self.hostileMessage && hostile.properties["file"] == Self.hostilePath, "the runner reads back what was written")
        #expect(hostile.properties["line"] == "5" && hostile.properties["col"] == "28" && hostile.properties["title"] == "fixed-font-size")
    }

    @Test func ciFormatsNameFilesFromTheRepositorysTop() throws {
        let (_, report) = try report()
        let options = ReportOptions(repositoryPath: "ios/App")
        #expect(try ReportFormat.github.render(report, options: options).hasPrefix("::warning file=ios/App/App/Title View.swift,"))
        #expect(try ReportFormat.gitlab.render(report, options: options).contains("\"path\" : \"ios/App/App/Title View.swift\""))
        #expect(try ReportFormat.markdown.render(report, options: options).contains("| ios/App/App/Title View.swift:5:28 |"))
    }

    @Test func theRepositoryPathIsFoundFromGit() throws {
        let repository = try TemporaryRepository()
        try repository.write(".git/HEAD", "ref: refs/heads/main\n")
        try repository.write("ios/App/View.swift", ScannerTests.uiFile)
        #expect(ScanInput.repositoryPath(of: repository.path + "/ios/App") == "ios/App")
        #expect(ScanInput.repositoryPath(of: repository.path) == "")
    }

    // MARK: GitLab

    /// GitLab's documented example ("Implement a custom tool", docs/ci/testing/code_quality.md).
    static let gitlabExample = """
        [
          {
            "description": "'unused' is assigned a value but never used.",
            "check_name": "no-unused-vars",
            "fingerprint": "7815696ecbf1c96e6894b779456d330e",
            "severity": "minor",
            "location": {
              "path": "lib/index.js",
              "lines": {
                "begin": 42
              }
            }
          }
        ]
        """

    /// An object's keys, nested objects' keys under `parent.`: the shape to compare.
    static func keyPaths(_ object: [String: Any], _ prefix: String = "") -> Set<String> {
        var paths = Set<String>()
        for (key, value) in object {
            paths.insert(prefix + key)
            if let nested = value as? [String: Any] { paths.formUnion(keyPaths(nested, prefix + key + ".")) }
        }
        return paths
    }

    @Test func gitlabIssuesHaveTheDocumentedShape() throws {
        let (_, report) = try report()
        let text = try GitLabReport.render(report)
        #expect(!text.hasPrefix("\u{FEFF}"), "GitLab's parser refuses a byte order mark")
        let example = try #require(try JSONSerialization.jsonObject(with: Data(Self.gitlabExample.utf8)) as? [[String: Any]])
        let expected = Self.keyPaths(example[0])
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(issues.count == report.findings.count)
        for issue in issues {
            #expect(Self.keyPaths(issue) == expected)
            #expect(["info", "minor", "major", "critical", "blocker"].contains(issue["severity"] as? String ?? ""))
            #expect(((issue["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] is Int)
        }
        #expect(Set(issues.compactMap { $0["fingerprint"] as? String }).count == issues.count, "GitLab folds equal fingerprints into one")
        #expect(issues.map { $0["severity"] as? String } == ["minor", "minor", "critical", "info"],
                "warning → minor, a requirement's error → critical, needs review → info")
        #expect(issues[1]["description"] as? String == Self.hostileMessage)
        #expect((issues[1]["location"] as? [String: Any])?["path"] as? String == Self.hostilePath)
        #expect(issues[0]["check_name"] as? String == "fixed-font-size")
        var clean = report
        clean.findings = []
        #expect(try JSONSerialization.jsonObject(with: Data(try GitLabReport.render(clean).utf8)) as? [Any] != nil, "no findings: an empty array")
    }

    // MARK: JUnit

    /// The elements of a document, as a parser reads them: name, attributes, text inside.
    final class Elements: NSObject, XMLParserDelegate {
        struct Element {
            let name: String
            let attributes: [String: String]
            var text = ""
            var children: [Int] = []
            let parent: Int?
        }
        var elements: [Element] = []
        private var open: [Int] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append(Element(name: name, attributes: attributes, parent: open.last))
            if let parent = open.last { elements[parent].children.append(elements.count - 1) }
            open.append(elements.count - 1)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { open.removeLast() }
        func parser(_ parser: XMLParser, foundCharacters string: String) { if let last = open.last { elements[last].text += string } }

        func children(of index: Int, named name: String) -> [Element] {
            elements[index].children.map { elements[$0] }.filter { $0.name == name }
        }
    }

    func parseXML(_ text: String) throws -> Elements {
        let parser = XMLParser(data: Data(text.utf8))
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse(), "well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        return elements
    }

    @Test func junitFollowsJenkinsSchemaWithCountsThatAddUp() throws {
        let (_, report) = try report()
        let document = try parseXML(JUnitReport.render(report))
        let root = try #require(document.elements.first)
        #expect(root.name == "testsuites")
        let allowed: [String: Set<String>] = [
            "testsuites": ["name", "time", "tests", "failures", "disabled", "errors"],
            "testsuite": ["name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname", "id", "package"],
            "testcase": ["name", "assertions", "time", "classname", "status"],
            "failure": ["message", "type"], "error": ["message", "type"], "skipped": ["message"],
            "system-out": [], "system-err": [],
        ]
        let required: [String: Set<String>] = ["testsuite": ["name", "tests"], "testcase": ["name"]]
        for element in document.elements {
            let names = try #require(allowed[element.name], "\(element.name) is not in Jenkins' schema")
            #expect(Set(element.attributes.keys).isSubset(of: names), "\(element.name): \(element.attributes.keys)")
            #expect(required[element.name, default: []].isSubset(of: Set(element.attributes.keys)))
        }
        var totals = (tests: 0, failures: 0, errors: 0)
        for suiteIndex in root.children {
            let suite = document.elements[suiteIndex]
            #expect(suite.name == "testsuite")
            let cases = document.children(of: suiteIndex, named: "testcase")
            let casesIndices = suite.children
            let failures = casesIndices.filter { !document.children(of: $0, named: "failure").isEmpty }.count
            let errors = casesIndices.filter { !document.children(of: $0, named: "error").isEmpty }.count
            let skipped = casesIndices.filter { !document.children(of: $0, named: "skipped").isEmpty }.count
            #expect(suite.attributes["tests"] == String(cases.count) && suite.attributes["failures"] == String(failures))
            #expect(suite.attributes["errors"] == String(errors) && suite.attributes["skipped"] == String(skipped))
            totals = (totals.tests + cases.count, totals.failures + failures, totals.errors + errors)
        }
        #expect(root.attributes["tests"] == String(totals.tests) && root.attributes["failures"] == String(totals.failures))
        #expect(root.attributes["errors"] == String(totals.errors))

        // One suite per rule, one case per file; the scan's own suite first.
        let suites = root.children.map { document.elements[$0].attributes["name"] ?? "" }
        #expect(suites == ["a11y-audit", "fixed-font-size", "missing-label"])
        let fixedFont = root.children[1]
        let files = document.children(of: fixedFont, named: "testcase").map { $0.attributes["name"] ?? "" }
        #expect(files == [Self.hostilePath, "App/Title View.swift"].sorted())
        // The hostile message reads back exactly, but for the control character XML cannot hold.
        let hostileCase = try #require(document.elements[fixedFont].children.first { document.elements[$0].attributes["name"] == Self.hostilePath })
        let failure = try #require(document.children(of: hostileCase, named: "failure").first)
        #expect(failure.attributes["message"] == Self.hostileMessage.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"))
        #expect(failure.attributes["type"] == "warning")
        #expect(failure.text.contains("50% off: a, b\r\nline two\n<b>&amp;</b> | `code`"))
        // The title file's case fails with its violation; the finding to review is output only.
        let titleCase = try #require(document.elements[fixedFont].children.first { document.elements[$0].attributes["name"] == "App/Title View.swift" })
        #expect(document.children(of: titleCase, named: "failure").first?.text.hasPrefix("App/Title View.swift:5:28: warning: ") == true)
        #expect(document.children(of: titleCase, named: "system-out").first?.text.contains("App/Title View.swift:12:28: note: ") == true)
        // The file that did not parse is an error of the scan's suite.
        let scanSuite = root.children[0]
        let brokenCase = try #require(document.elements[scanSuite].children.first { document.elements[$0].attributes["name"] == "App/Broken.swift:2" })
        #expect(document.children(of: brokenCase, named: "error").first?.attributes["type"] == "parse-error")
    }

    @Test func aCleanScanStillHasATestCase() throws {
        var (_, report) = try report()
        report.findings = []
        report.notes = []
        let document = try parseXML(JUnitReport.render(report))
        #expect(document.elements.first?.attributes["tests"] == "1" && document.elements.first?.attributes["failures"] == "0")
        #expect(document.elements.contains { $0.name == "testcase" && $0.attributes["name"] == "scan" })
    }

    // MARK: Markdown

    /// A table row's cells, split at the pipes no backslash escapes.
    static func cells(_ row: String) -> [String] {
        var cells: [String] = [], current = "", escaped = false
        for character in row {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "|" { cells.append(current); current = "" } else { current.append(character) }
        }
        cells.append(current)
        return Array(cells.dropFirst().dropLast()).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func markdownSummarisesAndEscapesEveryCell() throws {
        let (_, report) = try report()
        let text = MarkdownReport.render(report)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "### a11y-audit: 1 error, 2 warnings, 1 to review")
        #expect(lines.contains("| error | 1 |") && lines.contains("| warning | 2 |") && lines.contains("| needs review | 1 |"))
        #expect(lines.contains("| `fixed-font-size` | recommendation | 3 |") && lines.contains("| `missing-label` | requirement | 1 |"),
                "rules by count")
        let header = try #require(lines.firstIndex(of: "| Severity | Location | Rule | Message |"))
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        #expect(rows.count == 4)
        for row in rows { #expect(Self.cells(row).count == 4, "\(row)") }
        #expect(Self.cells(rows.first ?? "")[0] == "error", "most severe first")
        #expect(Self.cells(rows.last ?? "")[0] == "review", "needs review last")
        let hostile = try #require(rows.first { $0.contains("We,ird") })
        #expect(Self.cells(hostile) == ["warning", #"App/We,ird: 100%\|&lt;x&gt;.swift:5:28"#, "`fixed-font-size`",
                                        #"50% off: a, b line two &lt;b&gt;&amp;amp;&lt;/b&gt; \| \`code\` "q" 'a' "# + "\u{1}end"])
        #expect(text.contains("**Notes**") && text.contains("- App/Broken.swift:2: Swift syntax error"))
    }

    @Test func markdownCapsTheTable() throws {
        var (_, report) = try report()
        let template = report.findings[0]
        report.findings = (1...60).map { line in
            var finding = template
            finding.location.line = line
            return finding
        }
        let text = MarkdownReport.render(report, limit: 50)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("| warning | App/") }.count == 50)
        #expect(text.contains("…and 10 more findings"))
        #expect(!MarkdownReport.render(report, limit: 60).contains("more finding"))
    }

    // MARK: The command line

    @Test func everyFormatRunsFromTheCommandLine() throws {
        let repository = try TemporaryRepository()
        try repository.write("View.swift", ScannerTests.uiFile)
        for format in ReportFormat.allCases {
            let run = try runProcess(Paths.executable, ["scan", repository.path, "--format", format.rawValue, "--fail-on", "none"])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stdout.contains("fixed-font-size"), "\(format): \(run.stdout)")
        }
        let bad = try runProcess(Paths.executable, ["scan", repository.path, "--format", "xml"])
        #expect(bad.status == 2 && bad.stderr.contains("--format must be text, json, sarif, xcode, github, gitlab, junit or markdown"))
    }

    @Test func anXcodeBuildPhaseGetsXcodesFormatWithoutAFlag() throws {
        let repository = try TemporaryRepository()
        try repository.write("View.swift", ScannerTests.uiFile)
        let root = URL(fileURLWithPath: repository.path).standardizedFileURL.path
        let xcode = try runProcess(Paths.executable, ["scan", repository.path], environment: ["XCODE_VERSION_ACTUAL": "1620"])
        #expect(xcode.stdout.hasPrefix("\(root)/View.swift:5:28: warning: "), "\(xcode.stdout)")
        let terminal = try runProcess(Paths.executable, ["scan", repository.path])
        #expect(terminal.stdout.hasPrefix("View.swift\n"))
        let asked = try runProcess(Paths.executable, ["scan", repository.path, "--format", "text"], environment: ["XCODE_VERSION_ACTUAL": "1620"])
        #expect(asked.stdout.hasPrefix("View.swift\n"), "--format wins")
    }
}
