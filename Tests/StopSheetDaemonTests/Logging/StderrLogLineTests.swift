@testable import StopSheetDaemon
import Testing

/// The line `StderrLogSink` writes: `<priority>` when stderr is the journal's stream, else a word
/// for warnings and worse only (`warning: …`), then the message and each field, all on one line.
@Suite struct StderrLogLineTests {
    func entry(_ level: LogLevel, _ message: String, _ fields: [(String, String)] = []) -> LogEntry {
        LogEntry(level: level, message: message, fields: fields, file: "", line: 0, function: "")
    }

    @Test func theJournalGetsEveryLevelsPriorityNumber() {
        let sink = StderrLogSink(priorityPrefix: true)
        for level in LogLevel.allCases {
            #expect(sink.line(entry(level, "m")) == "<\(level.rawValue)>m")
        }
    }

    @Test func elsewhereOnlyWarningsAndWorseAreNamed() {
        let sink = StderrLogSink(priorityPrefix: false)
        #expect(sink.line(entry(.critical, "m")) == "critical: m")
        #expect(sink.line(entry(.error, "m")) == "error: m")
        #expect(sink.line(entry(.warning, "m")) == "warning: m")
        #expect(sink.line(entry(.notice, "m")) == "m")
        #expect(sink.line(entry(.info, "m")) == "m")
        #expect(sink.line(entry(.debug, "m")) == "m")
    }

    /// Neither the message nor a field's value can end the line and start a forged entry.
    @Test func fieldsFollowTheMessageOnItsOneLine() {
        let sink = StderrLogSink(priorityPrefix: true)
        let line = sink.line(entry(.notice, "refresh failed\n<2>forged", [("UPSTREAM", "a\nb"), ("STOPSHEET_EVENT", "refresh")]))
        #expect(line == "<5>refresh failed\\n<2>forged UPSTREAM=a\\nb STOPSHEET_EVENT=refresh")
    }
}
