import Foundation
import PostgresClient

extension JobQueue {
    /// Returns jobs whose lease expired (their worker died or hung) to the queue with a backoff,
    /// or marks them dead when no attempt is left. Safe to run from every worker at once: each
    /// takes the expired rows no other rescuer is changing.
    @discardableResult
    public func rescueExpiredLeases() throws -> [Int] {
        let rescued = try connection.transaction(purpose: "rescue jobs with expired leases") { connection in
            try apply(.failAttempt(.leaseExpired, retryable: true), to: .leaseExpired, in: connection,
                      purpose: "rescue jobs with expired leases")
        }
        if !rescued.isEmpty { try connection.notify(Self.jobsChannel, payload: "rescued") }
        return rescued.map(\.id)
    }
}
