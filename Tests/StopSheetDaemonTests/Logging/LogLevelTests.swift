import Testing
@testable import StopSheetDaemon

/// `--log-level`'s threshold, by syslog's priorities (journald's `PRIORITY=`): a smaller number is
/// more urgent, and a threshold writes the messages of its own level and every more urgent one.
@Suite struct LogLevelTests {
    @Test func aThresholdShowsItsOwnLevelAndEveryMoreUrgentOne() {
        for threshold in LogLevel.allCases {
            for level in LogLevel.allCases {
                #expect(threshold.shows(level) == (level.rawValue <= threshold.rawValue), "\(level) at threshold \(threshold)")
            }
        }
        #expect(LogLevel.allCases.map(\.rawValue) == [2, 3, 4, 5, 6, 7] && LogLevel(name: "NOTICE") == .notice && LogLevel(name: "loud") == nil)
    }
}
