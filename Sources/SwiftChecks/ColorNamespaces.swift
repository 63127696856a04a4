import AuditModel
import SwiftParser
import SwiftSyntax

/// Colours an app names through its own types, declared in one file and shown in others:
///
/// - a namespace's constants: `enum Palette { static let text = Color("Text") }` makes
///   `Palette.text` the set "Text", and `extension Theme { enum Generic { static let text =
///   Theme.ink } }` makes `Theme.Generic.text` whatever `Theme.ink` is;
/// - a wrapper type whose cases name colour sets: `enum BeamColor { case Niobium; var nsColor:
///   NSColor { NSColor(named: String(describing: self))! }; var swiftUI: Color { Color(nsColor) } }`
///   makes `BeamColor.Niobium.swiftUI` the set "Niobium". A wrapper is believed only when every
///   case it declares outside `#if` is a colour set of the repository's catalogs, and only through
///   a converter that maps the case to its set by name (`rawValue`, `String(describing: self)`,
///   `"\(self)"`) with no opacity of its own, or one that converts such a converter.
///
/// Per-file facts are read from the same files as `ColorTokens` and cached with them; they are
/// resolved once every file was read, against the catalogs' set names.
public struct ColorNamespaceFacts: Hashable, Sendable, Codable {
    /// A static constant's value as written, by its dotted path (`Palette.text`).
    public enum Value: Hashable, Sendable, Codable {
        /// A colour the reader names (`Color("Text")`, `.white`, a literal).
        case color(ColorExpression)
        /// Another dotted path, resolved with every file's facts (`BeamColor.Niobium`).
        case path(String)
        /// A wrapper case carrying a set's name: `BeamColor.Custom(named: "Window")` is
        /// `path` "BeamColor.Custom", `name` "Window".
        case namedCase(path: String, name: String)
    }

    /// What a file says about a wrapper type (its declaration or an extension of it).
    public struct Wrapper: Hashable, Sendable, Codable {
        /// Cases without associated values declared outside `#if`, with the set name each maps
        /// to (its string raw value, else its name); nil where this file does not declare the type.
        public var cases: [String: String]? = nil
        /// Whether the declaration's raw type is not `String` (then `rawValue` names no set).
        public var nonStringRawType = false
        /// Cases with one `String` associated value (`Custom(named:)`).
        public var stringCases: Set<String> = []
        /// Converters mapping the case to its set by its name, and by its raw value.
        public var byName: Set<String> = []
        public var byRawValue: Set<String> = []
        /// Converters converting another one (`swiftUI` → `nsColor`).
        public var delegating: [String: String] = [:]
    }

    public var constants: [String: Value] = [:]
    public var wrappers: [String: Wrapper] = [:]
    public var isEmpty: Bool { constants.isEmpty && wrappers.isEmpty }

    public init() {}
}

/// A colour a dotted path names: `wrapper` is the app's type the value still has to be converted
/// from (`BeamColor.Niobium` needs `.swiftUI`), nil for a colour as it is.
public struct NamespacedColor: Hashable, Sendable {
    public var value: ColorExpression
    public var wrapper: String?
}

/// Every file's namespace facts, resolved.
public struct ColorNamespaces: Hashable, Sendable {
    public var colors: [String: NamespacedColor] = [:]
    /// Per wrapper type, the members that turn it into its colour.
    public var converters: [String: Set<String>] = [:]

    public static let empty = ColorNamespaces()
    public var isEmpty: Bool { colors.isEmpty }

    /// A stable description for cache keys.
    public var digestInput: String {
        colors.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value.value.digestInput + "@" + ($0.value.wrapper ?? "") }.joined(separator: "\n")
            + "\n" + converters.sorted { $0.key < $1.key }.map { $0.key + ":" + $0.value.sorted().joined(separator: "|") }.joined(separator: ",")
    }

    /// `base.member` as a colour: a constant at that path, or a converter applied to a wrapper value.
    func color(base: String, member: String) -> ColorExpression? {
        if let constant = colors[base + "." + member], constant.wrapper == nil { return constant.value }
        if let wrapped = colors[base], let wrapper = wrapped.wrapper, converters[wrapper]?.contains(member) == true {
            return wrapped.value
        }
        return nil
    }

    /// Resolves the files' facts. `isColorSet` says whether a name is a set of the catalogs. A path
    /// two files give different values, and a wrapper two files declare, are not known.
    public static func resolve(_ files: [ColorNamespaceFacts], isColorSet: (String) -> Bool) -> ColorNamespaces {
        var constants: [String: ColorNamespaceFacts.Value] = [:]
        var conflicting = Set<String>()
        var wrappers: [String: ColorNamespaceFacts.Wrapper] = [:]
        var declaredTwice = Set<String>()
        for file in files {
            for (path, value) in file.constants {
                if let known = constants[path], known != value { conflicting.insert(path) } else { constants[path] = value }
            }
            for (type, facts) in file.wrappers {
                var merged = wrappers[type] ?? ColorNamespaceFacts.Wrapper()
                if let cases = facts.cases {
                    if merged.cases != nil { declaredTwice.insert(type) }
                    merged.cases = cases
                    merged.nonStringRawType = facts.nonStringRawType
                }
                merged.stringCases.formUnion(facts.stringCases)
                merged.byName.formUnion(facts.byName)
                merged.byRawValue.formUnion(facts.byRawValue)
                merged.delegating.merge(facts.delegating) { first, _ in first }
                wrappers[type] = merged
            }
        }
        for path in conflicting { constants[path] = nil }

        var result = ColorNamespaces()
        var stringCases: [String: Set<String>] = [:]
        for (type, wrapper) in wrappers where !declaredTwice.contains(type) {
            guard let cases = wrapper.cases, !cases.isEmpty else { continue }
            let byRawValue = wrapper.nonStringRawType ? [] : wrapper.byRawValue
            var converters = wrapper.byName.union(byRawValue)
            guard !converters.isEmpty else { continue }
            // A converter by raw value and one by name disagree where a raw value is not the name.
            if !wrapper.byName.isEmpty, !byRawValue.isEmpty, cases.contains(where: { $0.key != $0.value }) { continue }
            let setNames = wrapper.byName.isEmpty ? cases : Dictionary(uniqueKeysWithValues: cases.keys.map { ($0, $0) })
            guard setNames.values.allSatisfy(isColorSet) else { continue }
            var grew = true
            while grew {
                grew = false
                for (converter, source) in wrapper.delegating where converters.contains(source) && !converters.contains(converter) {
                    converters.insert(converter)
                    grew = true
                }
            }
            result.converters[type] = converters
            stringCases[type] = wrapper.stringCases
            for (name, set) in setNames { result.colors[type + "." + name] = NamespacedColor(value: .asset(set), wrapper: type) }
        }

        func resolved(_ path: String, depth: Int) -> NamespacedColor? {
            if let known = result.colors[path] { return known }
            guard depth < 8 else { return nil }
            if let value = constants[path] { return resolved(value, depth: depth + 1) }
            // `BeamColor.Niobium.swiftUI`: a converter applied to a wrapper value.
            guard let dot = path.lastIndex(of: ".") else { return nil }
            let base = String(path[..<dot]), member = String(path[path.index(after: dot)...])
            guard let wrapped = resolved(base, depth: depth + 1), let wrapper = wrapped.wrapper,
                  result.converters[wrapper]?.contains(member) == true else { return nil }
            return NamespacedColor(value: wrapped.value, wrapper: nil)
        }
        func resolved(_ value: ColorNamespaceFacts.Value, depth: Int) -> NamespacedColor? {
            switch value {
            case .color(let color): return NamespacedColor(value: color, wrapper: nil)
            case .path(let path): return resolved(path, depth: depth)
            case .namedCase(let path, let name):
                guard let dot = path.lastIndex(of: ".") else { return nil }
                let type = String(path[..<dot]), caseName = String(path[path.index(after: dot)...])
                guard stringCases[type]?.contains(caseName) == true, isColorSet(name) else { return nil }
                return NamespacedColor(value: .asset(name), wrapper: type)
            }
        }
        for (path, value) in constants where result.colors[path] == nil {
            if let color = resolved(value, depth: 0) { result.colors[path] = color }
        }
        return result
    }
}

extension ColorNamespaceFacts {
    static let colorTypes: Set<String> = ["Color", "SwiftUI.Color", "UIColor", "UIKit.UIColor", "NSColor", "AppKit.NSColor"]

    /// Whether a file may declare namespace colours: a line holding `static` before `Color`
    /// (`static let text = BeamColor.Niobium`, `static var ink: UIColor`), or an enum with a
    /// `var …: …Color` converter that maps itself by name (`rawValue`, `describing: self`,
    /// `\(self)`; views' `var tint: Color` properties are common, such enums are not). A byte
    /// search, so only such files are parsed again.
    public static func mayDeclare(_ bytes: [UInt8]) -> Bool {
        let color = Array("Color".utf8)
        guard ProjectFiles.occurs(color, in: bytes) else { return false }
        let mayConvert = ProjectFiles.occurs(Array("enum ".utf8), in: bytes)
            && ["rawValue", "describing: self", "\\(self)"].contains { ProjectFiles.occurs(Array($0.utf8), in: bytes) }
        var lineStart = 0
        var index = 0
        let count = bytes.count
        while index + color.count <= count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { lineStart = index + 1; index += 1; continue }
            if byte == UInt8(ascii: "C"), bytes[index ..< index + color.count].elementsEqual(color) {
                let line = bytes[lineStart ..< index]
                if Self.contains(line, "static ") || (mayConvert && Self.contains(line, "var ") && Self.contains(line, ":")) { return true }
                index += color.count
                continue
            }
            index += 1
        }
        return false
    }

    private static func contains(_ line: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard line.count >= needle.count else { return false }
        var start = line.startIndex
        while start + needle.count <= line.endIndex {
            if line[start ..< start + needle.count].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    /// The facts one parsed file states.
    static func read(_ tree: SourceFileSyntax, reader: ColorReader) -> ColorNamespaceFacts {
        var facts = ColorNamespaceFacts()
        for item in tree.statements {
            guard let declaration = item.item.as(DeclSyntax.self) else { continue }
            facts.read(declaration, prefix: nil, reader: reader)
        }
        return facts
    }

    private mutating func read(_ declaration: DeclSyntax, prefix: String?, reader: ColorReader) {
        let name: String
        let members: MemberBlockSyntax
        if let type = declaration.as(EnumDeclSyntax.self) {
            guard !Self.isPrivate(type.modifiers) else { return }
            name = type.name.text
            members = type.memberBlock
            readWrapperCases(type, path: prefix.map { $0 + "." + name } ?? name)
        } else if let type = declaration.as(StructDeclSyntax.self) {
            guard !Self.isPrivate(type.modifiers) else { return }
            name = type.name.text; members = type.memberBlock
        } else if let type = declaration.as(ClassDeclSyntax.self) {
            guard !Self.isPrivate(type.modifiers) else { return }
            name = type.name.text; members = type.memberBlock
        } else if let type = declaration.as(ExtensionDeclSyntax.self), prefix == nil {
            guard !Self.isPrivate(type.modifiers) else { return }
            name = type.extendedType.typeName
            // The colour types' own constants are `ColorTokens`.
            guard !Self.colorTypes.contains(name) && name != "ShapeStyle" else { return }
            members = type.memberBlock
        } else {
            return
        }
        let path = prefix.map { $0 + "." + name } ?? name
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                readVariable(variable, in: path, reader: reader)
            } else {
                read(member.decl, prefix: path, reader: reader)
            }
        }
    }

    private static func isPrivate(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate) }
    }

    private mutating func readWrapperCases(_ type: EnumDeclSyntax, path: String) {
        let inherited = type.inheritanceClause?.inheritedTypes.map { $0.type.typeName } ?? []
        let rawTypes: Set<String> = ["Int", "UInt", "Int8", "Int16", "Int32", "Int64", "Double", "Float", "Character"]
        var wrapper = wrappers[path] ?? Wrapper()
        var cases: [String: String] = [:]
        for member in type.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                if let parameters = element.parameterClause {
                    if parameters.parameters.count == 1, parameters.parameters.first?.type.typeName == "String" {
                        wrapper.stringCases.insert(element.name.text)
                    }
                    continue
                }
                let raw = element.rawValue.flatMap { $0.value.stringLiteralValue }
                cases[element.name.text] = raw ?? element.name.text
            }
        }
        guard !cases.isEmpty || !wrapper.stringCases.isEmpty else { return }
        wrapper.cases = cases
        wrapper.nonStringRawType = inherited.contains(where: rawTypes.contains)
        wrappers[path] = wrapper
    }

    private mutating func readVariable(_ variable: VariableDeclSyntax, in path: String, reader: ColorReader) {
        guard !Self.isPrivate(variable.modifiers), variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
        let isStatic = variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
        let annotation = binding.typeAnnotation?.type.typeName
        if isStatic {
            guard let expression = Self.constantValue(of: binding, isLet: variable.bindingSpecifier.tokenKind == .keyword(.let)),
                  let value = Self.value(of: expression, annotation: annotation, reader: reader) else { return }
            constants[path + "." + name] = value
            return
        }
        // A converter: a computed property of a colour type.
        guard let annotation, Self.colorTypes.contains(annotation), binding.initializer == nil,
              let body = Self.getterBody(binding) else { return }
        let reading = ConverterReading(body)
        guard !reading.changesTheColour else { return }
        var wrapper = wrappers[path] ?? Wrapper()
        if reading.loadsByName, reading.mapsByName { wrapper.byName.insert(name) }
        if reading.loadsByName, reading.mapsByRawValue { wrapper.byRawValue.insert(name) }
        if let source = reading.convertedProperty, body.count == 1, source != name { wrapper.delegating[name] = source }
        guard wrapper != Wrapper() else { return }
        wrappers[path] = wrapper
    }

    private static func getterBody(_ binding: PatternBindingSyntax) -> CodeBlockItemListSyntax? {
        guard let accessors = binding.accessorBlock?.accessors else { return nil }
        switch accessors {
        case .getter(let items): return items
        case .accessors(let list):
            guard list.count == 1, let getter = list.first, getter.accessorSpecifier.tokenKind == .keyword(.get) else { return nil }
            return getter.body?.statements
        @unknown default: return nil
        }
    }

    /// A `let`'s initializer, or a computed static's one expression; a `static var` with an
    /// initializer can be reassigned.
    private static func constantValue(of binding: PatternBindingSyntax, isLet: Bool) -> ExprSyntax? {
        if let initializer = binding.initializer { return isLet ? initializer.value : nil }
        guard let body = getterBody(binding), body.count == 1, let only = body.first?.item else { return nil }
        if let statement = only.as(ReturnStmtSyntax.self) { return statement.expression }
        return only.as(ExprSyntax.self)
    }

    private static func value(of expression: ExprSyntax, annotation: String?, reader: ColorReader) -> Value? {
        // `static let text: Theme = .ink` is `Theme.ink`.
        if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil {
            guard let annotation else { return nil }
            if colorTypes.contains(annotation) { return colorValue(expression, annotation, reader) }
            return .path(annotation + "." + member.declName.baseName.text)
        }
        if annotation.map(colorTypes.contains) ?? true, let color = colorValue(expression, annotation, reader) { return color }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1, call.trailingClosure == nil,
           let literal = call.arguments.first?.expression.stringLiteralValue,
           let callee = ExprSyntax.dottedName(call.calledExpression), callee.contains("."), !callee.hasPrefix(".") {
            return .namedCase(path: callee, name: literal)
        }
        if let path = ExprSyntax.dottedName(expression), path.contains("."), !path.hasPrefix("."),
           path.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) {
            return .path(path)
        }
        return nil
    }

    /// A colour the reader names, where the expression is plainly one: an initializer of a colour
    /// type, or a member of one (`UIColor.white`); not `Theme.ink`, which the reader cannot know.
    private static func colorValue(_ expression: ExprSyntax, _ annotation: String?, _ reader: ColorReader) -> Value? {
        let owner = annotation.map { String($0.split(separator: ".").last ?? "") } ?? "Color"
        let naming: ColorNaming = owner == "UIColor" || owner == "NSColor" ? .platform : .swiftUI
        var isColour = annotation != nil
        if let call = expression.as(FunctionCallExprSyntax.self), let type = call.initializedTypeName { isColour = isColour || colorTypes.contains(type) }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let name = ExprSyntax.dottedName(base) {
            isColour = isColour || colorTypes.contains(name)
        }
        guard isColour, let described = reader.describe(expression, naming), described.count == 1, let only = described.first else { return nil }
        return .color(only)
    }
}

/// What a converter's body does, leaving out the switch cases that bind an associated value
/// (`case .Custom(let name)`: those cases are not the ones mapped by name).
private struct ConverterReading {
    var mapsByName = false
    var mapsByRawValue = false
    var loadsByName = false
    var changesTheColour = false
    var convertedProperty: String?

    init(_ body: CodeBlockItemListSyntax) {
        var names: [String] = []
        for node in Self.nodes(of: Syntax(body)) {
            if let call = node.as(FunctionCallExprSyntax.self) {
                let callee = call.calleeName ?? ""
                if ["opacity", "withAlphaComponent", "blended", "mix", "highlight", "shadow", "lighter", "darker"].contains(callee) {
                    changesTheColour = true
                }
                if callee == "String", call.arguments.first?.label?.text == "describing",
                   call.arguments.first?.expression.is(DeclReferenceExprSyntax.self) == true,
                   call.arguments.first?.expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                    mapsByName = true
                }
                if call.arguments.contains(where: { $0.label?.text == "named" }) { loadsByName = true }
                if ["Color", "UIColor", "NSColor"].contains(callee), call.arguments.count == 1, call.arguments.first?.label == nil {
                    loadsByName = true
                }
            } else if let literal = node.as(StringLiteralExprSyntax.self) {
                for segment in literal.segments {
                    if let interpolation = segment.as(ExpressionSegmentSyntax.self), interpolation.expressions.count == 1,
                       interpolation.expressions.first?.expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                        mapsByName = true
                    }
                }
            } else if let reference = node.as(DeclReferenceExprSyntax.self) {
                if reference.baseName.text == "rawValue" { mapsByRawValue = true }
                if case .identifier = reference.baseName.tokenKind, reference.baseName.text.first?.isLowercase == true {
                    names.append(reference.baseName.text)
                }
            }
        }
        // `Color(self.nsColor)`, `Color(nsColor: nsColor)`, `nsColor`: one property, converted.
        let properties = Set(names)
        if properties.count == 1 { convertedProperty = properties.first }
    }

    private static func nodes(of root: Syntax) -> [Syntax] {
        var result: [Syntax] = []
        var stack = [root]
        while let node = stack.popLast() {
            if let clause = node.as(SwitchCaseSyntax.self), case .case(let label) = clause.label,
               label.caseItems.contains(where: { $0.pattern.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.let) || $0.tokenKind == .keyword(.var) } }) {
                continue
            }
            result.append(node)
            stack.append(contentsOf: node.children(viewMode: .sourceAccurate))
        }
        return result
    }
}
