import Foundation
import OrgModel
import Testing

func parse(_ json: String) throws -> OrgConfig { try OrgConfig(data: Data(json.utf8), file: "org.json") }

let validConfig = """
    {
      "org": "acme",
      "teams": [ { "name": "Payments", "owners": ["@acme/payments"] }, { "name": "Design System" } ],
      "repositories": [
        { "name": "acme/checkout-ios", "team": "Payments" },
        { "name": "mobile/wallet", "team": "Payments", "provider": "gitlab", "defaultBranch": "develop" },
        { "name": "legacy", "team": "Design System", "archive": "https://archives.example/legacy-{ref}.tar.gz" }
      ],
      "providers": { "github": { "api": "https://ghe.example/api/v3/" } },
      "schedule": { "cron": "30 1 * * 1-5", "timeZone": "Europe/Berlin" },
      "limits": { "maxAttempts": 3 },
      "retentionDays": 90
    }
    """

@Suite struct OrgConfigTests {
    @Test func readsEveryKey() throws {
        let config = try parse(validConfig)
        #expect(config.org == "acme" && config.teams.count == 2 && config.repositories.count == 3)
        #expect(config.maxAttempts == 3 && config.retentionDays == 90)
        #expect(config.timeZone.identifier == "Europe/Berlin")
        #expect(config.repositories[1].branch == "develop" && config.repositories[0].branch == "main")
        #expect(config.repositories[2].resolvedProvider == .url && config.repositories[0].resolvedProvider == .github)
        #expect(OrgConfig.slug("Design System") == "design-system")
        #expect(OrgConfig.slug("  Ünïcode & Co.  ") == "unicode-co")
        #expect(OrgConfig.slug("Équipe Über") == "equipe-uber")
    }

    @Test func buildsArchiveURLsPerProvider() throws {
        let config = try parse(validConfig)
        #expect(config.archiveURL(for: config.repositories[0], ref: "main") == "https://ghe.example/api/v3/repos/acme/checkout-ios/tarball/main")
        #expect(config.archiveURL(for: config.repositories[1], ref: "feature/x")
                == "https://gitlab.com/api/v4/projects/mobile%2Fwallet/repository/archive.tar.gz?sha=feature%2Fx")
        #expect(config.archiveURL(for: config.repositories[2], ref: "v1.2") == "https://archives.example/legacy-v1.2.tar.gz")
    }

    @Test(arguments: [
        (#"{"org": "a", "teams": [], "repositories": [], "schedul": {}}"#, "unknown key schedul"),
        (#"{"org": "a", "teams": [{"name": "T", "owner": []}], "repositories": []}"#, "unknown key teams[0].owner"),
        (#"{"org": "a", "teams": [{"name": "T"}], "repositories": [{"name": "a/b", "team": "X"}]}"#, "repositories[0].team: \"X\" is not one of the teams"),
        (#"{"org": "a", "teams": [{"name": "T"}], "repositories": [{"name": "a/b", "team": "T"}, {"name": "a/b", "team": "T"}]}"#, "listed twice"),
        (#"{"org": "a", "teams": [{"name": "T"}], "repositories": [{"name": "plain", "team": "T"}]}"#, "owner/name"),
        (#"{"org": "a", "teams": [{"name": "T"}], "repositories": [{"name": "x", "team": "T", "archive": "ftp://x"}]}"#, "https://, http:// or file://"),
        (#"{"org": "a", "teams": [], "repositories": [], "schedule": {"cron": "61 * * * *"}}"#, "61 is outside 0-59"),
        (#"{"org": "a", "teams": [], "repositories": [], "schedule": {"cron": "0 2 * *"}}"#, "needs 5 fields"),
        (#"{"org": "a", "teams": [], "repositories": [], "schedule": {"cron": "@daily", "timeZone": "Mars/Olympus"}}"#, "not an IANA time zone"),
        (#"{"org": "a", "teams": [{"name": "A B"}, {"name": "a-b"}], "repositories": []}"#, "same URL name"),
        (#"{"org": "a", "teams": [], "repositories": [], "retentionDays": 0}"#, "retentionDays"),
        (#"{"org": "a", "teams": [], "repositories": [], "limits": {"maxAttempts": "3"}}"#, "limits.maxAttempts: expected an integer"),
        (#"{"teams": [], "repositories": []}"#, "org: is required"),
        (#"{"org": "a", "teams": [}"#, "not valid JSON"),
    ])
    func rejectsBadConfigsNamingTheKey(json: String, expected: String) {
        do {
            _ = try parse(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
            #expect("\(error)".hasPrefix("org.json: "))
        }
    }
}

@Suite struct CronScheduleTests {
    func date(_ text: String, _ zone: String = "UTC") -> Date {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = TimeZone(identifier: zone)
        return formatter.date(from: text)!
    }

    func next(_ cron: String, after: String, _ zone: String = "UTC") throws -> String? {
        let timeZone = try #require(TimeZone(identifier: zone))
        guard let fire = try CronSchedule(cron).nextFire(after: date(after, zone), in: timeZone) else { return nil }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm EEE"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        return formatter.string(from: fire)
    }

    @Test func nextFireTimes() throws {
        #expect(try next("0 2 * * *", after: "2026-11-30 01:59") == "2026-11-30 02:00 Mon")
        #expect(try next("0 2 * * *", after: "2026-11-30 02:00") == "2026-12-01 02:00 Tue", "strictly after")
        #expect(try next("30 1 * * 1-5", after: "2026-12-04 02:00") == "2026-12-07 01:30 Mon", "skips the weekend")
        #expect(try next("*/15 9-10 * * *", after: "2026-11-30 10:50") == "2026-12-01 09:00 Tue")
        #expect(try next("0 0 1 jan,jul *", after: "2026-02-01 00:00") == "2026-07-01 00:00 Wed")
        #expect(try next("0 12 13 * fri", after: "2026-11-01 00:00") == "2026-11-06 12:00 Fri", "day fields OR when both are set")
        #expect(try next("0 0 * * 7", after: "2026-11-30 00:00") == "2026-12-06 00:00 Sun", "7 is Sunday")
        #expect(try next("@hourly", after: "2026-11-30 10:05") == "2026-11-30 11:00 Mon")
        #expect(try next("0 0 31 2 *", after: "2026-01-01 00:00") == nil, "February 31st never comes")
    }

    @Test func daylightSavingTime() throws {
        // 2026-03-29 02:30 does not exist in Berlin (clocks jump from 02:00 to 03:00): skipped.
        #expect(try next("30 2 * * *", after: "2026-03-28 12:00", "Europe/Berlin") == "2026-03-30 02:30 Mon")
        // 2026-10-25 02:30 happens twice in Berlin: fires once.
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let cron = try CronSchedule("30 2 * * *")
        let first = try #require(cron.nextFire(after: date("2026-10-25 00:00", "Europe/Berlin"), in: zone))
        let second = try #require(cron.nextFire(after: first, in: zone))
        #expect(second.timeIntervalSince(first) > 20 * 3600)
        #expect(CronSchedule.localDate(of: first, in: zone) == "2026-10-25")
    }

    @Test func theRunDateIsTheLocalDate() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(CronSchedule.localDate(of: date("2026-11-30 20:00"), in: tokyo) == "2026-12-01")
    }
}
