import StopSheetClient
import StopSheetCore
import StopSheetProtocol
import Testing

/// How the client reads answers of another protocol version than its own (`ProtocolVersion`'s
/// policy): members it does not know are a newer daemon's minor additions, and read past; a
/// required member that is not there is named, with its method, apart from any other misfit.
@Suite struct ClientReplyTests {
    /// `health` as a daemon of protocol 1 answered it: recorded by the doc examples in protocol.md
    /// before `configured`, `producedAt` and `clock` were added (git show 6f8ec54^:protocol.md, line 316).
    static let protocol1Health = #"""
{"status":"ready","alerts":{"loaded":true,"count":17,"loadedAt":"2026-12-01T05:51:30-06:00","lastAttemptAt":"2026-12-01T05:51:30-06:00","lastError":null,"source":"demo:alerts","consecutiveFailures":0,"nextRefreshAt":"2026-12-01T06:52:51-06:00","lastHTTPStatus":null,"ageSeconds":0,"stale":false,"note":null},"stations":{"loaded":true,"count":143,"loadedAt":"2026-12-01T05:51:30-06:00","lastAttemptAt":"2026-12-01T05:51:30-06:00","lastError":null,"source":"demo:stations","consecutiveFailures":0,"nextRefreshAt":"2026-12-01T06:54:22-06:00","lastHTTPStatus":null,"ageSeconds":0,"stale":false,"note":null},"uptimeSeconds":0,"connections":1,"version":"0.1.0","subscriptions":{"count":0,"stops":0,"queuedNotifications":0,"queuedNotificationBytes":0},"timeZone":"America/Chicago"}
"""#

    /// Today's `health` (protocol.md's example), with members no version has, at the top and in an entry.
    static let healthWithUnknownMembers = #"""
{"status":"ready","alerts":{"loaded":true,"count":17,"loadedAt":"2026-12-02T05:27:57-06:00","lastAttemptAt":"2026-12-02T05:27:57-06:00","lastError":null,"source":"demo:alerts","consecutiveFailures":0,"nextRefreshAt":"2026-12-02T06:30:21-06:00","lastHTTPStatus":null,"ageSeconds":0,"stale":false,"note":null,"producedAt":"2026-12-02T05:27:57-06:00","configured":true},"stations":{"loaded":true,"count":143,"loadedAt":"2026-12-02T05:27:57-06:00","lastAttemptAt":"2026-12-02T05:27:57-06:00","lastError":null,"source":"demo:stations","consecutiveFailures":0,"nextRefreshAt":"2026-12-02T06:26:07-06:00","lastHTTPStatus":null,"ageSeconds":0,"stale":false,"note":null,"producedAt":null,"configured":true,"notices":{"count":0,"first":[]}},"uptimeSeconds":0,"connections":1,"version":"0.1.0","subscriptions":{"count":0,"stops":0,"queuedNotifications":0,"queuedNotificationBytes":0},"agencies":["CTA"],"timeZone":"America/Chicago","clock":{"now":"2026-12-02T05:27:57-06:00","pinned":false}}
"""#.replacingOccurrences(of: #""uptimeSeconds":"#, with: #""fromTheFuture":{"a":[1]},"uptimeSeconds":"#)
        .replacingOccurrences(of: #""configured":true,"notices""#, with: #""configured":true,"mirror":"b","notices""#)

    @Test func anOlderAnswerNamesTheMethodAndTheMissingMember() throws {
        let json = try JSONParser.parse(Self.protocol1Health)
        do {
            _ = try Reply<Answer.Health>(json, of: "health")
            Issue.record("an answer without configured was read")
        } catch let error as ClientError {
            guard case .missingMember(let method, let member) = error else { Issue.record("not a missing member: \(error)"); return }
            #expect(method == "health" && member == "alerts.configured")
            #expect(error.description == "health answered without its required member alerts.configured (a daemon of an older protocol than \(ProtocolVersion.text)?)")
        }
    }

    @Test func membersTheClientDoesNotKnowAreReadPast() throws {
        let json = try JSONParser.parse(Self.healthWithUnknownMembers)
        #expect(json["fromTheFuture"] != nil && json["stations"]?["mirror"] == "b", "the unknown members are in the answer")
        let reply = try Reply<Answer.Health>(json, of: "health")
        #expect(reply.status == .ready && reply.stations.count == 143 && reply.alerts.configured)
        #expect(reply.json == json, "the JSON is kept as sent")
    }

    @Test func anIllTypedMemberIsAnotherMisfit() throws {
        let json = try JSONParser.parse(Self.healthWithUnknownMembers.replacingOccurrences(of: #""uptimeSeconds":0"#, with: #""uptimeSeconds":"0""#))
        #expect {
            _ = try Reply<Answer.Health>(json, of: "health")
        } throws: { error in
            guard case .unexpectedAnswer(let why) = error as? ClientError else { return false }
            return why.hasPrefix("health: ")
        }
    }
}
