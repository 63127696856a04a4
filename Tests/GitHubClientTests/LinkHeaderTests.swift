import GitHubClient
import Testing

@Suite struct LinkHeaderTests {
    @Test func readsGitHubsOwnPaginationHeader() {
        // Recorded by octokit/fixtures (paginate-issues), page 1.
        let value = #"<https://api.github.com/repositories/1000/issues?per_page=3&page=2>; rel="next", <https://api.github.com/repositories/1000/issues?per_page=3&page=5>; rel="last""#
        let links = LinkHeader.parse(value)
        #expect(links.map(\.target) == ["https://api.github.com/repositories/1000/issues?per_page=3&page=2",
                                         "https://api.github.com/repositories/1000/issues?per_page=3&page=5"])
        #expect(links.map(\.relations) == [["next"], ["last"]])
        #expect(LinkHeader.target(of: "next", in: [value], relativeTo: "https://api.github.com/x")
            == "https://api.github.com/repositories/1000/issues?per_page=3&page=2")
        #expect(LinkHeader.target(of: "prev", in: [value], relativeTo: "https://api.github.com/x") == nil)
    }

    @Test func commasAndSemicolonsInsideTargetsAndQuotedStringsDoNotSplit() {
        let value = #"<https://h/a?q=1,2;x=3>; title="a, \"b\"; c"; rel="prev", <https://h/b?q=4,5>; rel=next"#
        let links = LinkHeader.parse(value)
        #expect(links.count == 2)
        #expect(links.first?.target == "https://h/a?q=1,2;x=3")
        #expect(links.first?.parameters.first == WebLink.Parameter(name: "title", value: #"a, "b"; c"#))
        #expect(links.first?.relations == ["prev"])
        #expect(links.last?.target == "https://h/b?q=4,5" && links.last?.relations == ["next"])
    }

    @Test func relationsAreCaseInsensitiveSpaceSeparatedAndOnlyTheFirstRelCounts() {
        let value = #"<https://h/1>; REL="Prev   NEXT"; rel="last", <https://h/2>;rel=first"#
        let links = LinkHeader.parse(value)
        #expect(links.first?.relations == ["prev", "next"])
        #expect(links.last?.relations == ["first"])
        #expect(LinkHeader.target(of: "next", in: [value], relativeTo: "https://h/") == "https://h/1")
        #expect(LinkHeader.target(of: "last", in: [value], relativeTo: "https://h/") == nil)
    }

    @Test func relativeTargetsResolveAgainstTheRequestURLAndSeveralFieldsCombine() {
        let fields = [#"<https://h/api/v3/x?page=1>; rel="prev""#, #"<?page=3>; rel="next""#]
        #expect(LinkHeader.target(of: "next", in: fields, relativeTo: "https://h/api/v3/orgs/o/repos?page=2")
            == "https://h/api/v3/orgs/o/repos?page=3")
        #expect(LinkHeader.target(of: "next", in: [#"</api/v3/organizations/7/repos?page=2>; rel="next""#],
                                  relativeTo: "https://h/api/v3/orgs/o/repos") == "https://h/api/v3/organizations/7/repos?page=2")
    }

    @Test func malformedAndEmptyElementsAreSkippedNotFatal() {
        #expect(LinkHeader.parse(#"garbage; rel="next", <https://h/ok>; rel="next""#).map(\.target) == ["https://h/ok"])
        #expect(LinkHeader.parse(#"<https://h/a>; title="never closed, <https://h/b>; rel="next""#).isEmpty)
        #expect(LinkHeader.parse(#", , <https://h/a>; rel="next" ,"#).map(\.target) == ["https://h/a"])
        #expect(LinkHeader.parse(#"<https://h/a>; rel="next" junk, <https://h/b>; rel="last""#).map(\.target) == ["https://h/b"])
        #expect(LinkHeader.parse("").isEmpty)
        #expect(LinkHeader.parse("<https://h/no-end").isEmpty)
    }
}

@Suite struct GitHubTextTests {
    @Test func cutsOnACharacterBoundaryWithinTheLimit() {
        // Flags, a family emoji and combining accents: several code units per character.
        let text = String(repeating: "Contrast 🇫🇷 👨‍👩‍👧 é́ ", count: 10)
        let cut = GitHubText.truncated(text, toCharacters: 140)
        #expect(cut.utf16.count <= 140)
        #expect(cut.unicodeScalars.count <= 140)
        #expect(cut.hasSuffix("…"))
        let kept = String(cut.dropLast())
        #expect(text.hasPrefix(kept))
        // No character was split: the kept part is a whole number of the original's characters.
        #expect(Array(text.prefix(kept.count)) == Array(kept))
        #expect(kept.utf16.count >= 140 - 1 - "👨‍👩‍👧".utf16.count)
    }

    @Test func leavesShortTextAlone() {
        let exact = String(repeating: "a", count: 140)
        #expect(GitHubText.truncated(exact, toCharacters: 140) == exact)
        #expect(GitHubText.truncated(exact + "b", toCharacters: 140) == String(repeating: "a", count: 139) + "…")
        #expect(GitHubText.truncated("héllo", toUTF8Bytes: 6) == "héllo")
        #expect(GitHubText.truncated("héllo", toUTF8Bytes: 5) == "h…")
    }
}
