import AuditPipeline
import AuditStore
import DatabaseTestSupport
import FakeGitHub
import Foundation
import OrgModel
import PostgresClient
import Testing

@Suite(.serialized) struct CoordinatorTests {
    @Test func twoCoordinatorDaemonsScheduleTonightsRunOnce() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let configPath = try workspace.writeConfig([("acme/one", app), ("acme/two", app)])
            // Fires every minute: the latest fire time is always within the catch-up window.
            var text = try String(contentsOfFile: configPath, encoding: .utf8)
            text = text.replacingOccurrences(of: "0 2 * * *", with: "* * * * *")
            try text.write(toFile: configPath, atomically: true, encoding: .utf8)

            let coordinators = (0..<2).map { _ in Coordinator(configPath: configPath, database: database.settings, log: .silent) }
            let stopped = DispatchGroup()
            for coordinator in coordinators {
                stopped.enter()
                Thread { try? coordinator.run(tick: 0.2); stopped.leave() }.start()
            }
            let connection = try database.connect()
            try waitFor("a run") { try value(connection, "SELECT count(*) FROM runs") == "1" }
            Thread.sleep(forTimeInterval: 1)
            coordinators.forEach { $0.stop() }
            #expect(stopped.wait(timeout: .now() + 10) == .success)
            let today = CronSchedule.localDate(of: Date(), in: TimeZone(identifier: "UTC")!)
            let runs = try connection.query("SELECT run_date::text AS date, kind, jobs_total FROM runs", purpose: "read")
            #expect(runs.count == 1)
            #expect(runs.first?.string("kind") == "nightly" && runs.first?.int("jobs_total") == 2)
            // Around midnight UTC the latest fire time may belong to yesterday.
            #expect([today, CronSchedule.localDate(of: Date().addingTimeInterval(-120), in: TimeZone(identifier: "UTC")!)]
                        .contains(runs.first?.string("date") ?? ""))
            #expect(try value(connection, "SELECT count(*) FROM jobs") == "2")
        }
    }

    @Test func statusAndCancelRefuseIDsThatAreNotWholeNumbersFromOne() throws {
        try TestDatabase.with { database in
            func cli(_ arguments: [String]) throws -> (status: Int32, output: String) {
                try ChildProcess.run(Executable.path, arguments, environment: ["DATABASE_URL": database.settings.conninfo])
            }
            for run in ["abc", "0", "-1", "\u{FF11}", "1.5"] {
                let status = try cli(["status", "--run", run])
                #expect(status.status == 2 && status.output.contains("--run needs a whole number of at least 1"), "--run \(run): \(status.output)")
            }
            for job in ["abc", "0", "\u{0663}"] {
                let cancel = try cli(["cancel", job])
                #expect(cancel.status == 2 && cancel.output.contains("cancel needs a job id"), "cancel \(job): \(cancel.output)")
            }
            #expect(try cli(["status", "--run", "7"]).output.contains("no run 7"))
        }
    }

    @Test func theCommandLineMigratesSchedulesAndReports() throws {
        try TestDatabase.with(migrated: false) { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let config = try workspace.writeConfig([("acme/app", app)])
            func cli(_ arguments: [String]) throws -> (status: Int32, output: String) {
                try ChildProcess.run(Executable.path, arguments, environment: ["DATABASE_URL": database.settings.conninfo])
            }
            #expect(try cli(["migrate", "--migrations", TestDatabase.migrationsDirectory]).output.contains("applied 0001_initial.sql"))
            #expect(try cli(["migrate", "--migrations", TestDatabase.migrationsDirectory]).output.contains("schema is current"))
            #expect(try cli(["schedule", "--config", config, "--date", "2026-11-30"]).output.contains("scheduled run"))
            let again = try cli(["schedule", "--config", config, "--date", "2026-11-30"])
            #expect(again.status == 0 && again.output.contains("already scheduled"))
            let worker = try cli(["worker", "--until-idle", "--poll", "0.1", "--work-dir", workspace.workDirectory])
            #expect(worker.status == 0)
            let status = try cli(["status"])
            #expect(status.output.contains("run 1 (acme nightly 2026-11-30): succeeded"))
            #expect(status.output.contains("acme/app: succeeded"))
            let badDate = try cli(["schedule", "--config", config, "--date", "tomorrow"])
            #expect(badDate.status == 2)
            let missing = try cli(["schedule", "--config", workspace.root + "/nope.json", "--now"])
            #expect(missing.status == 2)
        }
    }
}

@Suite struct DiscoveryTests {
    /// Every repository of the organisation through the REST API (paginated), filtered by the
    /// config's include/exclude patterns; archived repositories and forks only when asked.
    @Test func discoveryListsTheOrganisationThroughTheAPIAndFilters() throws {
        let github = try FakeGitHub(token: "discovery-token")
        var repositories = (0..<230).map { FakeRepository(name: "app-\($0)-ios", defaultBranch: $0 == 7 ? "develop" : "main") }
        repositories.append(FakeRepository(name: "old-ios", archived: true))
        repositories.append(FakeRepository(name: "fork-ios", fork: true))
        repositories.append(FakeRepository(name: "backend"))
        repositories.append(FakeRepository(name: "app-demo-ios"))
        _ = github.addOrganization("acme", repositories: repositories)
        var config = OrgConfig(org: "acme", teams: [.init(name: "Mobile")], repositories: [])
        config.providers = OrgConfig.Providers(github: .init(api: github.apiBaseURL, tokenEnvironment: "ACME_TOKEN"))
        config.discovery = OrgConfig.Discovery(githubOrg: "acme", team: "Mobile", include: ["*-ios"], exclude: ["*-demo-*"],
                                               includeArchived: nil, includeForks: nil)
        let found = try GitHubDiscovery(environment: ["ACME_TOKEN": "discovery-token"]).repositories(for: config)
        #expect(found.count == 230, "230 apps over 3 pages; archived, fork, backend and demo left out")
        #expect(found.allSatisfy { $0.team == "Mobile" && $0.resolvedProvider == .github })
        #expect(found.first { $0.name == "acme/app-7-ios" }?.branch == "develop", "each repository's own default branch")
        #expect(github.requests("GET", "/orgs/acme/repos").count + github.requests("GET", "/organizations/").count >= 3)

        config.discovery?.includeArchived = true
        config.discovery?.includeForks = true
        #expect(try GitHubDiscovery(environment: ["ACME_TOKEN": "discovery-token"]).repositories(for: config).count == 232)
        #expect(throws: (any Error).self) { try GitHubDiscovery(environment: [:]).repositories(for: config) }
    }
}
