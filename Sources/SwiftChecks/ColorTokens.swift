import AuditModel
import SwiftParser
import SwiftSyntax

/// Colours an app names in one file and shows in others: `extension Color { static let brand =
/// Color(red: …) }`, `static var black40: Color { .init(red: 0.57, green: 0.57, blue: 0.57) }`.
/// Read from every Swift file that extends a colour type, before the files are checked, so a
/// contrast pair in another file is judged with the token's value instead of being taken for
/// an asset symbol nobody defined.
public struct ColorToken: Hashable, Sendable, Codable {
    public var value: ColorExpression
    /// The types it is declared on (`Color`, `ShapeStyle`, `UIColor`, `NSColor`).
    public var owners: Set<String>

    public init(value: ColorExpression, owners: Set<String>) { self.value = value; self.owners = owners }
}

/// A file's tokens and namespace facts, cached together by the file's content.
public struct ColorTokenFile: Hashable, Sendable, Codable {
    public var tokens: [String: ColorToken]
    public var namespaces: ColorNamespaceFacts

    public init(tokens: [String: ColorToken] = [:], namespaces: ColorNamespaceFacts = ColorNamespaceFacts()) {
        self.tokens = tokens
        self.namespaces = namespaces
    }
}

public enum ColorTokens {
    static let colorTypes: Set<String> = ["Color", "SwiftUI.Color", "UIColor", "UIKit.UIColor", "NSColor", "AppKit.NSColor", "ShapeStyle"]

    /// Whether a file may declare tokens: a byte search, so only those files are parsed again.
    public static func mayDeclare(_ bytes: [UInt8]) -> Bool {
        for needle in ["extension Color", "extension UIColor", "extension NSColor", "extension ShapeStyle", "extension SwiftUI.Color"]
        where ProjectFiles.occurs(Array(needle.utf8), in: bytes) { return true }
        return false
    }

    /// What one file declares for other files' colours, from one parse: its tokens, and its
    /// namespace and wrapper colours (`ColorNamespaceFacts`).
    public static func read(in source: String) -> ColorTokenFile {
        read(ParsedSource(source))
    }

    /// The same from a parse the file's checks can then reuse (`SourceChecker.check(…parsed:)`).
    public static func read(_ parsed: ParsedSource) -> ColorTokenFile {
        let tree = parsed.tree
        let reader = ColorReader(index: SourceIndex(tree))
        return ColorTokenFile(tokens: declared(in: tree, reader: reader), namespaces: ColorNamespaceFacts.read(tree, reader: reader))
    }

    /// The tokens one file declares at its top level, by name. A name declared twice in the
    /// file with different values is left out (which one applies is not known).
    public static func declared(in source: String) -> [String: ColorToken] {
        let tree = Parser.parse(source: source)
        return declared(in: tree, reader: ColorReader(index: SourceIndex(tree)))
    }

    static func declared(in tree: SourceFileSyntax, reader: ColorReader) -> [String: ColorToken] {
        var declarations: [[String: ColorToken]] = []
        for item in tree.statements {
            guard let extensionDecl = item.item.as(ExtensionDeclSyntax.self) else { continue }
            let type = extensionDecl.extendedType.sourceText
            guard colorTypes.contains(type) else { continue }
            let owner = String(type.split(separator: ".").last ?? "")
            let naming: ColorNaming = owner == "UIColor" || owner == "NSColor" ? .platform : .swiftUI
            for member in extensionDecl.memberBlock.members {
                guard let variable = member.decl.as(VariableDeclSyntax.self),
                      variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }),
                      variable.bindings.count == 1, let binding = variable.bindings.first,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let expression = Self.value(of: binding, let: variable.bindingSpecifier.tokenKind == .keyword(.let)),
                      let described = Self.describe(expression, owner: owner == "ShapeStyle" ? "Color" : owner, naming, reader),
                      described.count == 1, let value = described.first else { continue }
                declarations.append([name: ColorToken(value: value, owners: [owner])])
            }
        }
        return merge(declarations)
    }

    /// Tokens of several declarations (of one file, or of every file): a name two of them give
    /// different values is not known.
    public static func merge(_ tables: [[String: ColorToken]]) -> [String: ColorToken] {
        var merged: [String: ColorToken] = [:]
        var conflicting = Set<String>()
        for table in tables {
            for (name, token) in table {
                if let known = merged[name] {
                    if known.value != token.value { conflicting.insert(name) } else { merged[name]?.owners.formUnion(token.owners) }
                } else {
                    merged[name] = token
                }
            }
        }
        for name in conflicting { merged[name] = nil }
        return merged
    }

    /// A constant's value: a `let`'s initializer, or a computed property's one expression
    /// (`{ .init(…) }`, `{ return … }`, `get { … }`). A `static var` with an initializer can be
    /// reassigned: not a token.
    private static func value(of binding: PatternBindingSyntax, let isLet: Bool) -> ExprSyntax? {
        if let initializer = binding.initializer { return isLet ? initializer.value : nil }
        guard let accessors = binding.accessorBlock?.accessors else { return nil }
        let body: CodeBlockItemListSyntax
        switch accessors {
        case .getter(let items): body = items
        case .accessors(let list):
            guard list.count == 1, let getter = list.first, getter.accessorSpecifier.tokenKind == .keyword(.get),
                  let items = getter.body?.statements else { return nil }
            body = items
        @unknown default: return nil
        }
        guard body.count == 1, let only = body.first?.item else { return nil }
        if let statement = only.as(ReturnStmtSyntax.self) { return statement.expression }
        return only.as(ExprSyntax.self)
    }

    /// `.init(…)` inside `extension Color` is `Color(…)`.
    private static func describe(_ expression: ExprSyntax, owner: String, _ naming: ColorNaming, _ reader: ColorReader) -> [ColorExpression]? {
        if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.base == nil, member.declName.baseName.text == "init" {
            return reader.describeInitializer(call, as: owner)
        }
        return reader.describe(expression, naming)
    }
}

/// A Swift source and its syntax tree: parsed once for the project's colour tokens and again
/// not at all when the same file is checked.
public struct ParsedSource: Sendable {
    public let source: String
    let tree: SourceFileSyntax

    public init(_ source: String) {
        self.source = source
        tree = Parser.parse(source: source)
    }
}
