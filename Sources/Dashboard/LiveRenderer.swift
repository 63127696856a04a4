import AuditStore
import Foundation
import PostgresClient
import Synchronization

/// Keeps a rendered site current: renders it whole at start, then re-renders the pages a job
/// changed each time the job queue announces one finished (LISTEN `a11y_audit_done`). A lost
/// connection is re-opened and answered with a whole render, since notifications may have been
/// missed meanwhile.
public final class LiveRenderer: Sendable {
    let settings: ConnectionSettings
    let output: String
    let webDirectory: String
    let log: @Sendable (String) -> Void
    private let stopped = Mutex(false)

    public init(settings: ConnectionSettings, output: String, webDirectory: String = SiteRenderer.defaultWebDirectory(),
                log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.output = output
        self.webDirectory = webDirectory
        self.log = log
    }

    public func stop() { stopped.withLock { $0 = true } }
    private var isStopped: Bool { stopped.withLock { $0 } }

    public func run() {
        while !isStopped {
            do {
                let connection = try PostgresConnection(settings)
                try connection.listen(JobQueue.doneChannel)
                let started = Date()
                // One renderer for the session: it remembers what it rendered last (the newest run).
                let renderer = try SiteRenderer(connection: connection, output: output, webDirectory: webDirectory,
                                                parallel: (settings, ProcessInfo.processInfo.activeProcessorCount))
                let summary = try renderer.renderAll()
                log("rendered \(summary.pages) pages (\(summary.written) written) in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
                while !isStopped {
                    var jobs = Set<Int>()
                    for notification in try connection.waitForNotifications(timeout: 0.5) {
                        if notification.payload.hasPrefix("job:"), let id = Int(notification.payload.dropFirst(4)) { jobs.insert(id) }
                    }
                    guard !jobs.isEmpty else { continue }
                    // Jobs finishing together are rendered together.
                    for notification in try connection.waitForNotifications(timeout: 0.05) {
                        if notification.payload.hasPrefix("job:"), let id = Int(notification.payload.dropFirst(4)) { jobs.insert(id) }
                    }
                    let started = Date()
                    let written = try renderer.renderAfterJobs(jobs.sorted()).written
                    log("re-rendered after \(jobs.count) finished job(s): \(written) pages written in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
                }
            } catch RenderError.noOrganisation {
                Thread.sleep(forTimeInterval: 2)
            } catch {
                log("render error: \(error)")
                Thread.sleep(forTimeInterval: 2)
            }
        }
    }
}
