import AuditStore
import Foundation
import OrgModel
import PostgresClient
import Synchronization

/// Schedules nightly runs from the org config: `a11y-audit coordinator` (a daemon) and
/// `a11y-audit schedule --now` (once, for cron or systemd timers). Scheduling is idempotent in the
/// database, so several coordinators can run for availability without double work.
public final class Coordinator: Sendable {
    public let configPath: String
    public let database: ConnectionSettings
    let log: WorkerLog
    /// Discovered repositories (GitHub organisation listing), merged with the config's own.
    let discover: (@Sendable (OrgConfig) throws -> [OrgConfig.Repository])?
    private let stopped = Atomic<Bool>(false)

    public init(configPath: String, database: ConnectionSettings, log: WorkerLog = WorkerLog(),
                discover: (@Sendable (OrgConfig) throws -> [OrgConfig.Repository])? = nil) {
        self.configPath = configPath
        self.database = database
        self.log = log
        self.discover = discover
    }

    public func stop() { stopped.store(true, ordering: .releasing) }
    private var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Saves the config's teams and repositories, then schedules the run of `date` (default: today
    /// in the schedule's time zone).
    public func scheduleNow(date: String? = nil, kind: JobKind = .nightly, connection existing: PostgresConnection? = nil) throws -> ScheduleOutcome {
        let config = try OrgConfig.load(path: configPath)
        let connection = try existing ?? PostgresConnection(database)
        let discovered = try discover?(config) ?? []
        let store = OrgStore(connection: connection)
        try store.sync(config, discovered: discovered)
        let night = date ?? CronSchedule.localDate(of: Date(), in: config.timeZone)
        let outcome = try store.scheduleRun(config, date: night, kind: kind, createdBy: WorkerOptions.defaultName()) { repository, ref in
            config.archiveURL(for: repository, ref: ref)
        }
        switch outcome {
        case .created(let run, let jobs):
            log.event("run.scheduled", [("org", config.org), ("date", night), ("run", run), ("jobs", jobs), ("kind", kind.rawValue)])
        case .alreadyScheduled(let run):
            log.event("run.exists", [("org", config.org), ("date", night), ("run", run)])
        }
        return outcome
    }

    /// Runs until `stop()`: at each time the cron expression names, schedules that night's run
    /// (catching up on a fire time missed within the last `catchUp` seconds, e.g. after a
    /// restart); rescues expired leases and applies retention along the way. Re-reads the
    /// config at every wake-up, so edits need no restart.
    public func run(tick: TimeInterval = 30, catchUp: TimeInterval = 6 * 3600) throws {
        var connection = try PostgresConnection(database)
        var scheduledDates = Set<String>()
        var lastHousekeeping = Date.distantPast
        log.event("coordinator.started", [("config", configPath), ("database", database.redactedTarget)])
        while !isStopped {
            do {
                if !connection.isConnected { try connection.reconnect() }
                let config = try OrgConfig.load(path: configPath)
                guard let schedule = config.schedule else {
                    throw OrgConfigError.badValue(file: configPath, path: "schedule", reason: "the coordinator needs a schedule (cron and time zone)")
                }
                let cron = try CronSchedule(schedule.cron)
                let now = Date()
                // The latest fire time at or before now, if within the catch-up window.
                if let fire = cron.nextFire(after: now.addingTimeInterval(-catchUp), in: config.timeZone), fire <= now {
                    var latest = fire
                    while let next = cron.nextFire(after: latest, in: config.timeZone), next <= now { latest = next }
                    let date = CronSchedule.localDate(of: latest, in: config.timeZone)
                    if !scheduledDates.contains(date) {
                        _ = try scheduleNow(date: date, connection: connection)
                        scheduledDates.insert(date)
                    }
                }
                if now.timeIntervalSince(lastHousekeeping) > 3600 {
                    lastHousekeeping = now
                    let rescued = try JobQueue(connection: connection).rescueExpiredLeases()
                    let removed = try OrgStore(connection: connection).applyRetention(org: config.org)
                    log.event("coordinator.housekeeping", [("rescued", rescued.count), ("runs_removed", removed)])
                }
                let next = cron.nextFire(after: now, in: config.timeZone) ?? now.addingTimeInterval(tick)
                sleep(until: min(next, now.addingTimeInterval(tick)))
            } catch let error as DatabaseError where error.isConnectionLoss {
                log.event("database.unreachable", .warn, [("error", error.description)])
                sleep(until: Date().addingTimeInterval(min(tick, 5)))
                if let fresh = try? PostgresConnection(database) { connection = fresh }
            } catch {
                log.event("coordinator.error", .error, [("error", "\(error)")])
                sleep(until: Date().addingTimeInterval(tick))
            }
        }
        log.event("coordinator.stopped", [])
    }

    private func sleep(until date: Date) {
        while !isStopped, Date() < date {
            Thread.sleep(forTimeInterval: min(0.25, max(0, date.timeIntervalSinceNow)))
        }
    }
}
