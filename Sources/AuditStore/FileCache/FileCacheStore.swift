import Foundation
import PostgresClient

/// The per-file cache rows of one repository, loaded into memory before a scan and the new
/// ones stored after it: two statements per job instead of one per file.
public struct FileCacheStore {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// Cache key -> entry.
    public func load(repositoryID: Int) throws -> [String: [UInt8]] {
        var entries: [String: [UInt8]] = [:]
        for row in try connection.query("SELECT cache_key, entry FROM file_cache WHERE repository_id = $1",
                                        [.int(repositoryID)], purpose: "load the file cache of repository \(repositoryID)") {
            if let key = row.string("cache_key"), let entry = row.bytes("entry") { entries[key] = entry }
        }
        return entries
    }

    /// Stores the entries a scan `added` and refreshes the use date of those it `used`.
    public func save(added: [String: [UInt8]], used: Set<String>, repositoryID: Int) throws {
        // Bytes travel as binary parameters, many rows per statement, in key order so two jobs of
        // the same repository (a nightly and a pull request) lock rows in the same order.
        let added = added.sorted { $0.key < $1.key }
        var start = 0
        while start < added.count {
            let batch = added[start..<min(start + 500, added.count)]
            var parameters: [PostgresValue] = [.int(repositoryID)]
            var rows: [String] = []
            for (key, entry) in batch {
                rows.append("($\(parameters.count + 1), $1, $\(parameters.count + 2))")
                parameters += [.text(key), .bytes(entry)]
            }
            try connection.query("""
                INSERT INTO file_cache (cache_key, repository_id, entry) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (repository_id, cache_key) DO UPDATE SET last_used = current_date
                """, parameters, purpose: "store \(batch.count) file cache rows")
            start += batch.count
        }
        // Refreshed at most weekly, so a warm night costs no write per file.
        if !used.isEmpty {
            try connection.query("""
                UPDATE file_cache SET last_used = current_date
                WHERE repository_id = $1 AND cache_key = ANY($2::text[]) AND last_used < current_date - 7
                """, [.int(repositoryID), .textArray(used.sorted())], purpose: "mark file cache rows used")
        }
    }
}
