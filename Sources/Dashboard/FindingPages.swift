import AuditModel
import AuditStore
import Foundation

/// Long finding lists as people read them: in pages of `findingsPerPage` (a 1,000-finding
/// repository was one 1.2 MB page), and, for a list longer than a page, filtered by severity,
/// kind, rule and owner through static pages beside it, so the filters work without JavaScript
/// and on any static host. A list of one page is filtered in place by filters.js, and without
/// it is read by severity and file. (Filter pages for every list over 100 findings doubled the
/// 10,000-repository site to 8 GB and its render to 112-171 s, disk-bound.)
extension SiteRenderer {
    public static let findingsPerPage = 200
    public static let filterThreshold = findingsPerPage

    /// One way of narrowing a list: its file name (without `.html`), what a link says, and the
    /// positions in the list of the findings it keeps. `page`: the filter whose page it shares
    /// when both keep the same findings (a kind whose findings are exactly a severity's).
    struct FindingFilter {
        var slug: String
        var label: String
        var kept: [Int]
        var page: String? = nil
        var pageSlug: String { page ?? slug }
    }

    /// The filters that keep some but not all of `findings`, by dimension.
    func findingFilters(_ findings: [DashboardQueries.Finding]) -> [(dimension: String, filters: [FindingFilter])] {
        // A filter that keeps nothing, or everything (one owner, one kind), is no filter: its
        // page would repeat the whole list.
        func filters(_ options: [(slug: String, label: String, keeps: (DashboardQueries.Finding) -> Bool)]) -> [FindingFilter] {
            options.map { option in FindingFilter(slug: option.slug, label: option.label, kept: findings.indices.filter { option.keeps(findings[$0]) }) }
                .filter { !$0.kept.isEmpty && $0.kept.count < findings.count }
        }
        let severities = filters([
            ("severity-error", "Errors", { $0.certainty == .violation && $0.severity == .error }),
            ("severity-warning", "Warnings", { $0.certainty == .violation && $0.severity == .warning }),
            ("severity-note", "Notes", { $0.certainty == .violation && $0.severity == .note }),
            ("needs-review", "Needs review", { $0.certainty == .review }),
        ])
        let kinds = filters(RuleKind.allCases.map { kind in
            ("kind-\(kind.rawValue)", kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst(), { $0.kind == kind })
        })
        let byRule = filters(Set(findings.map(\.ruleID)).sorted().map { id in
            ("rule-" + HTML.segment(id), rules[id]?.title ?? id, { $0.ruleID == id })
        }).sorted { ($1.kept.count, $0.label) < ($0.kept.count, $1.label) }
        let byOwner = filters(Set(findings.map(\.teamID)).sorted { ($0 ?? -1) < ($1 ?? -1) }.map { team in
            guard let team else { return ("owner-none", "No team", { $0.teamID == nil }) }
            let name = teamNames[team] ?? "Team \(team)"
            return ("owner-\(team)-" + HTML.segment(name.lowercased()), name, { $0.teamID == team })
        })
        var dimensions = [("Severity", severities), ("Kind", kinds), ("Rule", byRule), ("Owner", byOwner)].filter { !$0.1.isEmpty }
        // Severity follows a rule's kind for violations, so a kind often keeps exactly one
        // severity's findings: one page serves both links.
        var pageOfSet: [[Int]: String] = [:]
        for dimension in dimensions.indices {
            for option in dimensions[dimension].1.indices {
                let filter = dimensions[dimension].1[option]
                if let existing = pageOfSet[filter.kept] { dimensions[dimension].1[option].page = existing } else { pageOfSet[filter.kept] = filter.slug }
            }
        }
        return dimensions
    }

    /// Where a list's pages and filtered views are: beside `page`, in a folder of its own that
    /// holds nothing else (`repos/acme/app.findings/`), so what a render no longer writes there
    /// can be removed.
    static func findingPagesFolder(of page: String) -> String {
        (page.hasSuffix(".html") ? String(page.dropLast(5)) : page) + ".findings"
    }

    /// The list section's HTML for `page` (its first page of findings, and the filters when the
    /// list is long), writing the other pages and the filtered views beside it.
    func pagedFindingList(_ findings: [DashboardQueries.Finding], page: String, title: String,
                          breadcrumbs: [(String, String)], pageTeam: Int??, commits: [Int: String]) throws -> String {
        let sorted = findings.sorted { Self.listOrder($0) < Self.listOrder($1) }
        let folder = Self.findingPagesFolder(of: page)
        var written = Set<String>()
        let filters = sorted.count > Self.filterThreshold ? findingFilters(sorted) : []

        func filterNavigation(from path: String, current: String?) -> String {
            guard !filters.isEmpty else { return "" }
            var html = "<nav class=\"finding-filters\" aria-label=\"Filter these findings\"><dl>"
            for (dimension, options) in filters {
                html += "<dt>\(HTML.escape(dimension))</dt><dd><ul>"
                if current != nil, dimension == filters.first?.dimension {
                    html += "<li>\(anchor(path, page + "#open", "All")) <span class=\"count\">(\(HTML.number(sorted.count)))</span></li>"
                }
                for filter in options {
                    let target = folder + "/" + filter.pageSlug + ".html"
                    let link = filter.pageSlug == current
                        ? "<a href=\"\(HTML.escape(HTML.href(from: path, to: target)))\" aria-current=\"page\">\(HTML.breakable(filter.label))</a>"
                        : anchor(path, target, filter.label)
                    html += "<li>\(link) <span class=\"count\">(\(HTML.number(filter.kept.count)))</span></li>"
                }
                html += "</ul></dd>"
            }
            return html + "</dl></nav>"
        }

        /// Writes pages 2… of `items` (page 1 is `first`, already a page) and returns page 1's list.
        func pages(_ items: [DashboardQueries.Finding], first: String, namePrefix: String, heading: String, current: String?) throws -> String {
            let count = max(1, (items.count + Self.findingsPerPage - 1) / Self.findingsPerPage)
            func path(_ number: Int) -> String { number == 1 ? first : folder + "/" + namePrefix + "page-\(number).html" }
            func pageNavigation(_ number: Int, from here: String, end atEnd: Bool) -> String {
                guard count > 1 else { return "" }
                let start = (number - 1) * Self.findingsPerPage + 1, end = min(number * Self.findingsPerPage, items.count)
                // Two navigation landmarks on a page need names of their own.
                let name = "Pages of \(heading)" + (atEnd ? ", after the list" : "")
                var html = "<nav class=\"pagination\" aria-label=\"\(HTML.escape(name))\"><p>Findings \(HTML.number(start))–\(HTML.number(end)) of \(HTML.number(items.count)), page \(number) of \(count).</p><ul>"
                if number > 1 { html += "<li><a rel=\"prev\" href=\"\(HTML.escape(HTML.href(from: here, to: path(number - 1))))\">Previous page</a></li>" }
                for other in 1...count {
                    let target = HTML.escape(HTML.href(from: here, to: path(other)))
                    html += other == number ? "<li><a href=\"\(target)\" aria-current=\"page\">\(other)</a></li>" : "<li><a href=\"\(target)\">\(other)</a></li>"
                }
                if number < count { html += "<li><a rel=\"next\" href=\"\(HTML.escape(HTML.href(from: here, to: path(number + 1))))\">Next page</a></li>" }
                return html + "</ul></nav>"
            }
            func list(_ number: Int, from here: String) -> String {
                let slice = Array(items[min(items.count, (number - 1) * Self.findingsPerPage)..<min(items.count, number * Self.findingsPerPage)])
                return pageNavigation(number, from: here, end: false)
                    + findingList(slice, from: here, showRepository: false, pageTeam: pageTeam, commits: commits)
                    + pageNavigation(number, from: here, end: true)
            }
            if count > 1 {
                for number in 2...count {
                    let here = path(number)
                    let body = filterNavigation(from: here, current: current)
                        + "<section aria-labelledby=\"open\"><h2 id=\"open\">\(HTML.escape(heading.prefix(1).uppercased() + heading.dropFirst())), page \(number)</h2>"
                        + list(number, from: here) + "</section>"
                    try write(here, self.page(here, title: "\(title): \(heading), page \(number)", heading: title,
                                              breadcrumbs: breadcrumbs + [(title, page)], body))
                    written.insert((here as NSString).lastPathComponent)
                }
            }
            return list(1, from: first)
        }

        let html = filterNavigation(from: page, current: nil)
            + (sorted.isEmpty ? "<p>No open findings.</p>" : try pages(sorted, first: page, namePrefix: "", heading: "open findings", current: nil))
        for (_, options) in filters {
            for filter in options where filter.page == nil {
                let first = folder + "/" + filter.slug + ".html"
                let kept = filter.kept.map { sorted[$0] }
                let body = filterNavigation(from: first, current: filter.slug)
                    + "<section aria-labelledby=\"open\"><h2 id=\"open\">Open findings: \(HTML.escape(filter.label)) (\(HTML.number(kept.count)))</h2>"
                    + (try pages(kept, first: first, namePrefix: filter.slug + "-", heading: filter.label, current: filter.slug)) + "</section>"
                try write(first, self.page(first, title: "\(title): \(filter.label)", heading: title,
                                           breadcrumbs: breadcrumbs + [(title, page)], body))
                written.insert((first as NSString).lastPathComponent)
            }
        }
        // Views a list no longer has (a rule fixed, the list now short) would show old findings.
        let target = output + "/" + folder
        for name in (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? [] where name.hasSuffix(".html") && !written.contains(name) {
            unlink(target + "/" + name)
        }
        return html
    }

    /// Errors, warnings, notes, then what needs review (as `findingList` shows them), then by place.
    static func listOrder(_ finding: DashboardQueries.Finding) -> (Int, String, String, Int, String) {
        let rank = finding.certainty == .review ? 3 : finding.severity == .error ? 0 : finding.severity == .warning ? 1 : 2
        return (rank, finding.repository, finding.path, finding.line, finding.ruleID)
    }
}
