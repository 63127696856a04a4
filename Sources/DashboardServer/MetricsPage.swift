import AuditStore
import Foundation
import PostgresClient

/// `/metrics`: the queue, job durations, open findings, webhook deliveries and the latest runs
/// as Prometheus text.
enum MetricsPage {
    /// Job phase buckets in seconds: archive fetches and scans take from tens of milliseconds
    /// (a cached night of a small repository) to many minutes (a first scan of a large one).
    static let durationBounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800]

    static func render(_ connection: PostgresConnection, durations: JobDurationTotals) throws -> String {
        var text = PrometheusText()
        let queries = DashboardQueries(connection: connection)

        let depth = try JobQueue(connection: connection).depth()
        text.family("a11y_audit_jobs", .gauge, help: "Jobs in the queue by state.")
        for state in JobState.allCases {
            text.sample("a11y_audit_jobs", [("state", state.rawValue)], Double(depth[state] ?? 0))
        }

        let bounds = durationBounds
        let phases = try durations.read(connection, bounds: bounds)
        text.family("a11y_audit_job_duration_seconds", .histogram,
                    help: "Time jobs spent fetching the archive, scanning and writing results (phase=\"total\": all three), from job_summaries.")
        for phase in JobDurationTotals.phases {
            let totals = phases[phase] ?? JobDurationTotals.Phase(bounds: bounds.count)
            text.histogram("a11y_audit_job_duration_seconds", [("phase", phase)], bounds: bounds, bucketCounts: totals.buckets,
                           count: totals.count, sum: Double(totals.milliseconds) / 1000)
        }

        text.family("a11y_audit_open_findings", .gauge, help: "Open findings by organisation, severity and rule kind.")
        for count in try queries.openFindingCounts() {
            text.sample("a11y_audit_open_findings", [("org", count.org), ("severity", count.severity), ("kind", count.kind)],
                        Double(count.count))
        }

        text.family("a11y_audit_webhook_deliveries_total", .counter,
                    help: "Webhook deliveries received, by event and outcome (rows kept within the retention period).")
        for count in try queries.deliveryCounts() {
            text.sample("a11y_audit_webhook_deliveries_total", [("event", count.event), ("outcome", count.outcome)], Double(count.count))
        }

        let runs = try queries.latestRuns()
        text.family("a11y_audit_last_run_finished_timestamp_seconds", .gauge,
                    help: "When the organisation's most recent finished run ended (Unix time): alert when it grows old.")
        for run in runs {
            if let finished = run.lastFinished {
                text.sample("a11y_audit_last_run_finished_timestamp_seconds", [("org", run.org)], finished)
            }
        }
        text.family("a11y_audit_latest_run", .gauge, help: "1 for the state of the organisation's most recent run.")
        for run in runs {
            text.sample("a11y_audit_latest_run", [("org", run.org), ("state", run.state.rawValue)], 1)
        }
        return text.text
    }
}
