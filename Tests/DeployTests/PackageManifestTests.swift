import Foundation
import Testing

/// Package.swift declares exactly what each target imports (scripts/package-imports.py): a module
/// used without being declared builds only by luck of the build order, and one declared but
/// never imported is a dependency nobody needs.
@Suite struct PackageManifestTests {
    static func problems(in root: String) throws -> (problems: [String], summary: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("imports-\(UUID().uuidString).txt").path
        defer { unlink(output) }
        let status = try Deploy.run("/usr/bin/python3", [Deploy.root + "/scripts/package-imports.py", root], stdout: output)
        #expect(status == 0, "scripts/package-imports.py exited with \(status)")
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (text.split(separator: "\n").map(String.init), text)
    }

    @Test func everyTargetDeclaresWhatItImportsAndNothingElse() throws {
        let (problems, _) = try Self.problems(in: Deploy.root)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckFindsBothKindsOfDrift() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["Sources/Core", "Sources/Report", "Sources/Store"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "Drift", targets: [
                .target(name: "Core"),
                .target(name: "Report", dependencies: ["Core"]),
                .target(name: "Store", dependencies: ["Core", .product(name: "Other", package: "other")]),
            ])
            """.write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        try "public struct Finding {}\n".write(toFile: root + "/Sources/Core/Finding.swift", atomically: true, encoding: .utf8)
        try "import Core\nimport Store\n".write(toFile: root + "/Sources/Report/Text.swift", atomically: true, encoding: .utf8)
        try "import Foundation\n".write(toFile: root + "/Sources/Store/Queue.swift", atomically: true, encoding: .utf8)
        let (problems, _) = try Self.problems(in: root)
        #expect(problems.contains("Report imports Store without declaring it"), "\(problems)")
        #expect(problems.contains("Store declares Core but imports it nowhere"), "\(problems)")
    }
}
