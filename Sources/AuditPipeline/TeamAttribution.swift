import AuditModel
import AuditScanner
import Foundation
import PostgresClient

/// Which team owns a file: the last matching CODEOWNERS rule whose owners include a team's
/// owner handle, else the repository's team from the org config.
struct TeamAttribution {
    let defaultTeam: Int?
    /// CODEOWNERS owner (`@acme/payments`, lowercased) -> team id.
    let teamsByOwner: [String: Int]
    let ownersOf: ((String) -> [String])?
    /// CODEOWNERS lines that could not be read, as scan notes.
    var notes: [ScanNote] = []

    func team(for path: String) -> Int? {
        guard let ownersOf else { return defaultTeam }
        for owner in ownersOf(path) {
            if let team = teamsByOwner[owner.lowercased()] { return team }
        }
        return defaultTeam
    }

    static func load(for repositoryID: Int, input: ScanInput, connection: PostgresConnection) throws -> TeamAttribution {
        let rows = try connection.query("""
            SELECT r.team_id, t.id AS owner_team, o.owner
            FROM repositories r
            LEFT JOIN teams t ON t.org = r.org
            LEFT JOIN LATERAL unnest(t.owners) AS o (owner) ON true
            WHERE r.id = $1
            """, [.int(repositoryID)], purpose: "read the teams of repository \(repositoryID)")
        var teamsByOwner: [String: Int] = [:]
        for row in rows {
            if let owner = row.string("owner"), let team = row.int("owner_team") { teamsByOwner[owner.lowercased()] = team }
        }
        let codeOwners = CodeOwnersLookup.make(from: input)
        return TeamAttribution(defaultTeam: rows.first?.int("team_id"), teamsByOwner: teamsByOwner, ownersOf: codeOwners?.owners,
                               notes: codeOwners?.problems ?? [])
    }
}

/// Reads the repository's CODEOWNERS (GitHub uses the first of .github/, the root, docs/).
enum CodeOwnersLookup {
    static func make(from input: ScanInput) -> (owners: (String) -> [String], problems: [ScanNote])? {
        guard let path = CodeOwners.governingFile(among: input.files.map(\.path)),
              let file = input.files.first(where: { $0.path == path }),
              let bytes = try? file.bytes(), let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        let owners = CodeOwners(text: text, file: path)
        let problems = owners.problems.map { ScanNote(kind: .skipped, file: $0.file, line: $0.line, message: "CODEOWNERS: \($0.reason)") }
        return ({ owners.owners(of: $0) }, problems)
    }
}
