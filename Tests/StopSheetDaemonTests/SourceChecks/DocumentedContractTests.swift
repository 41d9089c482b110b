import Foundation
import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// What the pages say of the types, against the types: `stopsheetd --help`'s first line (and
/// stopsheetd(8)'s NAME line, which it repeats), the accessibility button's members as
/// protocol.md's sheet table gives them, the members of a sheet's `data` entry as README.md lists
/// them, and docs/systemd.md's table of journal events (`JournalEvent`).
@Suite struct DocumentedContractTests {
    static func page(_ path: String) throws -> String {
        try String(contentsOfFile: Fixtures.packageRoot + "/" + path, encoding: .utf8)
    }

    /// The backquoted names in `text`.
    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func helpsFirstLineSaysWhatTheDaemonServes() throws {
        let first = Config.usage.split(separator: "\n")[1]
        #expect(first == "Serve train stop sheets of any transit agency as JSON-RPC on a Unix socket:")
        let name = try #require(try Self.page("man/stopsheetd.8").split(separator: "\n").first { $0.hasPrefix(".Nd ") }).dropFirst(4)
        #expect(first.lowercased() == (name + ":").lowercased(), "stopsheetd(8)'s NAME line: \(name)")
    }

    @Test func protocolMdGivesTheButtonsMembers() throws {
        let row = try #require(try Self.page("protocol.md").split(separator: "\n").first { $0.hasPrefix("| `accessibilityButton` |") })
        let shape = try #require(row.firstMatch(of: /`\{([^}]*)\}`/)).1
        // `{tone, stepFree, accessibilityLabel: "Accessibility information", …}`: the names before each value.
        let members = shape.split(separator: ",").map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
        #expect(members == Answer.AccessibilityButton.CodingKeys.allCases.map(\.rawValue), "\(row)")
    }

    @Test func readmeGivesTheMembersOfASheetsData() throws {
        let page = try Self.page("README.md").replacingOccurrences(of: "\n", with: " ")
        let sentence = try #require(page.firstMatch(of: /carries `data` — each cache's ([^—]*) —/)).1
        #expect(Self.quoted(sentence) == Answer.Freshness.CodingKeys.allCases.map(\.rawValue), "\(sentence)")
    }

    @Test func systemdMdListsEveryJournalEvent() throws {
        let lines = try Self.page("docs/systemd.md").split(separator: "\n")
        let table = lines.drop { !$0.hasPrefix("| event | level | when |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        let documented = table.map { Self.quoted($0.split(separator: "|")[0]).first ?? "" }
        #expect(!documented.isEmpty, "docs/systemd.md's event table was not found")
        #expect(documented.sorted() == JournalEvent.allCases.map(\.rawValue).sorted())
        #expect(Set(documented).count == documented.count, "each event once")
    }
}
