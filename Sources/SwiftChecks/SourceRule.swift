import AuditModel
import SwiftSyntax

/// A check over one Swift file. Rules read the file's shared index; none walks the tree again.
public protocol SourceRule: Sendable {
    var description: RuleDescription { get }
    func check(_ file: SourceFile, _ sink: inout FindingSink)
}

/// A fix a rule offers for one finding, in the file's UTF-8 offsets (the checker adds lines and
/// columns): only edits that keep the code compiling and its default look unchanged.
public struct SourceCorrection {
    public struct Edit {
        let range: Range<Int>
        let replacement: String
    }
    let summary: String
    let edits: [Edit]

    /// `node`'s code, without its trivia, replaced by `replacement`.
    init(_ summary: String, replacing node: some SyntaxProtocol, with replacement: String) {
        self.init(summary, [Edit(range: node.codeOffsets, replacement: replacement)])
    }

    init(_ summary: String, _ edits: [Edit]) {
        self.summary = summary
        self.edits = edits
    }
}

extension SyntaxProtocol {
    /// The node's UTF-8 range without its leading and trailing trivia.
    var codeOffsets: Range<Int> {
        positionAfterSkippingLeadingTrivia.utf8Offset..<endPositionBeforeTrailingTrivia.utf8Offset
    }
}

/// What a rule reports: the node, a specific message, and optionally the platforms it concerns
/// (default: the code's platforms at the node, within the rule's platforms).
public struct FindingSink {
    struct Item {
        let node: Syntax
        let message: String
        let platforms: PlatformSet?
        /// Where the finding points, when not at the node's start (e.g. the offending argument).
        let position: AbsolutePosition?
        /// `.review` when the code cannot settle the claim; nil: the rule's own certainty.
        let certainty: Certainty?
        /// Facts from other files that would hand the finding to a person (`Finding.reviewIf`).
        var reviewIf: [String] = []
        /// Names some file must refer to for the finding to stand (`Finding.requiredUse`).
        var requiredUse: [String] = []
        /// The mechanical fix, where there is one (`Finding.correction`).
        var correction: SourceCorrection?
    }
    private(set) var items: [Item] = []

    public mutating func report(_ node: some SyntaxProtocol, _ message: String, platforms: PlatformSet? = nil,
                                certainty: Certainty? = nil, reviewIf: [String] = [], requiredUse: [String] = [],
                                correction: SourceCorrection? = nil) {
        items.append(Item(node: Syntax(node), message: message, platforms: platforms, position: nil, certainty: certainty,
                          reviewIf: reviewIf, requiredUse: requiredUse, correction: correction))
    }

    /// Reports `node` (its code names the finding in fingerprints) but points at `anchor`, e.g. a
    /// modifier's name or the offending argument inside it.
    public mutating func report(_ node: some SyntaxProtocol, at anchor: some SyntaxProtocol, _ message: String,
                                platforms: PlatformSet? = nil, certainty: Certainty? = nil, reviewIf: [String] = [],
                                requiredUse: [String] = []) {
        items.append(Item(node: Syntax(node), message: message, platforms: platforms,
                          position: anchor.positionAfterSkippingLeadingTrivia, certainty: certainty, reviewIf: reviewIf,
                          requiredUse: requiredUse))
    }
}

/// One parsed Swift file with its index and platform context, handed to every rule.
public final class SourceFile {
    public let path: String
    let tree: SourceFileSyntax
    let index: SourceIndex
    /// `var` only for the facts of the file's own private views (`ViewComponents`), added before the rules run.
    var context: ProjectContext
    let resolver: PlatformResolver
    let reference: ReferenceData

    init(path: String, tree: SourceFileSyntax, context: ProjectContext, platformOverride: PlatformSet?,
         reference: ReferenceData) {
        self.path = path
        self.tree = tree
        self.index = SourceIndex(tree)
        self.context = context
        self.reference = reference
        self.resolver = PlatformResolver(project: context.platforms, imports: index.topLevelImports,
                                         override: platformOverride, deploymentTargets: context.deploymentTargets)
    }

    /// Platforms the code at `node` is compiled for.
    func platforms(at node: some SyntaxProtocol) -> PlatformSet {
        resolver.platforms(at: Syntax(node), fileHasIfConfig: index.hasIfConfig, fileHasAvailabilityCheck: index.hasAvailabilityCheck)
    }

    /// Whether the platforms at `node` are stated rather than inferred from imports.
    func platformsAreDeclared(at node: some SyntaxProtocol) -> Bool {
        resolver.isDeclared(at: Syntax(node), fileHasIfConfig: index.hasIfConfig)
    }

    /// The platforms a size threshold is judged on. Undeclared platforms are a guess from
    /// imports: `import UIKit` could mean tvOS or watchOS (or visionOS), but is most often iPhone
    /// and iPad code, so it is judged as iOS/iPadOS; platform-specific sizes apply only where the
    /// project or an `#if os` says the code runs there.
    func platformsForSizes(at node: some SyntaxProtocol) -> PlatformSet {
        let platforms = platforms(at: node)
        if !platformsAreDeclared(at: node), platforms.contains(.iOS), platforms != .all { return PlatformSet(.iOS) }
        return platforms
    }

    /// Whether the enclosing type (or the file, at top level) reads any of `names`.
    func scopeReads(_ names: [String], around node: some SyntaxProtocol) -> Bool {
        let scope = node.enclosingTypeDecl
        return names.contains { index.references($0, in: scope) }
    }

    /// Colour sets named by literals, found once for color-name-missing and the file's facts.
    lazy var colorNameLiterals: [ColorNameLiteral] = findColorNameLiterals()

    /// Source ranges of `#Preview { … }` and `PreviewProvider` types, found once: what
    /// `AccessibilityLabels.isInPreview` answers by walking up from each node.
    lazy var previewRanges: [Range<Int>] = {
        var nodes: [Syntax] = index.macroExpansions.filter { $0.macroName.text == "Preview" }.map(Syntax.init)
        nodes += index.macroDeclarations.filter { $0.macroName.text == "Preview" }.map(Syntax.init)
        nodes += index.typeDeclarations.filter { declaration in
            declaration.as(StructDeclSyntax.self)?.inheritanceClause?.inheritedTypes
                .contains(where: { $0.type.typeName == "PreviewProvider" }) == true
        }
        return nodes.map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
    }()

    /// Whether `node` lies inside a preview (same answer as `AccessibilityLabels.isInPreview`).
    func isInPreview(_ node: some SyntaxProtocol) -> Bool {
        // Syntax ranges nest: a node inside a preview's range is one of its descendants.
        guard !previewRanges.isEmpty else { return false }
        let start = node.position.utf8Offset, end = node.endPosition.utf8Offset
        return previewRanges.contains { $0.lowerBound <= start && end <= $0.upperBound && $0 != start..<end }
    }

    /// Contrast of every colour pair, computed once for the two contrast rules.
    lazy var contrastEvaluations: [ContrastEvaluation] = ContrastAnalysis.evaluate(self)

    /// Whether a literal key is defined in the project's localisation tables.
    func isLocalizedKey(_ key: String) -> Bool { context.localizedKeys.contains(key) }
}
