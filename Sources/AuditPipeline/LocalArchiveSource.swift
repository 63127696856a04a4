import AuditStore
import Foundation

/// `file://` archives, read in place.
public struct LocalArchiveSource: ArchiveSource {
    public init() {}

    public func fetch(_ job: ClaimedJob, into directory: String) throws -> String {
        guard let url = URL(string: job.archiveURL), url.isFileURL else {
            throw JobFailure("cannot fetch \(job.archiveURL): only file:// URLs are supported by this source", retryable: false)
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw JobFailure("archive \(url.path) does not exist or is not readable", retryable: false)
        }
        return url.path
    }
}
