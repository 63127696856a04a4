import Foundation
import PostgresClient

extension JobQueue {
    /// The queue as the audit uses it: a finished job settles its run (finished and rolled up
    /// with its last job) and its pull-request check (a verdict that will never come says so).
    public init(connection: PostgresConnection, policy: QueuePolicy = QueuePolicy()) {
        self.init(connection: connection, policy: policy, finishedHooks: [RunLedger.jobsFinished, PullRequestStore.jobsFinished])
    }
}
