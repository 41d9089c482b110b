import Testing
@testable import StopSheetDaemon

/// `--help`'s layout: each option's help wrapped into the column from `usageColumn` to 80, each
/// line holding every word that fits; the help starts on its flag's line when two spaces at least
/// are left between them, else on the line below.
@Suite struct ConfigUsageTests {
    @Test func aWrappedLineHoldsEveryWordThatFitsItsWidth() {
        #expect(Config.wrap("abcd efgh ij", width: 9) == ["abcd efgh", "ij"])
        #expect(Config.wrap("abcd efgh ij", width: 8) == ["abcd", "efgh ij"])
        #expect(Config.wrap("abcdefghij", width: 8) == ["abcdefghij"], "a word longer than the width has a line of its own")
    }

    @Test func eachFlagIsSetOffFromItsHelpByTwoSpacesOrStandsAlone() throws {
        let lines = Config.usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let column = Config.usageColumn
        for option in Config.options {
            let head = "  " + option.flag + (option.placeholder.map { " " + $0 } ?? "")
            let index = try #require(lines.firstIndex { $0 == head || $0.hasPrefix(head + " ") }, "\(head)")
            let line = lines[index]
            #expect(line.count <= 80, "\(line)")
            if head.count <= column - 2 {
                #expect(line.prefix(column) == head + String(repeating: " ", count: column - head.count), "\(line)")
                #expect(line.dropFirst(column).first != " ", "\(line)")
            } else {
                #expect(line == head, "a flag too long to leave two spaces stands alone")
                #expect(lines[index + 1].hasPrefix(String(repeating: " ", count: column)) && lines[index + 1].dropFirst(column).first != " ")
            }
        }
    }

    /// A default is written as it would be given: whole seconds without a fraction, a level and
    /// a notify-ready choice by their words, a count as it is.
    @Test func defaultsAreWrittenAsTheyWouldBeGiven() {
        let defaults = Dictionary(uniqueKeysWithValues: Config.documentedDefaults.map { ($0.flag, $0.value) })
        #expect(defaults["--alerts-interval"] == "60" && defaults["--stations-interval"] == "3600" && defaults["--idle-timeout"] == "0")
        #expect(defaults["--http-timeout"] == String(Int(Config.defaults.httpTimeout)))
        #expect(defaults["--log-level"] == "notice" && defaults["--notify-ready"] == Config.defaults.notifyReady.rawValue)
        #expect(defaults["--max-batch"] == "64" && defaults["--config"] == .some(nil))
    }
}
