import AuditModel
import Foundation
import PostgresClient

/// The `/metrics` read model: what the organisation has open, what webhooks brought, how the
/// latest runs ended. The server renders it as Prometheus text.
extension DashboardQueries {
    public struct OpenFindingCount: Sendable, Equatable {
        public var org: String
        public var severity: String
        public var kind: String
        public var count: Int
    }

    public func openFindingCounts() throws -> [OpenFindingCount] {
        try connection.query("""
            SELECT r.org, o.severity, o.kind, sum(o.open_count) AS n
            FROM repository_open_counts o JOIN repositories r ON r.id = o.repository_id
            GROUP BY r.org, o.severity, o.kind ORDER BY 1, 2, 3
            """, purpose: "count open findings for /metrics").map { row in
            OpenFindingCount(org: row.string("org") ?? "", severity: row.string("severity") ?? "", kind: row.string("kind") ?? "",
                             count: row.int("n") ?? 0)
        }
    }

    public struct DeliveryCount: Sendable, Equatable {
        public var event: String
        public var outcome: String
        public var count: Int
    }

    /// Webhook deliveries by event and outcome (the rows kept within the retention period).
    public func deliveryCounts() throws -> [DeliveryCount] {
        try connection.query("""
            SELECT event, outcome, count(*) AS n FROM webhook_deliveries GROUP BY event, outcome ORDER BY 1, 2
            """, purpose: "count webhook deliveries for /metrics").map { row in
            DeliveryCount(event: row.string("event") ?? "", outcome: row.string("outcome") ?? "", count: row.int("n") ?? 0)
        }
    }

    public struct LatestRun: Sendable, Equatable {
        public var org: String
        /// When the organisation's most recent finished run ended (Unix time); nil: none finished.
        public var lastFinished: Double?
        /// The state of its most recent run.
        public var state: RunState
    }

    public func latestRuns() throws -> [LatestRun] {
        try connection.query("""
            SELECT org, extract(epoch FROM max(finished_at))::float8 AS finished,
                   (SELECT state FROM runs latest WHERE latest.org = runs.org ORDER BY created_at DESC, id DESC LIMIT 1) AS state
            FROM runs GROUP BY org ORDER BY org
            """, purpose: "read the latest runs for /metrics").map { row in
            LatestRun(org: row.string("org") ?? "", lastFinished: row.double("finished"), state: row.string("state").flatMap(RunState.init(rawValue:)) ?? .running)
        }
    }
}
