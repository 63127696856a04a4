import AuditModel
import InterfaceBuilder

/// A check over one Interface Builder document (storyboard or xib), parsed once and shared by
/// every document rule. Findings point at an element's start tag.
public protocol DocumentRule: Sendable {
    var description: RuleDescription { get }
    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink)
}

/// What a document rule reports: the view, a specific message, optionally the platforms it
/// concerns (default: the document's platforms, within the rule's).
public struct DocumentFindingSink {
    struct Item {
        let view: InterfaceBuilderView
        let message: String
        let platforms: PlatformSet?
        /// Names the finding in fingerprints beyond the view's own id (the other control of a pair).
        let detail: String
        /// `.review` when the document cannot settle the claim; nil: the rule's own certainty.
        let certainty: Certainty?
        /// Assignments in code that replace what the finding judges (`Finding.overriddenBy`).
        let overriddenBy: [String]
        /// Names code must use for the finding to stand (`Finding.requiredUse`).
        var requiredUse: [String] = []
        /// Facts of code that hand the finding to a person (`Finding.reviewIf`).
        var reviewIf: [String] = []
    }
    private(set) var items: [Item] = []

    /// `overriddenBy`: the view's properties whose assignment in code (through an outlet or in
    /// its custom class) replaces what the document says; the scan drops the finding then.
    /// `reviewedIf`: what code may do through the view's outlets that changes what the document
    /// says without settling it (`restyled`: a style helper, a size constraint, a configuration);
    /// the scan hands the finding to a person then. `reviewedIfFacts`: further facts, as
    /// `FileResult.assignedMembers` spells them, that do the same (`TapProxyView#hitTest` for a
    /// view around the control).
    public mutating func report(_ view: InterfaceBuilderView, _ message: String, platforms: PlatformSet? = nil,
                                detail: String = "", certainty: Certainty? = nil, overriddenBy properties: [String] = [],
                                reviewedIf reviewProperties: [String] = [], reviewedIfFacts: [String] = [],
                                requiredUse: [String] = []) {
        var overrides = Self.assignmentKeys(view, properties)
        // A navigation bar item's custom view: code that puts another item in its place in the
        // scene's controller (`navigationItem.leftBarButtonItem = closeItem`) replaces it.
        if let key = view.barButtonItemKey, let scene = view.sceneClass {
            let single = key.hasSuffix("s") ? String(key.dropLast()) : key
            overrides += [scene + ":navigationItem." + single, scene + ":navigationItem." + single + "s"]
        }
        items.append(Item(view: view, message: message, platforms: platforms, detail: detail, certainty: certainty,
                          overriddenBy: overrides, requiredUse: requiredUse,
                          reviewIf: Self.assignmentKeys(view, reviewProperties) + reviewedIfFacts))
    }

    /// How code assigning `properties` of `view` is recorded (`FileResult.assignedMembers`):
    /// through each outlet (by its owner's class when known) or in the view's custom class.
    private static func assignmentKeys(_ view: InterfaceBuilderView, _ properties: [String]) -> [String] {
        var keys: [String] = []
        for property in properties {
            for outlet in view.outlets {
                if let owner = outlet.ownerClass {
                    keys += [owner + ":" + outlet.property + "." + property, "*:" + outlet.property + "." + property]
                } else {
                    keys.append("?:" + outlet.property + "." + property)
                }
            }
            if let customClass = view.customClass { keys.append(customClass + "#" + property) }
        }
        return keys
    }
}

/// One parsed document with its platforms, handed to every document rule.
public struct DocumentFile: Sendable {
    public let path: String
    public let document: InterfaceBuilderDocument
    /// The runtime's platforms within the project's (the config's platforms when it sets them).
    public let platforms: PlatformSet
    let reference: ReferenceData
    let context: ProjectContext

    init(document: InterfaceBuilderDocument, context: ProjectContext, platformOverride: PlatformSet?, reference: ReferenceData) {
        path = document.path
        self.document = document
        self.reference = reference
        self.context = context
        if let platformOverride {
            platforms = platformOverride
        } else {
            var runtime = document.runtimePlatforms ?? context.platforms ?? .all
            // An iOS document runs on visionOS only where the project says the app ships there.
            if runtime.contains(.iOS), runtime.contains(.visionOS), context.platforms?.contains(.visionOS) != true {
                runtime.remove(PlatformSet(.visionOS))
            }
            let narrowed = runtime.intersection(context.platforms ?? .all)
            // A project that says iOS for a folder holding a Mac xib: trust the document.
            platforms = narrowed.isEmpty ? runtime : narrowed
        }
    }

    func isLocalizedKey(_ key: String) -> Bool { context.localizedKeys.contains(key) }
}

/// Parses one Interface Builder file once and runs every enabled document rule over it. An
/// unreadable file becomes a note naming the file and the reason; nothing else is affected.
public struct DocumentChecker: Sendable {
    public let rules: [any DocumentRule]
    /// Each rule's description, made once: the Interface Builder ones indent their examples on every access.
    let descriptions: [RuleDescription]
    public let config: AuditConfig
    let reference: ReferenceData
    let limits: InterfaceBuilderLimits

    public init(rules: [any DocumentRule] = RuleCatalog.documentRules, config: AuditConfig = AuditConfig(),
                reference: ReferenceData = .shared, limits: InterfaceBuilderLimits = InterfaceBuilderLimits()) {
        self.rules = rules.filter { config.isEnabled($0.description.id) }
        self.descriptions = self.rules.map(\.description)
        self.config = config
        self.reference = reference
        self.limits = limits
    }

    /// Storyboards and xibs.
    public static func handles(_ path: String) -> Bool { InterfaceBuilderDocument.isInterfaceBuilderPath(path) }

    /// `Class#unarchivable` for the view's class and its enclosing views': a class whose
    /// `init?(coder:)` stops the app means the document is never loaded as it stands (the
    /// view is built in code instead).
    static func unarchivableFacts(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> [String] {
        ([view] + document.superviews(of: view).map { document.views[$0] }).compactMap { step in
            step.customClass.map { $0 + "#" + FileResult.unarchivableMarker }
        }
    }

    /// What must hold for the storyboard scene around `view` to be shown (see
    /// `FileResult.sceneRequirementPrefix`). An identifier that is not a plain word (`Detail
    /// View`) may be built by code in ways a search for it cannot follow: such a scene counts as
    /// shown.
    static func sceneRequirements(_ view: InterfaceBuilderView, in document: InterfaceBuilderDocument) -> [String] {
        switch document.sceneEntry(of: view) {
        case .reachable: return []
        case .unreachable: return [FileResult.sceneRequirement(identifier: nil, sceneClass: view.sceneClass)]
        case .byIdentifier(let identifier):
            return ASCII.isIdentifier(identifier) ? [FileResult.sceneRequirement(identifier: identifier, sceneClass: view.sceneClass)] : []
        }
    }

    public func check(path: String, bytes: [UInt8], context: ProjectContext) -> FileResult {
        let document: InterfaceBuilderDocument
        do {
            document = try InterfaceBuilderDocument(bytes: bytes, path: path, limits: limits)
        } catch {
            return FileResult(notes: [ScanNote(kind: .skipped, file: path, line: error.line, message: error.reason)])
        }
        let file = DocumentFile(document: document, context: context, platformOverride: config.platforms, reference: reference)
        var result = FileResult()
        // A xib names its own class; that alone does not mean anything loads it. Its findings
        // stand if code (or another document) names the class, in an app (see `typeRequiringUse`).
        let ownerClass = document.xibOwnerClass
        result.referencedNames = document.customClasses.subtracting(ownerClass.map { [$0] } ?? [])
        result.referencedNames.formUnion(document.referencedSceneIdentifiers.map { FileResult.sceneRequirementPrefix + $0 })
        for (rule, description) in zip(rules, descriptions) {
            var sink = DocumentFindingSink()
            rule.check(file, &sink)
            for item in sink.items {
                let platforms = (item.platforms ?? file.platforms).intersection(description.platforms)
                guard !platforms.isEmpty else { continue }
                let view = item.view
                // What no one can see is not judged, as code that never ships is not.
                if !config.includeNonShipping, document.isNeverShown(view) {
                    result.nonShippingCount += 1
                    continue
                }
                var verdict = description.verdict(item.certainty, severityOverride: config.severityOverrides[description.id])
                let onlyOnTV = verdict.certainty == .violation && description.isUnsettledOnTVOS(platforms)
                if onlyOnTV { verdict = description.verdict(.review, severityOverride: nil) }
                result.findings.append(Finding(
                    ruleID: description.id, kind: description.kind, severity: verdict.severity, certainty: verdict.certainty,
                    location: SourceLocation(file: path, line: view.line, column: view.column),
                    message: item.message + (onlyOnTV ? RuleDescription.tvOSDynamicTypeNote : ""),
                    fix: description.fix, citation: description.citation, platforms: platforms,
                    // Interface Builder's object ids survive edits elsewhere in the document.
                    snippet: "<\(InputExcerpt.of(view.kind)) id=\"\(InputExcerpt.of(view.id))\">" + (item.detail.isEmpty ? "" : " " + item.detail),
                    sourceLine: document.text(ofLine: view.line)))
                result.findings[result.findings.count - 1].overriddenBy = item.overriddenBy
                result.findings[result.findings.count - 1].reviewIf = item.reviewIf + Self.unarchivableFacts(view, in: document)
                if let ownerClass, path.hasSuffix(".xib") {
                    result.findings[result.findings.count - 1].reviewIf.append(ownerClass + FileResult.subclassNibMarker)
                }
                result.findings[result.findings.count - 1].requiredUse = item.requiredUse
                    + (ownerClass.map { [FileResult.typeRequirementPrefix + $0] } ?? [])
                    + Self.sceneRequirements(view, in: document)
            }
        }
        result.findings.assignFingerprints()
        return result
    }
}
