import Foundation

/// The `a11y-audit` binary that `swift test` built beside the test bundle (or in .build/debug).
public enum Executable {
    public static var path: String {
        let bundle = Bundle.main.bundleURL
        for candidate in [bundle.appendingPathComponent("a11y-audit"), bundle.deletingLastPathComponent().appendingPathComponent("a11y-audit"),
                          URL(fileURLWithPath: TestDatabase.repositoryRoot + "/.build/debug/a11y-audit")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.path
        }
        return TestDatabase.repositoryRoot + "/.build/debug/a11y-audit"
    }
}
