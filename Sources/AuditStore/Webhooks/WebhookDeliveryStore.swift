import Foundation
import PostgresClient

/// What became of a webhook delivery, as its row keeps it.
public enum DeliveryOutcome: String, Sendable, Codable, CaseIterable {
    case received, pong, ignored, malformed, refused, queued
}

/// The `webhook_deliveries` rows: one per delivery id, so a redelivery is recognised and
/// handled once.
public struct WebhookDeliveryStore {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// Records a delivery as received; false when its id was recorded before (a redelivery).
    public func record(delivery: String, event: String, action: String?, repository: String?) throws -> Bool {
        try !connection.query("""
            INSERT INTO webhook_deliveries (delivery_id, event, action, repository, outcome) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id
            """, [.text(delivery), .text(event), .optional(action), .optional(repository), .text(DeliveryOutcome.received.rawValue)],
            purpose: "record delivery \(delivery)").isEmpty
    }

    public func setOutcome(delivery: String, _ outcome: DeliveryOutcome, jobID: Int?) throws {
        try connection.query("UPDATE webhook_deliveries SET outcome = $2, job_id = $3 WHERE delivery_id = $1",
                             [.text(delivery), .text(outcome.rawValue), .optional(jobID)], purpose: "record the outcome of delivery \(delivery)")
    }
}
