import AuditModel
import AuditStore
@testable import Dashboard
import Foundation
import Testing

/// The renderer's pure parts, without a database.
@Suite struct RenderingTests {
    let sha = "0123456789abcdef0123456789abcdef01234567"

    @Test func findingLinesLinkToTheForgeAtTheAuditedCommit() {
        let github = ForgeLink.forge(provider: "github", name: "acme/app", archiveURL: nil)
        #expect(ForgeLink.blob(github, commit: sha, path: "Sources/App View.swift", line: 12)
                == "https://github.com/acme/app/blob/\(sha)/Sources/App%20View.swift#L12")
        let enterprise = ForgeLink.forge(provider: "github", name: "acme/app",
                                         archiveURL: "https://ghe.example.com/api/v3/repos/acme/app/tarball/{ref}")
        #expect(ForgeLink.blob(enterprise, commit: sha, path: "A.swift", line: 1) == "https://ghe.example.com/acme/app/blob/\(sha)/A.swift#L1")
        let gitlab = ForgeLink.forge(provider: "gitlab", name: "group/sub/app", archiveURL: "https://gitlab.example.com/api/v4/projects/7/repository/archive.tar.gz")
        #expect(ForgeLink.blob(gitlab, commit: sha, path: "A.swift", line: 3) == "https://gitlab.example.com/group/sub/app/-/blob/\(sha)/A.swift#L3")
        // The `url` provider: the forge is read from a GitHub or GitLab archive link.
        let archived = ForgeLink.forge(provider: "url", name: "anything", archiveURL: "https://github.com/acme/app/archive/{ref}.tar.gz")
        #expect(archived == .init(kind: .github, base: "https://github.com/acme/app"))
        let codeload = ForgeLink.forge(provider: "url", name: "x", archiveURL: "https://codeload.github.com/acme/app/tar.gz/main")
        #expect(codeload == .init(kind: .github, base: "https://github.com/acme/app"))
        let lab = ForgeLink.forge(provider: "url", name: "x", archiveURL: "https://gitlab.com/g/app/-/archive/main/app-main.tar.gz")
        #expect(lab == .init(kind: .gitlab, base: "https://gitlab.com/g/app"))
        // Nothing to link: a file archive, an unknown host, a branch name instead of a commit.
        #expect(ForgeLink.forge(provider: "url", name: "x", archiveURL: "file:///archives/app.tar.gz") == nil)
        #expect(ForgeLink.forge(provider: "url", name: "x", archiveURL: "https://downloads.example.com/app.tar.gz") == nil)
        #expect(ForgeLink.blob(github, commit: "main", path: "A.swift", line: 1) == nil)
        #expect(ForgeLink.blob(github, commit: nil, path: "A.swift", line: 1) == nil)
        // A path cannot break out of the link.
        #expect(ForgeLink.blob(github, commit: sha, path: "a#b?c.swift", line: 2) == "https://github.com/acme/app/blob/\(sha)/a%23b%3Fc.swift#L2")
    }

    @Test func messagesShowBackticksAsCodeAndEscapeEverything() {
        #expect(HTML.inlineCode("Use `.font(.body)` instead of `.system(size: 12)`.")
                == "Use <code>.font(.body)</code> instead of <code>.system(size: 12)</code>.<wbr>")
        #expect(HTML.inlineCode("`<b>` & more") == "<code>&lt;b&gt;</code> &amp; more")
        #expect(HTML.inlineCode("one ` backtick") == "one ` backtick")
        #expect(HTML.inlineCode("`a` then ` unpaired") == "<code>a</code> then ` unpaired")
        #expect(HTML.inlineCode("no code <here>") == "no code &lt;here&gt;")
        // Prose around code can break inside long API names, between their parts.
        #expect(HTML.inlineCode("call preferredFont(forTextStyle:) on `UIFont`") == "call preferred<wbr>Font(for<wbr>Text<wbr>Style:) on <code>UIFont</code>")
        #expect(HTML.breakable("acme/CheckoutStep0ViewController.swift") == "acme/<wbr>Checkout<wbr>Step0<wbr>View<wbr>Controller.<wbr>swift")
    }

    @Test func escapingCoversTheFiveCharactersAndLeavesTheRestAsItIs() {
        #expect(HTML.escape(#"<a href="x" title='y'>&</a>"#) == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTML.escape("Größe 😀 — café") == "Größe 😀 — café")
        #expect(HTML.escape("é<ü") == "é&lt;ü")
        #expect(HTML.escape("") == "")
    }

    @Test func exportsQuoteCSVAndEscapeJSONWhateverAFieldHolds() throws {
        let message = "say \"hi\", then \\ back\nslash\tand \u{01} \u{1F600} é"
        let finding = DashboardQueries.Finding(id: 1, repositoryID: 2, repository: "acme/app", teamID: nil, ruleID: "fixed-font-size",
                                               kind: .requirement, severity: .error, path: "A, B.swift", line: 3, column: 4, message: message,
                                               snippet: "x", sourceLine: "x", firstSeenRun: 5, fixedInRun: nil)
        let rows = [FindingExport.Row(change: "open", finding: finding, link: nil)]
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(FindingExport.json(rows).utf8)) as? [[String: Any]])
        #expect(parsed.first?["message"] as? String == message && parsed.first?["path"] as? String == "A, B.swift")
        #expect(parsed.first?["line"] as? Int == 3 && parsed.first?["fixed_in_run"] is NSNull && parsed.first?["link"] is NSNull)
        let csv = FindingExport.csv(rows)
        #expect(csv.contains("\"say \"\"hi\"\", then \\ back\nslash\tand \u{01} \u{1F600} é\"") && csv.contains("\"A, B.swift\""))
        #expect(FindingExport.json([]) == "[]\n")
    }

    @Test func numbersAreGroupedByThree() {
        #expect([0, 7, 999, 1000, 12345, 1_234_567, -4321].map(HTML.number) == ["0", "7", "999", "1,000", "12,345", "1,234,567", "-4,321"])
    }

    @Test func sparklinesAreScaledToTheirOwnRangeAndSayIt() {
        let narrow = Chart.sparkline([402, 405, 403], label: "Open findings")
        // 402 at the bottom (y 22), 405 at the top (y 2): not a flat line near the top.
        #expect(narrow.contains("points=\"0.0,22.0 50.0,2.0 100.0,15.3\""))
        #expect(narrow.contains("(range 402–405)") && narrow.contains(">402–405</span>"))
        let flat = Chart.sparkline([7, 7, 7], label: "Open findings")
        #expect(flat.contains("points=\"0.0,12.0 50.0,12.0 100.0,12.0\"") && flat.contains("7 throughout"))
        #expect(!narrow.contains("series--note"), "a solid line, not the notes' dotted series")
    }

    @Test func theFirstAndLastDateLabelsStayInsideTheChart() {
        let chart = Chart.line(id: "t", title: "T", description: "D", labels: ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"],
                               series: [Chart.Series(name: "Errors", kind: "error", values: [1, 2, 3, 4, 5])])
        #expect(chart.contains("text-anchor=\"start\">2026-11-01</text>"))
        #expect(chart.contains("text-anchor=\"end\">2026-11-05</text>"))
    }

    @Test func runsAreLabelledSoThatTwoRunsOfOneDayDiffer() {
        #expect(SiteRenderer.runLabel(date: "2026-11-29", kind: .nightly, id: 12) == "the night of 2026-11-29")
        #expect(SiteRenderer.runLabel(date: "2026-11-29", kind: .manual, id: 13) == "2026-11-29, manual run 13")
        #expect(SiteRenderer.regressionPath("payments", runID: 12) != SiteRenderer.regressionPath("payments", runID: 13))
    }
}
