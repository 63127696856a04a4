/// Something the scan could not fully do: a file skipped, or Swift that did not parse cleanly.
/// Notes are reported beside findings; they are never silent.
public struct ScanNote: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
        /// A file that was not checked (reason says why: too large, not UTF-8, binary, …).
        case skipped
        /// Swift with syntax errors; what parsed was still checked.
        case parseError = "parse-error"
        /// A whole input (archive, config) that could not be read.
        case inputError = "input-error"
        /// A skipped group counted rather than listed (vendored code, files without UI imports).
        case summary
        /// A colour set name that several colour sets define: which one code gets depends on
        /// the target (or, within one catalog, is not defined).
        case duplicateColorName = "duplicate-color-name"
        /// What a baseline left out of the report, and how many of its entries match nothing
        /// any more (so it can be pruned).
        case baseline
    }
    public var kind: Kind
    public var file: String
    public var line: Int?
    public var message: String

    public init(kind: Kind, file: String, line: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }
}

/// A colour set named in code: `Color("Brand")`, `UIColor(named: "Brand")`, or a generated asset
/// symbol (`Color(.brand)`). Collected per file so the scan can tell which sets are used.
public struct ColorNameUse: Codable, Sendable, Hashable {
    public var name: String
    public var line: Int
    public var column: Int
    /// Through a generated symbol rather than a string literal.
    public var viaSymbol: Bool

    public init(name: String, line: Int, column: Int, viaSymbol: Bool) {
        self.name = name
        self.line = line
        self.column = column
        self.viaSymbol = viaSymbol
    }
}
