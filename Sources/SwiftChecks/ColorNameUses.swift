import AuditModel
import ColorAssets
import SwiftSyntax

/// A colour set named by a string literal in code, with the literal to point at.
struct ColorNameLiteral {
    let name: String
    let literal: ExprSyntax
    let call: FunctionCallExprSyntax
}

extension SourceFile {
    /// `Color("Brand")`, `UIColor(named: "Brand")`, `NSColor(named: "Brand")` in this file.
    /// A colour loaded from another bundle (`bundle:`/`in:` other than the main one) is left out:
    /// its catalog is not in this repository.
    func findColorNameLiterals() -> [ColorNameLiteral] {
        var result: [ColorNameLiteral] = []
        for call in index.calls(named: ["Color", "UIColor", "NSColor"]) {
            let argument: ExprSyntax?
            switch call.calleeName {
            case "Color": argument = call.firstUnlabeledArgument
            default: argument = call.argument("named")
            }
            guard let argument, let name = argument.as(StringLiteralExprSyntax.self).flatMap({ ExprSyntax($0).stringLiteralValue }),
                  !name.isEmpty, !name.hasPrefix("#") else { continue } // `Color("#333333")`: a hex extension
            if let bundle = call.argument("bundle") ?? call.argument("in"),
               !["nil", ".main", "Bundle.main"].contains(bundle.sourceText) { continue }
            result.append(ColorNameLiteral(name: name, literal: argument, call: call))
        }
        return result
    }

    /// Colour sets this file names, by literal or by Xcode's generated asset symbol.
    func colorNameUses(_ lines: LineTable) -> [ColorNameUse] {
        var uses = colorNameLiterals.map { literal in
            let position = lines.position(of: literal.literal.positionAfterSkippingLeadingTrivia.utf8Offset)
            return ColorNameUse(name: literal.name, line: position.line, column: position.column, viaSymbol: false)
        }
        // Look up whichever is smaller: the file's identifiers or the catalog's symbols.
        var seen: Set<String> = []
        func record(_ symbol: String, _ name: String) {
            guard !seen.contains(name), let offset = index.references[symbol]?.first else { return }
            seen.insert(name)
            let position = lines.position(of: offset)
            uses.append(ColorNameUse(name: name, line: position.line, column: position.column, viaSymbol: true))
        }
        if context.colorSymbols.count < index.references.count {
            for (symbol, name) in context.colorSymbols { record(symbol, name) }
        } else {
            for symbol in index.references.keys { if let name = context.colorSymbols[symbol] { record(symbol, name) } }
        }
        uses.sort { ($0.line, $0.column, $0.name) < ($1.line, $1.column, $1.name) }
        return uses
    }
}

/// The symbols Xcode generates for a colour set (`ColorResource`): lower camel case of the
/// name's last path component, also without a trailing "Color" ("AccentColor" → `accent`).
enum ColorSymbols {
    static func generated(for name: String) -> [String] {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        let words = last.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " || $0 == "." })
        guard let first = words.first else { return [] }
        var symbol = first.prefix(1).lowercased() + first.dropFirst()
        for word in words.dropFirst() { symbol += word.prefix(1).uppercased() + word.dropFirst() }
        // Xcode drops a trailing "Color": "AccentColor" is `.accent`, never `.accentColor`.
        if symbol.hasSuffix("Color"), symbol.count > 5 { return [String(symbol.dropLast(5))] }
        return [symbol]
    }
}
