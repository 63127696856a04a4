import AuditModel
import SwiftSyntax

/// What the font rules' mechanical fixes share: which `x.font = …` statements set a UIKit text
/// view's font, and the line that tells that view to follow text-size changes.
enum FontCorrections {
    static let flag = "adjustsFontForContentSizeCategory"
    /// The UIKit views that adopt `UIContentSizeCategoryAdjusting` and have a `font`.
    static let textViewClasses: Set<String> = ["UILabel", "UITextField", "UITextView"]
    /// UIKit's own labels of a button or a cell, reached with `?`: `button.titleLabel?`.
    static let systemLabelProperties: Set<String> = ["titleLabel", "textLabel", "detailTextLabel"]

    /// Whether `assignment` sets the font of a label, text field or text view, as far as this
    /// file says: a bare `font` inside a subclass of one, `button.titleLabel?.font`, or a name
    /// whose every declaration here (a parameter of the enclosing function, else each property
    /// or variable of the name) has such a type, written or constructed. Anything unknown is no.
    static func setsTextViewFont(_ assignment: Assignment, _ file: SourceFile) -> Bool {
        guard assignment.targetProperty == "font" else { return false }
        let object = assignment.targetObject
        if object.isEmpty {
            return assignment.node.enclosingTypeDecl.map { isTextView(typeOf: $0, file) } ?? false
        }
        guard let member = assignment.target.as(MemberAccessExprSyntax.self), let base = member.base else { return false }
        let name = String(object.split(separator: ".").last ?? "")
        if base.is(OptionalChainingExprSyntax.self), systemLabelProperties.contains(name), object.contains(".") { return true }
        let types = declaredTypes(of: name, at: assignment.node, file)
        return !types.isEmpty && types.allSatisfy { $0.map { isTextView(named: $0, file) } ?? false }
    }

    /// The types `name` is declared with where `node` can see it; `nil` for a declaration whose
    /// type this file does not spell (a closure, a call of a function).
    private static func declaredTypes(of name: String, at node: some SyntaxProtocol, _ file: SourceFile) -> [String?] {
        var current = node.parent
        while let ancestor = current {
            let parameters = ancestor.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters
                ?? ancestor.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters
            if let parameter = parameters?.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                return [unwrappedName(parameter.type)]
            }
            current = ancestor.parent
        }
        return file.index.declarations(name, in: nil).compactMap { $0.as(PatternBindingSyntax.self) }.map { binding in
            if let type = binding.typeAnnotation?.type { return unwrappedName(type) }
            return binding.initializer?.value.as(FunctionCallExprSyntax.self)?.initializedTypeName
        }
    }

    /// `UILabel`, `UILabel!`, `UILabel?` → "UILabel"; anything else `nil`.
    private static func unwrappedName(_ type: TypeSyntax) -> String? {
        if let optional = type.as(OptionalTypeSyntax.self) { return unwrappedName(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrappedName(unwrapped.wrappedType) }
        return type.as(IdentifierTypeSyntax.self).flatMap { $0.genericArgumentClause == nil ? $0.name.text : nil }
    }

    /// A UIKit text view class, or a class this file declares that inherits from one.
    private static func isTextView(named name: String, _ file: SourceFile, depth: Int = 0) -> Bool {
        if textViewClasses.contains(name) { return true }
        guard depth < 8 else { return false }
        return file.index.typeDeclarations.contains { declaration in
            declaration.as(ClassDeclSyntax.self)?.name.text == name && isTextView(typeOf: declaration, file, depth: depth + 1)
        }
    }

    private static func isTextView(typeOf declaration: Syntax, _ file: SourceFile, depth: Int = 0) -> Bool {
        guard let superclass = declaration.as(ClassDeclSyntax.self)?.inheritedTypeNames?.first else { return false }
        return isTextView(named: superclass, file, depth: depth)
    }

    /// Whether this file sets the flag on `object` in the type around `node` (the file at top
    /// level): `true` / `false` as assigned, `nil` when it does not.
    static func flagValue(for object: String, around node: some SyntaxProtocol, _ file: SourceFile) -> Bool? {
        let scope = node.enclosingTypeDecl?.id
        let values = file.index.assignments.filter { assignment in
            assignment.targetProperty == flag && assignment.targetObject == object && assignment.node.enclosingTypeDecl?.id == scope
        }.map { $0.value.count == 1 ? $0.value[0].booleanValue : nil }
        if values.isEmpty { return nil }
        return values.allSatisfy { $0 == true }
    }

    /// Inserts `receiver.adjustsFontForContentSizeCategory = true` on the line after the
    /// assignment, at its indentation. `nil` unless the assignment is a statement of its own
    /// that starts and ends its lines (one sharing a line with other code has no line to add).
    static func flagInsertion(after assignment: Assignment) -> SourceCorrection.Edit? {
        guard let statement = assignment.node.parent?.as(CodeBlockItemSyntax.self),
              let first = statement.firstToken(viewMode: .sourceAccurate),
              let last = statement.lastToken(viewMode: .sourceAccurate),
              let indentation = indentation(of: first) else { return nil }
        var lineBreak = "\n"
        if let next = last.nextToken(viewMode: .sourceAccurate) {
            guard let piece = next.leadingTrivia.first(where: \.isNewline) else { return nil }
            if case .carriageReturnLineFeeds = piece { lineBreak = "\r\n" }
        }
        let receiver = assignment.target.as(MemberAccessExprSyntax.self)?.base.map { $0.sourceText + "." } ?? ""
        return SourceCorrection.Edit(range: last.endPosition.utf8Offset..<last.endPosition.utf8Offset,
                                     replacement: lineBreak + indentation + receiver + flag + " = true")
    }

    /// The spaces and tabs before `token` on its line; `nil` when other code or a comment comes
    /// first on the line.
    private static func indentation(of token: TokenSyntax) -> String? {
        let pieces = Array(token.leadingTrivia)
        guard let lineStart = pieces.lastIndex(where: \.isNewline) else {
            return token.previousToken(viewMode: .sourceAccurate) == nil ? Self.spaces(pieces[...]) : nil
        }
        return spaces(pieces[(lineStart + 1)...])
    }

    private static func spaces(_ pieces: ArraySlice<TriviaPiece>) -> String? {
        var text = ""
        for piece in pieces {
            switch piece {
            case .spaces(let count): text += String(repeating: " ", count: count)
            case .tabs(let count): text += String(repeating: "\t", count: count)
            default: return nil
            }
        }
        return text
    }
}
