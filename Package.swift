// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The toolchain's own SwiftSyntax/SwiftParser live in `<toolchain>/usr/lib/swift/host`.
/// No outside package can be fetched here, so we link those prebuilt libraries directly.
/// The path is found beside the `swift` on PATH; `A11Y_SWIFT_HOST` overrides it.
func swiftHostLibraryPath() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["A11Y_SWIFT_HOST"], !override.isEmpty { return override }
    let fileManager = FileManager.default
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
        guard fileManager.isExecutableFile(atPath: candidate.path) else { continue }
        let binary = candidate.resolvingSymlinksInPath()            // <toolchain>/usr/bin/swift
        let host = binary.deletingLastPathComponent()                // <toolchain>/usr/bin
            .deletingLastPathComponent()                             // <toolchain>/usr
            .appendingPathComponent("lib/swift/host")
        if fileManager.fileExists(atPath: host.appendingPathComponent("SwiftParser.swiftmodule").path) {
            return host.path
        }
    }
    return "/opt/swift/usr/lib/swift/host"
}

let host = swiftHostLibraryPath()
let importSyntax: [SwiftSetting] = [.unsafeFlags(["-I", host])]
let linkSyntax: [LinkerSetting] = [
    .unsafeFlags(["-L", host, "-lSwiftParser", "-lSwiftSyntax", "-lSwiftDiagnostics",
                  "-lSwiftParserDiagnostics", "-Xlinker", "-rpath", "-Xlinker", host]),
]

let package = Package(
    name: "a11y-audit",
    products: [
        // The one shipped product. `a11y-audit-bench` is a development tool (it drives the
        // test-only fake GitHub), built with the package (`swift build`) but not offered as a product.
        .executable(name: "a11y-audit", targets: ["a11y-audit"]),
    ],
    targets: [
        // C libraries from Debian, as system-library targets.
        .systemLibrary(name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CProcess"),
        .systemLibrary(name: "CBytes"),

        // Pure core: findings, platforms, Apple's reference tables, configuration. No I/O but
        // reading its own bundled reference JSON.
        .target(
            name: "AuditModel",
            dependencies: ["CCrypto", "CBytes"],
            resources: [.copy("Reference")]
        ),
        // Pure Interface Builder model: storyboards and xibs parsed from bytes (XMLParser, no DTDs,
        // bounded), with each element's line, the runtime's platform, frames, fonts, accessibility.
        .target(
            name: "InterfaceBuilder",
            dependencies: ["AuditModel"]
        ),
        // Pure checks over one Swift file's syntax tree, and over Interface Builder documents: the rule catalog.
        .target(
            name: "SwiftChecks",
            dependencies: ["AuditModel", "ColorAssets", "InterfaceBuilder"],
            swiftSettings: importSyntax,
            linkerSettings: linkSyntax
        ),
        // Pure colour-asset model: colour sets and catalogs parsed from bytes, colour spaces,
        // Apple's system colours and the contrast formulas, all from the bundled reference JSON.
        .target(
            name: "ColorAssets",
            dependencies: ["AuditModel"]
        ),
        // Mechanical fixes: findings' edits applied to a file's bytes, refused where they overlap
        // or leave the file unparsable, the unified diff of each change (pure), and the writer
        // that replaces a file whole.
        .target(
            name: "AuditFix",
            dependencies: ["AuditModel"],
            swiftSettings: importSyntax,
            linkerSettings: linkSyntax
        ),
        // I/O edge for scanning: directories, archives, the cache, Dispatch over files.
        .target(
            name: "AuditScanner",
            dependencies: ["AuditModel", "SwiftChecks", "ColorAssets", "CLibArchive"],
            swiftSettings: importSyntax
        ),
        // Text, JSON and SARIF renderings of a scan.
        .target(
            name: "AuditReport",
            dependencies: ["AuditModel", "AuditScanner", "SwiftChecks"],
            swiftSettings: importSyntax
        ),
        // I/O edge: a thin typed layer over libpq.
        .target(name: "PostgresClient", dependencies: ["CPostgres"]),
        // Pure: the organisation config (teams, repositories, schedule, limits) and cron.
        .target(name: "OrgModel", dependencies: ["AuditModel"]),
        // Pure: a pull request's findings against its base, the gate's verdict, the report's path.
        .target(name: "PullRequestVerdict", dependencies: ["AuditModel"]),
        // Storage, the only module that speaks SQL: migrations, the queue (a state machine), runs
        // and history, pull-request checks, the organisation, the file cache, webhook deliveries,
        // and the read models of the dashboard and the server.
        .target(name: "AuditStore", dependencies: ["AuditModel", "OrgModel", "PostgresClient", "PullRequestVerdict"],
                swiftSettings: importSyntax),
        // The pipeline: the coordinator schedules runs; workers claim jobs, fetch archives, audit them, write results.
        .target(name: "AuditPipeline", dependencies: ["AuditModel", "AuditScanner", "AuditStore", "PostgresClient", "OrgModel",
                                                      "ArchiveFetch", "GitHubClient", "CProcess", "PullRequestVerdict"],
                swiftSettings: importSyntax),
        // A small HTTP server over libmicrohttpd (webhooks, dashboard, and test servers).
        .target(
            name: "HTTPServer",
            dependencies: ["CMicroHTTPD", "HTTPFields"]
        ),
        // The shared libcurl request layer: one request, its response headers and body, size cap,
        // TLS always verified; backoff and URL redaction shared by every HTTP client here.
        // Header fields in order, looked up without case: one type for the client and the server.
        .target(name: "HTTPFields"),
        // One argument grammar for every subcommand (flags, `--flag=value`, help, did-you-mean).
        .target(name: "CommandLineOptions"),
        .target(name: "CurlHTTP", dependencies: ["CCurl", "HTTPFields"]),
        // The dashboard's server: the rendered site (validators, gzip, no traversal), /healthz,
        // /metrics, the JSON API and admin endpoints, over HTTPServer and PostgreSQL.
        .target(
            name: "DashboardServer",
            dependencies: ["HTTPServer", "PostgresClient", "AuditStore", "AuditModel", "CCrypto", "CZlib"],
            swiftSettings: importSyntax
        ),
        // Downloads repository archives with libcurl (GitHub, GitLab, any https or file URL).
        .target(
            name: "ArchiveFetch",
            dependencies: ["CurlHTTP"]
        ),
        // GitHub webhooks: signature check, delivery records, pull-request jobs.
        .target(name: "Webhooks", dependencies: ["AuditModel", "AuditStore", "OrgModel", "PostgresClient", "PullRequestVerdict"],
                swiftSettings: importSyntax),
        // The dashboard: static HTML pages rendered from the database (pure rendering over queries).
        .target(name: "Dashboard", dependencies: ["AuditModel", "AuditStore", "PostgresClient", "PullRequestVerdict", "SwiftChecks"],
                swiftSettings: importSyntax),
        // GitHub's REST API: organisation repositories, commit statuses, check runs; rate limits honoured.
        .target(name: "GitHubClient", dependencies: ["CurlHTTP"]),
        .executableTarget(
            name: "a11y-audit",
            dependencies: ["AuditModel", "AuditFix", "ColorAssets", "SwiftChecks", "AuditScanner", "AuditReport", "OrgModel",
                           "PostgresClient", "AuditStore", "AuditPipeline", "ArchiveFetch", "Dashboard", "GitHubClient",
                           "DashboardServer", "HTTPServer", "Webhooks", "CommandLineOptions"],
            swiftSettings: importSyntax
        ),
        .executableTarget(
            name: "a11y-audit-bench",
            dependencies: ["AuditModel", "SwiftChecks", "AuditScanner", "AuditStore", "PostgresClient", "HistorySimulation", "Dashboard",
                           "AuditPipeline", "CurlHTTP", "DashboardServer", "FakeGitHub", "GitHubClient", "HTTPServer", "OrgModel", "Webhooks"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "SwiftChecksTests",
            dependencies: ["AuditModel", "AuditFix", "SwiftChecks", "ColorAssets", "InterfaceBuilder"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "AuditScannerTests",
            dependencies: ["AuditModel", "AuditFix", "SwiftChecks", "AuditScanner", "AuditReport"],
            swiftSettings: importSyntax
        ),
        // Generated organisation histories written through the real tables (tests, benchmarks, simulation).
        .target(name: "HistorySimulation", dependencies: ["AuditModel", "AuditStore", "OrgModel", "PostgresClient", "PullRequestVerdict"],
                swiftSettings: importSyntax),
        // Test support: a libcurl client that sends requests exactly as written.
        .target(name: "HTTPTestSupport", dependencies: ["CCurl"], path: "Tests/HTTPTestSupport"),
        // Test support: a fresh migrated database per test on the server DATABASE_URL names.
        .target(name: "DatabaseTestSupport", dependencies: ["PostgresClient", "AuditStore"],
                path: "Tests/DatabaseTestSupport",
                swiftSettings: importSyntax),
        .testTarget(
            name: "AuditStoreTests",
            dependencies: ["AuditModel", "OrgModel", "PostgresClient", "AuditStore", "DatabaseTestSupport"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "AuditPipelineTests",
            dependencies: ["AuditModel", "OrgModel", "PostgresClient", "AuditStore", "AuditPipeline", "AuditScanner",
                           "DatabaseTestSupport", "HTTPServer", "ArchiveFetch", "FakeGitHub", "GitHubClient", "Webhooks"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "HTTPTestSupport"]
        ),
        // Test support: a fake GitHub REST API on loopback, speaking GitHub's wire format and
        // recording every request.
        .target(name: "FakeGitHub", dependencies: ["HTTPServer"], path: "Tests/FakeGitHub"),
        .testTarget(
            name: "GitHubClientTests",
            dependencies: ["GitHubClient", "CurlHTTP", "FakeGitHub", "HTTPServer"]
        ),
        .testTarget(
            name: "ArchiveFetchTests",
            dependencies: ["ArchiveFetch", "HTTPServer"]
        ),
        .testTarget(
            name: "AuditFixTests",
            dependencies: ["AuditFix", "AuditModel"]
        ),
        .testTarget(
            name: "AuditModelTests",
            dependencies: ["AuditModel"]
        ),
        .testTarget(
            name: "CommandLineOptionsTests",
            dependencies: ["CommandLineOptions"]
        ),
        .testTarget(
            name: "InterfaceBuilderTests",
            dependencies: ["AuditModel", "InterfaceBuilder"]
        ),
        .testTarget(name: "OrgModelTests", dependencies: ["OrgModel"]),
        .testTarget(name: "PullRequestVerdictTests", dependencies: ["AuditModel", "PullRequestVerdict"]),
        // deploy/ parsed and cross-checked (no container engine or systemd runs here).
        .testTarget(name: "DeployTests", dependencies: ["OrgModel", "DatabaseTestSupport"], swiftSettings: importSyntax),
        // libpq's errors without secrets, in the library and in the real binary's output.
        .testTarget(
            name: "PostgresClientTests",
            dependencies: ["PostgresClient", "DatabaseTestSupport", "HTTPTestSupport"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "WebhookTests",
            dependencies: ["AuditModel", "AuditStore", "DatabaseTestSupport", "OrgModel", "PostgresClient", "Webhooks"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "DashboardTests",
            dependencies: ["AuditModel", "AuditStore", "Dashboard", "DatabaseTestSupport", "PostgresClient", "HistorySimulation", "OrgModel", "PullRequestVerdict", "SwiftChecks"],
            swiftSettings: importSyntax
        ),
        .testTarget(
            name: "DashboardServerTests",
            dependencies: ["DashboardServer", "HTTPServer", "HTTPTestSupport", "PostgresClient", "AuditStore", "AuditModel", "ColorAssets",
                           "DatabaseTestSupport", "OrgModel"],
            swiftSettings: importSyntax
        ),
        // Serves a fixture site with `a11y-audit serve` and runs Tests/browser/check_site.py
        // (chromium, selenium, axe-core) against it.
        .testTarget(name: "DashboardBrowserTests", dependencies: ["Dashboard", "DatabaseTestSupport", "HistorySimulation"],
                    swiftSettings: importSyntax),
        .testTarget(
            name: "ColorAssetsTests",
            dependencies: ["AuditModel", "ColorAssets"],
            swiftSettings: importSyntax
        ),
    ]
)
