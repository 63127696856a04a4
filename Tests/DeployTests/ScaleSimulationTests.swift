import DatabaseTestSupport
import Foundation
import Testing

/// docs/scaling.md's commands on a small organisation: the generator script, then each scale
/// benchmark against what it generated. (The 10,000-repository numbers in the doc come from the
/// same commands with the default sizes.)
@Suite struct ScaleSimulationTests {
    static var root: String { TestDatabase.repositoryRoot }

    /// Runs a program with DATABASE_URL set to the test database; returns status and output.
    func run(_ executable: String, _ arguments: [String], database: TestDatabase,
             environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        var variables = ProcessInfo.processInfo.environment
        variables["DATABASE_URL"] = database.settings.conninfo
        for (key, value) in environment { variables[key] = value }
        return try ChildProcess.run(executable, arguments, environment: variables)
    }

    @Test func theScalingDocsCommandsRunOnASmallOrganisation() throws {
        let binary = Deploy.executable
        let bench = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("a11y-audit-bench").path
        try #require(FileManager.default.isExecutableFile(atPath: bench), "a11y-audit-bench is built beside \(binary)")
        let doc = try String(contentsOfFile: Self.root + "/docs/scaling.md", encoding: .utf8)
        for command in ["deploy/sim/run.sh --repos 10000 --teams 40 --nights 90", "--only dashboard-sql --explain",
                        "--only sim-render --out", "--only sim-night"] {
            #expect(doc.contains(command), "docs/scaling.md shows \(command)")
        }
        try TestDatabase.with(migrated: false) { database in
            let generated = try run(Self.root + "/deploy/sim/run.sh", ["--repos", "24", "--teams", "3", "--nights", "5"],
                                    database: database, environment: ["A11Y_AUDIT": binary])
            try #require(generated.status == 0, "\(generated.output)")
            #expect(generated.output.contains("generated 24 repositories x 5 nights"))
            #expect(generated.output.contains("job_summary_counts"))
            // What it generated is what the write path would have left: roll-ups and all.
            try RollupConsistency.check(database.connect())
            // A second generation into the same database is refused, not doubled.
            let again = try run(Self.root + "/deploy/sim/run.sh", ["--repos", "24"], database: database, environment: ["A11Y_AUDIT": binary])
            #expect(again.status == 2 && again.output.contains("already has repositories"))

            let queries = try run(bench, ["--only", "dashboard-sql", "--rounds", "1", "--explain"], database: database)
            try #require(queries.status == 0, "\(queries.output)")
            #expect(queries.output.contains("Dashboard queries on 24 repositories x 5 runs"))
            for row in ["| overview | trend, organisation | 5 |", "| team | trend, team | 5 |", "| repository | trend, repository | 5 |",
                        "| every page | all repositories | 24 |"] {
                #expect(queries.output.contains(row), "\(row) in \(queries.output)")
            }
            #expect(queries.output.contains("Query Text:"), "plans from auto_explain")

            let site = FileManager.default.temporaryDirectory.appendingPathComponent("sim-site-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: site) }
            let render = try run(bench, ["--only", "sim-render", "--out", site], database: database,
                                 environment: ["A11Y_AUDIT_WEB": Self.root + "/Web"])
            try #require(render.status == 0, "\(render.output)")
            for row in ["| full, empty folder |", "| the first job of a new night |", "| 22 jobs of the night, one batch |", "| one more job of the night |"] {
                #expect(render.output.contains(row), "\(row) in \(render.output)")
            }
            #expect(FileManager.default.fileExists(atPath: site + "/index.html"))

            let night = try run(bench, ["--only", "sim-night"], database: database)
            try #require(night.status == 0, "\(night.output)")
            #expect(night.output.contains("One more night of 24 repositories"))
            #expect(night.output.contains("| findings |"))
            // A night through the real write path on top of the generated history keeps them true.
            try RollupConsistency.check(database.connect())
        }
    }
}
