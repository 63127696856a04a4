import CommandLineOptions
import Testing

struct CommandLineOptionsTests {
    let scan = CommandSpec("scan", options: [
        .value("--format"), .value("--output", "-o"), .flag("--verbose", "-v"), .value("--rule", repeatable: true),
    ], maximumPositional: 2, help: "Usage: a11y-audit scan")

    @Test func readsSpacedAndInlineValuesAliasesSwitchesAndPositionals() throws {
        let parsed = try scan.parse(["App", "--format=json", "-o", "out.json", "-v", "--rule", "a", "--rule=b", "--", "-odd"])
        #expect(parsed.value("--format") == "json")
        #expect(parsed.value("--output") == "out.json")
        #expect(parsed.has("--verbose"))
        #expect(parsed.all("--rule") == ["a", "b"])
        #expect(parsed.positional == ["App", "-odd"], "after --, a leading dash is a file name")
        #expect(!parsed.helpRequested)
        // An inline value may itself hold "=" or be empty.
        #expect(try scan.parse(["--output=a=b.json"]).value("--output") == "a=b.json")
        #expect(try scan.parse(["--output="]).value("--output") == "")
        #expect(try scan.parse(["-"]).positional == ["-"], "a lone dash is standard input, not an option")
    }

    @Test func helpIsAFlagOfEveryCommand() throws {
        #expect(try scan.parse(["--help"]).helpRequested)
        #expect(try scan.parse(["App", "-h"]).helpRequested)
    }

    @Test func mistakesAreOneLineWithWhereToReadMore() {
        #expect(throws: CommandLineError.unknownOption(command: "scan", option: "--fromat", suggestion: "--format")) {
            try scan.parse(["--fromat", "json"])
        }
        #expect(throws: CommandLineError.unknownOption(command: "scan", option: "--verbos", suggestion: "--verbose")) {
            try scan.parse(["--verbos"])
        }
        #expect(throws: CommandLineError.unknownOption(command: "scan", option: "--zzz", suggestion: nil)) { try scan.parse(["--zzz"]) }
        #expect(throws: CommandLineError.missingValue(command: "scan", option: "--format")) { try scan.parse(["--format"]) }
        #expect(throws: CommandLineError.unexpectedValue(command: "scan", option: "--verbose")) { try scan.parse(["--verbose=yes"]) }
        #expect(throws: CommandLineError.repeated(command: "scan", option: "--format")) { try scan.parse(["--format", "a", "--format", "b"]) }
        #expect(throws: CommandLineError.unexpectedArgument(command: "scan", argument: "c")) { try scan.parse(["a", "b", "c"]) }

        let error = CommandLineError.unknownOption(command: "scan", option: "--fromat", suggestion: "--format")
        #expect(error.description == "unknown option \"--fromat\"; did you mean \"--format\"?\nsee 'a11y-audit scan --help'")
        #expect(CommandLineError.unknownCommand("scna", suggestion: "scan").description
            == "unknown command \"scna\"; did you mean \"scan\"?\nsee 'a11y-audit --help'")
    }

    @Test func suggestionsAreCloseTyposOnly() {
        #expect(Suggestion.closest(to: "scna", among: ["scan", "fix", "rules"]) == "scan", "a swap is one edit")
        #expect(Suggestion.closest(to: "wroker", among: ["worker", "render"]) == "worker")
        #expect(Suggestion.closest(to: "fixed-font-szie", among: ["fixed-font-size", "hit-region-too-small"]) == "fixed-font-size")
        #expect(Suggestion.closest(to: "deploy", among: ["scan", "fix", "rules"]) == nil, "nothing close")
        #expect(Suggestion.closest(to: "x", among: ["fix"]) == nil)
    }
}
