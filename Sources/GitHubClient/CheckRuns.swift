import Foundation

public enum CheckRunStatus: String, Sendable, Codable {
    case queued
    case inProgress = "in_progress"
    case completed
}

public enum CheckRunConclusion: String, Sendable, Codable {
    case actionRequired = "action_required"
    case cancelled, failure, neutral, success, skipped
    case timedOut = "timed_out"
}

/// A line-anchored comment on a check run.
public struct CheckRunAnnotation: Sendable, Equatable {
    public enum Level: String, Sendable, Codable {
        case notice, warning, failure
    }

    public var path: String
    public var startLine: Int
    public var endLine: Int
    /// Sent only when the annotation is on one line, as GitHub requires.
    public var startColumn: Int?
    public var endColumn: Int?
    public var level: Level
    /// Cut to 64 KB when sent.
    public var message: String
    /// Cut to 255 characters when sent.
    public var title: String?
    public var rawDetails: String?

    public init(path: String, startLine: Int, endLine: Int? = nil, startColumn: Int? = nil, endColumn: Int? = nil,
                level: Level, message: String, title: String? = nil, rawDetails: String? = nil) {
        self.path = path
        self.startLine = max(1, startLine)
        self.endLine = max(self.startLine, endLine ?? startLine)
        self.startColumn = startColumn
        self.endColumn = endColumn
        self.level = level
        self.message = message
        self.title = title
        self.rawDetails = rawDetails
    }
}

public struct CheckRunOutput: Sendable, Equatable {
    public var title: String
    /// Markdown, cut to 65,535 characters when sent.
    public var summary: String
    public var text: String?
    /// Any number: they go 50 a request, the rest in follow-up updates.
    public var annotations: [CheckRunAnnotation]

    public init(title: String, summary: String, text: String? = nil, annotations: [CheckRunAnnotation] = []) {
        self.title = title
        self.summary = summary
        self.text = text
        self.annotations = annotations
    }
}

/// What to send when creating a check run (`POST /repos/{owner}/{repo}/check-runs`).
public struct NewCheckRun: Sendable, Equatable {
    public var name: String
    public var headSHA: String
    public var status: CheckRunStatus?
    public var conclusion: CheckRunConclusion?
    public var detailsURL: String?
    public var externalID: String?
    public var startedAt: Date?
    public var completedAt: Date?
    public var output: CheckRunOutput?

    public init(name: String, headSHA: String, status: CheckRunStatus? = nil, conclusion: CheckRunConclusion? = nil,
                detailsURL: String? = nil, externalID: String? = nil, startedAt: Date? = nil, completedAt: Date? = nil,
                output: CheckRunOutput? = nil) {
        self.name = name
        self.headSHA = headSHA
        self.status = status
        self.conclusion = conclusion
        self.detailsURL = detailsURL
        self.externalID = externalID
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.output = output
    }
}

/// What to change on a check run (`PATCH /repos/{owner}/{repo}/check-runs/{id}`); nil fields are not sent.
public struct CheckRunUpdate: Sendable, Equatable {
    public var name: String?
    public var status: CheckRunStatus?
    public var conclusion: CheckRunConclusion?
    public var detailsURL: String?
    public var externalID: String?
    public var startedAt: Date?
    public var completedAt: Date?
    public var output: CheckRunOutput?

    public init(name: String? = nil, status: CheckRunStatus? = nil, conclusion: CheckRunConclusion? = nil,
                detailsURL: String? = nil, externalID: String? = nil, startedAt: Date? = nil, completedAt: Date? = nil,
                output: CheckRunOutput? = nil) {
        self.name = name
        self.status = status
        self.conclusion = conclusion
        self.detailsURL = detailsURL
        self.externalID = externalID
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.output = output
    }
}

/// The check run as GitHub last returned it, and how much it took to get there.
public struct CheckRunResult: Sendable, Equatable {
    public let id: Int
    public let htmlURL: String?
    public let status: String
    public let conclusion: String?
    /// Requests made: the create or first update, plus one per further batch of 50 annotations.
    public let requests: Int
    public let annotationsSent: Int
}

extension GitHubAPI {
    /// GitHub takes at most 50 annotations a request.
    public static let annotationsPerRequest = 50

    /// Creates a check run with the first 50 annotations and adds the rest by updates. A run to
    /// be completed with more than 50 annotations is created `in_progress` and completed by the
    /// last update, so nobody sees a finished check with annotations still missing.
    public func createCheckRun(owner: String, repository: String, _ run: NewCheckRun) throws(GitHubError) -> CheckRunResult {
        let repo = try repositoryPath(owner: owner, repository: repository)
        let batches = Self.batches(run.output?.annotations ?? [])
        let deferCompletion = batches.count > 1 && Self.completes(run.status, run.conclusion, run.completedAt)
        var body = CheckRunBody(run: run, annotations: batches[0])
        if deferCompletion {
            body.status = .inProgress
            body.conclusion = nil
            body.completedAt = nil
        }
        let created = try send(.post, "\(repo)/check-runs", body: body).decode(CheckRunReply.self)
        return try sendRemainingBatches(repo: repo, id: created.id, first: created, batches: batches, output: run.output,
                                        completion: deferCompletion ? (run.status, run.conclusion, run.completedAt) : nil)
    }

    /// Updates a check run; annotations beyond 50 go in further updates, completion with the last.
    public func updateCheckRun(owner: String, repository: String, id: Int,
                               _ update: CheckRunUpdate) throws(GitHubError) -> CheckRunResult {
        let repo = try repositoryPath(owner: owner, repository: repository)
        let batches = Self.batches(update.output?.annotations ?? [])
        let deferCompletion = batches.count > 1 && Self.completes(update.status, update.conclusion, update.completedAt)
        var body = CheckRunBody(update: update, annotations: batches[0])
        if deferCompletion {
            body.status = update.status == .completed ? .inProgress : update.status
            body.conclusion = nil
            body.completedAt = nil
        }
        let first = try send(.patch, "\(repo)/check-runs/\(id)", body: body).decode(CheckRunReply.self)
        return try sendRemainingBatches(repo: repo, id: id, first: first, batches: batches, output: update.output,
                                        completion: deferCompletion ? (update.status, update.conclusion, update.completedAt) : nil)
    }

    private func sendRemainingBatches(repo: String, id: Int, first: CheckRunReply, batches: [[CheckRunAnnotation]],
                                      output: CheckRunOutput?,
                                      completion: (CheckRunStatus?, CheckRunConclusion?, Date?)?) throws(GitHubError) -> CheckRunResult {
        var last = first
        var sent = batches[0].count
        let total = batches.reduce(0) { $0 + $1.count }
        for (index, batch) in batches.enumerated().dropFirst() {
            // Output title and summary are required with every output; annotations append.
            var body = CheckRunBody()
            if let output { body.output = OutputBody(output, annotations: batch) }
            if index == batches.count - 1, let completion {
                body.status = completion.0
                body.conclusion = completion.1
                body.completedAt = completion.2
            }
            do {
                last = try send(.patch, "\(repo)/check-runs/\(id)", body: body).decode(CheckRunReply.self)
            } catch {
                throw .checkRunIncomplete(checkRunID: id, annotationsSent: sent, annotationsTotal: total, cause: error)
            }
            sent += batch.count
        }
        return CheckRunResult(id: last.id, htmlURL: last.htmlURL, status: last.status, conclusion: last.conclusion,
                              requests: batches.count, annotationsSent: sent)
    }

    private func repositoryPath(owner: String, repository: String) throws(GitHubError) -> String {
        "/repos/\(try Self.pathSegment(owner, what: "owner"))/\(try Self.pathSegment(repository, what: "repository"))"
    }

    /// Always at least one batch (maybe empty), so the first request carries the first batch.
    static func batches(_ annotations: [CheckRunAnnotation]) -> [[CheckRunAnnotation]] {
        guard !annotations.isEmpty else { return [[]] }
        return stride(from: 0, to: annotations.count, by: annotationsPerRequest).map {
            Array(annotations[$0..<min($0 + annotationsPerRequest, annotations.count)])
        }
    }

    private static func completes(_ status: CheckRunStatus?, _ conclusion: CheckRunConclusion?, _ completedAt: Date?) -> Bool {
        status == .completed || conclusion != nil || completedAt != nil
    }
}

private struct CheckRunReply: Decodable {
    let id: Int
    let htmlURL: String?
    let status: String
    let conclusion: String?

    enum CodingKeys: String, CodingKey {
        case id, status, conclusion
        case htmlURL = "html_url"
    }
}

/// The JSON body of a create or update; nil fields are left out.
private struct CheckRunBody: Encodable, Sendable {
    var name: String?
    var headSHA: String?
    var status: CheckRunStatus?
    var conclusion: CheckRunConclusion?
    var detailsURL: String?
    var externalID: String?
    var startedAt: Date?
    var completedAt: Date?
    var output: OutputBody?

    enum CodingKeys: String, CodingKey {
        case name, status, conclusion, output
        case headSHA = "head_sha"
        case detailsURL = "details_url"
        case externalID = "external_id"
        case startedAt = "started_at"
        case completedAt = "completed_at"
    }

    init() {}

    init(run: NewCheckRun, annotations: [CheckRunAnnotation]) {
        name = run.name
        headSHA = run.headSHA
        status = run.status
        conclusion = run.conclusion
        detailsURL = run.detailsURL
        externalID = run.externalID
        startedAt = run.startedAt
        completedAt = run.completedAt
        output = run.output.map { OutputBody($0, annotations: annotations) }
    }

    init(update: CheckRunUpdate, annotations: [CheckRunAnnotation]) {
        name = update.name
        status = update.status
        conclusion = update.conclusion
        detailsURL = update.detailsURL
        externalID = update.externalID
        startedAt = update.startedAt
        completedAt = update.completedAt
        output = update.output.map { OutputBody($0, annotations: annotations) }
    }
}

private struct OutputBody: Encodable, Sendable {
    let title: String
    let summary: String
    let text: String?
    let annotations: [AnnotationBody]?

    init(_ output: CheckRunOutput, annotations: [CheckRunAnnotation]) {
        title = output.title
        summary = GitHubText.truncated(output.summary, toCharacters: 65_535)
        text = output.text.map { GitHubText.truncated($0, toCharacters: 65_535) }
        self.annotations = annotations.isEmpty ? nil : annotations.map(AnnotationBody.init)
    }
}

private struct AnnotationBody: Encodable, Sendable {
    let path: String
    let startLine: Int
    let endLine: Int
    let startColumn: Int?
    let endColumn: Int?
    let annotationLevel: CheckRunAnnotation.Level
    let message: String
    let title: String?
    let rawDetails: String?

    enum CodingKeys: String, CodingKey {
        case path, message, title
        case startLine = "start_line"
        case endLine = "end_line"
        case startColumn = "start_column"
        case endColumn = "end_column"
        case annotationLevel = "annotation_level"
        case rawDetails = "raw_details"
    }

    init(_ annotation: CheckRunAnnotation) {
        path = annotation.path
        startLine = annotation.startLine
        endLine = annotation.endLine
        let oneLine = annotation.startLine == annotation.endLine
        startColumn = oneLine ? annotation.startColumn : nil
        endColumn = oneLine ? annotation.endColumn : nil
        annotationLevel = annotation.level
        message = GitHubText.truncated(annotation.message, toUTF8Bytes: 64 * 1024)
        title = annotation.title.map { GitHubText.truncated($0, toCharacters: 255) }
        rawDetails = annotation.rawDetails.map { GitHubText.truncated($0, toUTF8Bytes: 64 * 1024) }
    }
}
