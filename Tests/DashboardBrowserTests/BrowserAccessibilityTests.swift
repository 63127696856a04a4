import Dashboard
import DatabaseTestSupport
import Foundation
import HistorySimulation
import Testing

/// Serves a site with the real `a11y-audit serve` and runs Tests/browser/check_site.py against it
/// in Debian's headless Chromium: crawl, axe-core in light and dark mode, skip link and focus,
/// no horizontal scrolling at 200% and 400% zoom, screenshots as artifacts.
enum Browser {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    static let python = repositoryRoot + "/.venv-browser/bin/python"
    static let script = repositoryRoot + "/Tests/browser/check_site.py"

    /// CI installs chromium (Tests/browser/setup.sh from .ci/run); a machine without it skips.
    static var chromiumInstalled: Bool { FileManager.default.isExecutableFile(atPath: chromium) }

    /// Screenshots and report.json: `A11Y_BROWSER_ARTIFACTS`, else .build/browser-artifacts/.
    static func artifacts(_ name: String) -> String {
        let base = ProcessInfo.processInfo.environment["A11Y_BROWSER_ARTIFACTS"] ?? repositoryRoot + "/.build/browser-artifacts"
        return base + "/" + name
    }

    static var executable: String {
        let bundle = Bundle.main.bundleURL
        for candidate in [bundle.appendingPathComponent("a11y-audit").path,
                          bundle.deletingLastPathComponent().appendingPathComponent("a11y-audit").path,
                          repositoryRoot + "/.build/debug/a11y-audit"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return repositoryRoot + "/.build/debug/a11y-audit"
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    try ChildProcess.run(executable, arguments, environment: environment)
}

/// `a11y-audit serve` on a free port, stopped (SIGTERM, then waited for) on deinit.
final class ServeProcess {
    let pid: pid_t
    let baseURL: String
    let log: String

    init(site: String, basePath: String) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log").path
        // No database: pages only (the dashboard's pages are static files).
        pid = try ChildProcess.spawn(Browser.executable, ["serve", "--site", site, "--port", "0", "--threads", "4", "--base-path", basePath],
                                     stdout: log, stderr: log, environment: ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"])
        let deadline = Date().addingTimeInterval(20)
        var found: String?
        while Date() < deadline, found == nil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }),
               let range = line.range(of: " at ") {
                found = String(line[range.upperBound...])
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let found else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw TestFailure("a11y-audit serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        baseURL = found
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        unlink(log)
    }
}

/// A site folder: the fixture pages and the real stylesheet, plus any extra files.
func makeSite(extra: [String: String] = [:]) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("browser-site-\(UUID().uuidString)").path
    try FileManager.default.copyItem(atPath: Browser.repositoryRoot + "/Tests/Fixtures/Site", toPath: root)
    try FileManager.default.createDirectory(atPath: root + "/assets", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Browser.repositoryRoot + "/Web/dashboard.css", toPath: root + "/assets/dashboard.css")
    for (path, text) in extra {
        try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
    }
    return root
}

@Suite(.serialized) struct BrowserAccessibilityTests {
    @Test(.enabled(if: Browser.chromiumInstalled,
                   "Debian's chromium is not installed: run Tests/browser/setup.sh (CI does, in .ci/run)"))
    func theFixtureSiteHasNoAxeViolationsNoBrokenLinksAndReflowsAtZoom() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Browser.python),
                "chromium is installed but .venv-browser is not: run Tests/browser/setup.sh")
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(atPath: site) }
        let server = try ServeProcess(site: site, basePath: "/dashboard")
        let artifacts = Browser.artifacts("fixture-site")
        try? FileManager.default.removeItem(atPath: artifacts)
        let result = try run(Browser.python, [Browser.script, server.baseURL, "--artifacts", artifacts])
        #expect(result.status == 0, "check_site.py found problems:\n\(result.output)")
        #expect(result.output.contains("checked 3 page(s) of 3 kind(s)"), "\(result.output)")
        for kind in ["index", "teams_x", "teams_x_regressions_x"] {
            for variant in ["light", "dark", "zoom200-light", "zoom200-dark"] {
                let path = "\(artifacts)/\(kind)-\(variant).png"
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 1000, "screenshot \(path)")
            }
        }
    }

    @Test(.enabled(if: Browser.chromiumInstalled,
                   "Debian's chromium is not installed: run Tests/browser/setup.sh (CI does, in .ci/run)"))
    func theHarnessReportsViolationsBrokenLinksAndHorizontalScrolling() throws {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Bad page</title>
            <link rel="stylesheet" href="assets/dashboard.css"><link rel="stylesheet" href="wide.css"></head>
            <body><a class="skip-link" href="#main">Skip to main content</a>
            <main id="main"><h1>Bad page</h1>
            <p><img src="assets/chart.png"> <a href="teams/missing.html">A team that is not there</a></p>
            <div class="wide">A fixed-width block wider than the window at 200% zoom.</div>
            </main></body></html>
            """
        let site = try makeSite(extra: ["bad.html": page, "wide.css": ".wide { width: 1000px; }"])
        defer { try? FileManager.default.removeItem(atPath: site) }
        try FileManager.default.createDirectory(atPath: site + "/assets", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: site + "/assets/chart.png", contents: Data([0x89, 0x50, 0x4E, 0x47]))
        // Linked from the overview so the crawl finds it.
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
            .replacingOccurrences(of: "</footer>", with: "<p><a href=\"bad.html\">Bad page</a></p></footer>")
        try index.write(toFile: site + "/index.html", atomically: true, encoding: .utf8)
        let server = try ServeProcess(site: site, basePath: "/dashboard")
        let result = try run(Browser.python, [Browser.script, server.baseURL, "--artifacts", Browser.artifacts("broken-site")])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("[broken-link]") && result.output.contains("teams/missing.html"), "\(result.output)")
        #expect(result.output.contains("image-alt"), "axe's missing alternative text: \(result.output)")
        #expect(result.output.contains("[reflow]") && result.output.contains("200% zoom"), "\(result.output)")
    }
}

/// The real dashboard: a generated history with realistic names and sizes (teams, nights, a
/// failed job, a manual run, a checked pull request) rendered by SiteRenderer, served by
/// `a11y-audit serve` under a sub-path, checked at three widths, light and dark.
@Suite(.serialized) struct RenderedDashboardBrowserTests {
    @Test(.enabled(if: Browser.chromiumInstalled,
                   "Debian's chromium is not installed: run Tests/browser/setup.sh (CI does, in .ci/run)"))
    func everyPageKindOfTheRenderedDashboardPassesAxeInLightAndDarkAndLaysOutAtThreeWidths() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            // Data as organisations have it: long team and app names, nine apps, one with about a
            // thousand findings, two runs on one day, a checked pull request.
            var history = FixtureHistory(teams: 3, repositories: 9, nights: 8)
            history.withPullRequest = true
            history.realistic = true
            try history.write(to: connection)
            let site = FileManager.default.temporaryDirectory.appendingPathComponent("rendered-site-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: site) }
            _ = try SiteRenderer(connection: connection, output: site, webDirectory: Browser.repositoryRoot + "/Web").renderAll()
            let server = try ServeProcess(site: site, basePath: "/dashboard")
            let artifacts = Browser.artifacts("rendered-dashboard")
            try? FileManager.default.removeItem(atPath: artifacts)
            let result = try run(Browser.python, [Browser.script, server.baseURL, "--artifacts", artifacts, "--expect-filter-script"])
            #expect(result.status == 0, "check_site.py found problems:\n\(result.output)")
            for kind in ["index", "teams/*/index", "teams/*/regressions/*", "repos/*/*", "repos/*/*.findings/*", "runs/*", "jobs/*", "rules/*", "rules/index",
                         "readiness", "teams/*/readiness", "runs/*/teams/*", "pulls/index", "pulls/*/*/*"] {
                #expect(result.output.contains("kind \(kind):"), "page kind \(kind) was not reached: \(result.output)")
            }
        }
    }
}
