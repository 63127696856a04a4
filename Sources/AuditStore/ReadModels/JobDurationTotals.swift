import Foundation
import PostgresClient
import Synchronization

/// The job-duration histogram's running totals for one server process. Summaries written more
/// than `settleSeconds` ago are counted once and kept here; newer ones, whose transactions may
/// still be committing, are counted afresh at each scrape. A scrape so reads the last minutes
/// of summaries instead of the whole retained history (900,000 summaries took 460 ms to count,
/// docs/scaling.md). The totals only grow, as Prometheus counters should: a summary removed by
/// retention after it was counted stays counted.
public final class JobDurationTotals: Sendable {
    public struct Phase: Equatable, Sendable {
        public var buckets: [Int]
        public var count = 0
        public var milliseconds = 0
        public init(bounds: Int) { buckets = Array(repeating: 0, count: bounds) }
        mutating func add(_ other: Phase) {
            for index in buckets.indices where index < other.buckets.count { buckets[index] += other.buckets[index] }
            count += other.count
            milliseconds += other.milliseconds
        }
    }

    public static let phases = ["fetch", "scan", "write", "total"]
    /// Far longer than a completing transaction takes between writing its summary and committing.
    let settleSeconds: Double
    private struct Settled {
        var before: String?
        var totals: [String: Phase] = [:]
    }
    /// Held for the whole of a scrape: two scrapes at once would count the same summaries twice.
    private let settled = Mutex(Settled())

    public init(settleSeconds: Double = 600) { self.settleSeconds = settleSeconds }

    public func read(_ connection: PostgresConnection, bounds: [Double]) throws -> [String: Phase] {
        try settled.withLock { settled in try read(connection, bounds: bounds, settled: &settled) }
    }

    private func read(_ connection: PostgresConnection, bounds: [Double], settled state: inout Settled) throws -> [String: Phase] {
        let cut = try connection.query("SELECT (now() - make_interval(secs => $1))::text AS cut", [.double(settleSeconds)],
                                       purpose: "read the clock for /metrics").first?.string("cut") ?? ""
        let newlySettled = try count(connection, bounds: bounds, from: state.before, to: cut)
        var totals = state.totals
        for (phase, value) in newlySettled { totals[phase, default: Phase(bounds: bounds.count)].add(value) }
        state.totals = totals
        state.before = cut
        for (phase, value) in try count(connection, bounds: bounds, from: cut, to: nil) {
            totals[phase, default: Phase(bounds: bounds.count)].add(value)
        }
        return totals
    }

    /// Summaries written in [from, to): the index on job_summaries (created_at) finds them.
    private func count(_ connection: PostgresConnection, bounds: [Double], from: String?, to: String?) throws -> [String: Phase] {
        let bucketColumns = bounds.indices.map { "count(*) FILTER (WHERE ms <= $\($0 + 3)::float8 * 1000) AS b\($0)" }
            .joined(separator: ", ")
        let rows = try connection.query("""
            WITH recent AS (SELECT fetch_ms, scan_ms, write_ms FROM job_summaries
                            WHERE ($1::timestamptz IS NULL OR created_at >= $1) AND ($2::timestamptz IS NULL OR created_at < $2))
            SELECT phase, count(*) AS n, coalesce(sum(ms), 0) AS total_ms, \(bucketColumns)
            FROM (SELECT 'fetch' AS phase, fetch_ms AS ms FROM recent
                  UNION ALL SELECT 'scan', scan_ms FROM recent
                  UNION ALL SELECT 'write', write_ms FROM recent
                  UNION ALL SELECT 'total', fetch_ms + scan_ms + write_ms FROM recent) AS phases
            GROUP BY phase
            """, [.optional(from), .optional(to)] + bounds.map { .double($0) }, purpose: "read job durations for /metrics")
        var phases: [String: Phase] = [:]
        for row in rows {
            guard let phase = row.string("phase") else { continue }
            var value = Phase(bounds: bounds.count)
            value.buckets = bounds.indices.map { row.int("b\($0)") ?? 0 }
            value.count = row.int("n") ?? 0
            value.milliseconds = row.int("total_ms") ?? 0
            phases[phase] = value
        }
        return phases
    }
}
