import AuditModel
import AuditScanner
import AuditStore
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
        let teams = try OrgStore(connection: connection).teamsOwning(repositoryID: repositoryID)
        let codeOwners = CodeOwnersLookup.make(from: input)
        return TeamAttribution(defaultTeam: teams.repositoryTeam, teamsByOwner: teams.byOwner, ownersOf: codeOwners?.owners,
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
