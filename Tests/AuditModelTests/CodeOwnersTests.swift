import AuditModel
import Testing

/// The pattern and owner lines of the example file in GitHub's "About code owners" page
/// (docs.github.com), with its comments shortened. Line numbers matter for `rule(for:)`.
private let githubExample = """
# This is a comment.
# Each line is a file pattern followed by one or more owners.

# Default owners for everything in the repo, unless a later match takes precedence.
*       @global-owner1 @global-owner2

# Order is important; the last matching pattern takes the most precedence.
*.js    @js-owner #This is an inline comment.

# Email addresses work too.
*.go docs@example.com

# Teams: @org/team-name.
*.txt @octo-org/octocats

# @doctocat owns build/logs at the root and all its subdirectories.
/build/logs/ @doctocat

# docs/* matches docs/getting-started.md but not docs/build-app/troubleshooting.md.
docs/*  docs@example.com

# @octocat owns any file in an apps directory anywhere.
apps/ @octocat

# @doctocat owns any file in the root /docs directory and its subdirectories.
/docs/ @doctocat

# Any change inside /scripts needs @doctocat or @octocat.
/scripts/ @doctocat @octocat

# @octocat owns any file in a logs directory at any depth.
**/logs @octocat

# /apps/ is @octocat's except /apps/github, whose owners are left empty.
/apps/ @octocat
/apps/github

# /apps/ is @octocat's except /apps/github, which has its own owner.
/apps/ @octocat
/apps/github @doctocat
"""

@Suite struct CodeOwnersTests {
    let owners = CodeOwners(text: githubExample, file: ".github/CODEOWNERS")

    @Test func readsEveryRuleOfGitHubsExampleWithoutProblems() {
        #expect(owners.problems.isEmpty)
        #expect(owners.rules.map(\.pattern) == ["*", "*.js", "*.go", "*.txt", "/build/logs/", "docs/*", "apps/", "/docs/",
                                                "/scripts/", "**/logs", "/apps/", "/apps/github", "/apps/", "/apps/github"])
        #expect(owners.rules[1].owners == ["@js-owner"])          // the inline comment is not an owner
        #expect(owners.rules[11].owners.isEmpty)
    }

    @Test func theDefaultRuleOwnsWhatNothingLaterMatches() {
        #expect(owners.owners(of: "README.md") == ["@global-owner1", "@global-owner2"])
        #expect(owners.owners(of: "Sources/App/View.swift") == ["@global-owner1", "@global-owner2"])
    }

    @Test func extensionPatternsMatchAtAnyDepth() {
        #expect(owners.owners(of: "web/static/app.js") == ["@js-owner"])
        #expect(owners.owners(of: "cmd/main.go") == ["docs@example.com"])
        #expect(owners.owners(of: "notes.txt") == ["@octo-org/octocats"])
        #expect(owners.owners(of: "web/app.jsx") == ["@global-owner1", "@global-owner2"])
    }

    @Test func anchoredDirectoriesOwnEverythingBelowThem() {
        // In the example, the later `**/logs` line takes build/logs over from `/build/logs/`.
        #expect(owners.rule(for: "build/logs/today.log")?.pattern == "**/logs")
        let buildLogs = CodeOwners(text: "* @all\n/build/logs/ @doctocat\n")
        #expect(buildLogs.owners(of: "build/logs/today.log") == ["@doctocat"])
        #expect(buildLogs.owners(of: "build/logs/2024/01/today.log") == ["@doctocat"])
        #expect(buildLogs.owners(of: "build/logs") == ["@all"])
        #expect(buildLogs.owners(of: "src/build/logs/a.log") == ["@all"])
        // Anchored: a build/logs deeper down is not the root's (but **/logs still applies).
        #expect(owners.rule(for: "src/build/logs/a.log")?.pattern == "**/logs")
        #expect(owners.owners(of: "scripts/deploy.sh") == ["@doctocat", "@octocat"])
        #expect(owners.owners(of: "tools/scripts/deploy.sh") == ["@global-owner1", "@global-owner2"])
    }

    @Test func docsStarIsNotRecursiveButSlashDocsSlashIs() {
        // `/docs/` comes later than `docs/*`, so it wins for both.
        #expect(owners.rule(for: "docs/getting-started.md")?.pattern == "/docs/")
        #expect(owners.rule(for: "docs/build-app/troubleshooting.md")?.pattern == "/docs/")
        // Alone, `docs/*` owns direct children only.
        let docsOnly = CodeOwners(text: "* @all\ndocs/* docs@example.com\n")
        #expect(docsOnly.owners(of: "docs/getting-started.md") == ["docs@example.com"])
        #expect(docsOnly.owners(of: "docs/build-app/troubleshooting.md") == ["@all"])
        #expect(docsOnly.owners(of: "other/docs/a.md") == ["@all"])
    }

    @Test func unanchoredDirectoryPatternsMatchAtAnyDepth() {
        let appsAnywhere = CodeOwners(text: "apps/ @octocat\n")
        #expect(appsAnywhere.owners(of: "apps/a.swift") == ["@octocat"])
        #expect(appsAnywhere.owners(of: "client/apps/ios/a.swift") == ["@octocat"])
        // A trailing slash matches directories only.
        #expect(appsAnywhere.owners(of: "client/apps") == [])
        #expect(owners.rule(for: "deeply/nested/logs/x.log")?.pattern == "**/logs")
    }

    @Test func theLastMatchWinsIncludingAnUnownedOne() {
        let unowned = CodeOwners(text: "/apps/ @octocat\n/apps/github\n")
        #expect(unowned.owners(of: "apps/web/index.html") == ["@octocat"])
        #expect(unowned.owners(of: "apps/github/index.html") == [])
        #expect(unowned.rule(for: "apps/github/index.html")?.line == 2)
        // In the full example the final /apps/github line names @doctocat.
        #expect(owners.owners(of: "apps/github/index.html") == ["@doctocat"])
        #expect(owners.rule(for: "apps/github/index.html")?.line == githubExample.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(owners.owners(of: "apps/web/index.html") == ["@octocat"])
        #expect(CodeOwners(text: "/apps/ @a\n").rule(for: "README.md") == nil)
    }

    @Test func escapedHashStartsAPatternAndEscapedSpaceStaysInIt() {
        let file = CodeOwners(text: "\\#notes.md @keeper\n#notes.md @nobody\nmy\\ file.txt @spacer\n")
        #expect(file.rules.map(\.pattern) == ["#notes.md", "my file.txt"])
        #expect(file.owners(of: "#notes.md") == ["@keeper"])
        #expect(file.owners(of: "docs/my file.txt") == ["@spacer"])
    }

    @Test func wildcardsStayWithinAComponentAndDoubleStarsSpanThem() {
        let file = CodeOwners(text: "/Sources/*/View?.swift @ui\n/Tests/**/Snapshots/ @qa\n/Vendor/** @vendor\n")
        #expect(file.owners(of: "Sources/App/View1.swift") == ["@ui"])
        #expect(file.owners(of: "Sources/App/Sub/View1.swift") == [])
        #expect(file.owners(of: "Sources/App/View12.swift") == [])
        #expect(file.owners(of: "Tests/Snapshots/a.png") == ["@qa"])
        #expect(file.owners(of: "Tests/UI/Deep/Snapshots/a.png") == ["@qa"])
        #expect(file.owners(of: "Vendor/lib/a.c") == ["@vendor"])
        #expect(file.owners(of: "Vendor") == [])
        // Paths are case-sensitive, as on GitHub.
        #expect(file.owners(of: "sources/App/View1.swift") == [])
    }

    @Test func malformedLinesAreReportedWithTheirNumbersAndSkipped() {
        let file = CodeOwners(text: "* @all\n!*.md @docs\n*.swift not-an-owner\n[Dd]ocs/ @docs\n*.swift @ios-team\n", file: "CODEOWNERS")
        #expect(file.problems.map(\.line) == [2, 3, 4])
        #expect(file.problems[1].description == "CODEOWNERS:3: \"not-an-owner\" is not an owner (expected @user, @org/team or an email address); the line is ignored")
        #expect(file.owners(of: "App.swift") == ["@ios-team"])
        #expect(file.owners(of: "README.md") == ["@all"])
    }

    @Test func githubUsesTheFirstFileInItsSearchOrder() {
        #expect(CodeOwners.governingFile(among: ["CODEOWNERS", "docs/CODEOWNERS", ".github/CODEOWNERS"]) == ".github/CODEOWNERS")
        #expect(CodeOwners.governingFile(among: ["docs/CODEOWNERS", "CODEOWNERS"]) == "CODEOWNERS")
        #expect(CodeOwners.governingFile(among: ["docs/CODEOWNERS", "src/CODEOWNERS"]) == "docs/CODEOWNERS")
        #expect(CodeOwners.governingFile(among: ["src/CODEOWNERS", "App.swift"]) == nil)
    }

    @Test func windowsLineEndingsAndOddWhitespaceAreTolerated() {
        let file = CodeOwners(text: "*.swift\t@ios   @org/a11y \r\n  \r\n")
        #expect(file.problems.isEmpty)
        #expect(file.owners(of: "A.swift") == ["@ios", "@org/a11y"])
    }
}
