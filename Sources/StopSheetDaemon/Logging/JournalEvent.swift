/// What a log entry is about: its `STOPSHEET_EVENT` field, what `journalctl STOPSHEET_EVENT=…`
/// matches. A closed set, so that an entry cannot name an event nobody documented:
/// docs/systemd.md's event table lists every case, and JournalEventTests holds the two together.
enum JournalEvent: String, CaseIterable, Sendable {
    case start, ready, stopping, stop
    case startFailed = "start_failed"
    case serveFailed = "serve_failed"
    case waitingForData = "waiting_for_data"
    case socketReplaced = "socket_replaced"
    case threadBusyAtExit = "thread_busy_at_exit"
    case reload
    case reloadFailed = "reload_failed"
    case reloadIgnored = "reload_ignored"
    case configWarning = "config_warning"
    case refresh
    case refreshFailed = "refresh_failed"
    case feedNotices = "feed_notices"
    case facilityPlacement = "facility_placement"
    case alertsBoundary = "alerts_boundary"
    case timeZone = "time_zone"
    case timeZoneUnknown = "time_zone_unknown"
    case clientError = "client_error"
    case unknownStop = "unknown_stop"
    case serverBusy = "server_busy"
    case acceptError = "accept_error"

    /// The entry's field.
    var field: (String, String) { ("STOPSHEET_EVENT", rawValue) }
}
