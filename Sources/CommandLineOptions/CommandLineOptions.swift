/// One argument grammar for every subcommand: `--flag value`, `--flag=value`, switches, short
/// aliases (`-o FILE`), repeatable flags, positional arguments, and `--help`/`-h`. Errors are one
/// line a user can act on, with a "did you mean" for a mistyped flag.
public struct OptionSpec: Sendable {
    /// The first name is the canonical one, under which values are stored.
    public let names: [String]
    public let takesValue: Bool
    /// Whether the flag may be given more than once (each value kept, in order).
    public let repeatable: Bool

    public static func value(_ names: String..., repeatable: Bool = false) -> OptionSpec {
        OptionSpec(names: names, takesValue: true, repeatable: repeatable)
    }

    public static func flag(_ names: String...) -> OptionSpec {
        OptionSpec(names: names, takesValue: false, repeatable: true)
    }
}

public struct CommandSpec: Sendable {
    public let name: String
    public let options: [OptionSpec]
    /// How many positional arguments it takes at most.
    public let maximumPositional: Int
    /// What `a11y-audit NAME --help` prints.
    public let help: String

    public init(_ name: String, options: [OptionSpec], maximumPositional: Int = 0, help: String) {
        self.name = name
        self.options = options
        self.maximumPositional = maximumPositional
        self.help = help
    }

    /// Parses `arguments` (those after the command's name). `--` ends the options.
    public func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var byName: [String: OptionSpec] = [:]
        for option in options { for name in option.names { byName[name] = option } }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard parsed.positional.count < maximumPositional else {
                    throw .unexpectedArgument(command: name, argument: argument)
                }
                parsed.positional.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "--help" || argument == "-h" { parsed.helpRequested = true; continue }
            let (flag, inline) = Self.split(argument)
            guard let option = byName[flag] else {
                let known = options.flatMap(\.names).filter { $0.hasPrefix("--") } + ["--help"]
                throw .unknownOption(command: name, option: flag, suggestion: Suggestion.closest(to: flag, among: known))
            }
            let canonical = option.names[0]
            if option.takesValue {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { throw .missingValue(command: name, option: flag) }
                    value = arguments[index]
                    index += 1
                }
                if !option.repeatable, parsed.values[canonical] != nil { throw .repeated(command: name, option: flag) }
                parsed.values[canonical, default: []].append(value)
            } else {
                if inline != nil { throw .unexpectedValue(command: name, option: flag) }
                parsed.switches.insert(canonical)
            }
        }
        return parsed
    }

    /// `--format=json` → ("--format", "json"); `--format` → ("--format", nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

public struct ParsedArguments: Sendable {
    /// Canonical flag name → its values, in the order given.
    public var values: [String: [String]] = [:]
    public var switches: Set<String> = []
    public var positional: [String] = []
    public var helpRequested = false

    public init() {}

    /// The flag's value (its last, for a repeatable one).
    public func value(_ flag: String) -> String? { values[flag]?.last }
    public func all(_ flag: String) -> [String] { values[flag] ?? [] }
    public func has(_ flag: String) -> Bool { switches.contains(flag) }
}

public enum CommandLineError: Error, Equatable, CustomStringConvertible, Sendable {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(command: String, option: String, suggestion: String?)
    case missingValue(command: String, option: String)
    case unexpectedValue(command: String, option: String)
    case repeated(command: String, option: String)
    case unexpectedArgument(command: String, argument: String)
    /// A value the command refuses (`--jobs zero`), with what it takes.
    case badValue(command: String, message: String)

    /// The command whose help the message points at (nil: the tool's).
    public var command: String? {
        switch self {
        case .unknownCommand: nil
        case .unknownOption(let command, _, _), .missingValue(let command, _), .unexpectedValue(let command, _),
             .repeated(let command, _), .unexpectedArgument(let command, _), .badValue(let command, _): command
        }
    }

    /// One line: what is wrong, and a guess where one is close.
    public var message: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            "unknown command \"\(name)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
        case .unknownOption(_, let option, let suggestion):
            "unknown option \"\(option)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
        case .missingValue(_, let option): "\(option) needs a value"
        case .unexpectedValue(_, let option): "\(option) takes no value"
        case .repeated(_, let option): "\(option) is given twice"
        case .unexpectedArgument(let command, let argument): "\(command) does not take the argument \"\(argument)\""
        case .badValue(_, let message): message
        }
    }

    /// The message and where to read more.
    public var description: String {
        message + "\nsee 'a11y-audit " + (command.map { $0 + " " } ?? "") + "--help'"
    }
}

public enum Suggestion {
    /// The candidate nearest to `word` by edit distance, when it is close enough to be a typo
    /// (at most a third of the word's length, and at most 3 edits).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (String, Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(Array(word.lowercased()), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Damerau-Levenshtein (optimal string alignment): a swap of two letters is one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
