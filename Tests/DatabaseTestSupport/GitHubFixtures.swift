import Foundation

/// The real webhook payloads in ../shared/fixtures/github, read as they are or with fields rewritten.
public enum GitHubFixtures {
    public static let directory = URL(fileURLWithPath: TestDatabase.repositoryRoot).deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/github").path

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    public static func bytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
            throw Missing(description: "fixture \(name) not found in \(directory)")
        }
        return [UInt8](data)
    }

    /// The payload with `change` applied, re-encoded (compact, as GitHub sends it).
    public static func rewritten(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
        guard var object = try JSONSerialization.jsonObject(with: Data(try bytes(name))) as? [String: Any] else {
            throw Missing(description: "fixture \(name) is not a JSON object")
        }
        change(&object)
        return [UInt8](try JSONSerialization.data(withJSONObject: object))
    }
}
