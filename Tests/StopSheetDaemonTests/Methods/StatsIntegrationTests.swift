import StopSheetClient
import StopSheetCore
import Testing

/// `stats` from the real binary: what it counts matches what the test sent, on the fast path and
/// the general one, and a client's strings never become keys.
@Suite(.serialized) struct StatsIntegrationTests {
    @Test func statsCountWhatClientsSentAndWhatTheDaemonDid() throws {
        let daemon = try DaemonProcess(["--demo", "--alerts-interval", "3600"])
        var lines: [String] = []
        lines += Array(repeating: #"{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}"#, count: 3)  // fast path
        lines.append(#"{"jsonrpc":"2.0","id":2,"method":"stopSheet","params":{"stopId":"49999"}}"#)  // fast path, -32001
        lines.append(#"{ "jsonrpc":"2.0","id":3,"method":"stopSheet","params":{"stopId":"40380","stopType":"bus"}}"#)  // general
        lines += (0..<20).map { #"{"jsonrpc":"2.0","id":4,"method":"made-up-\#($0)"}"# }
        lines.append(#"{"jsonrpc":"2.0","id":5,"method":"refresh","params":{"what":"alerts"}}"#)
        lines.append(#"{"jsonrpc":"2.0","id":6,"method":"stats"}"#)
        let client = try daemon.client()
        var answers: [String] = []
        for line in lines {
            #expect(client.send(line: line))
            answers.append(try #require(client.readLine(), "no answer to \(line)"))
        }
        let stats = try #require(try JSONParser.parse(answers.last!)["result"])
        let reply = try AnswerDecoder.decode(Answer.Stats.self, from: stats)

        #expect(reply.requests("stopSheet") == 5)
        #expect(reply.requests("unknown") == 20)
        #expect(reply.requests("refresh") == 1 && reply.requests("stats") == 1 && reply.requests("health") == 0)
        let keys = stats["requests"]?.objectValue?.members.map(\.key) ?? []
        #expect(keys == ["alerts", "facilities", "health", "refresh", "rpc.discover", "station", "stationMap", "stations", "stats", "stopSheet", "subscribe", "unsubscribe", "version", "unknown"])
        #expect(reply.errors(-32001) == 1 && reply.errors(-32601) == 20 && reply.errors(-32700) == 0)
        #expect(stats["errors"]?.objectValue?.members.count == 13, "the documented codes and other, nothing more")
        #expect(reply.refreshes.alerts.ok == 2 && reply.refreshes.alerts.failed == 0)
        #expect(reply.refreshes.stations.ok == 1)
        #expect(stats["connections"]?["open"] == 1 && stats["connections"]?["accepted"] == 1)
        // Every byte sent was read before the stats line was answered; every answer before it counts.
        #expect(stats["bytes"]?["in"]?.intValue == lines.map { $0.utf8.count + 1 }.reduce(0, +))
        #expect(stats["bytes"]?["out"]?.intValue == answers.dropLast().map { $0.utf8.count + 1 }.reduce(0, +))
        #expect(reply.since != nil)

        // A client that ended is counted by how it closed, seen from a later connection. The
        // daemon counts a close before it closes: once the client sees its end, the count is in.
        client.shutdownWrite()
        #expect(client.waitForClose())
        let later = try daemon.typedClient()
        #expect(try later.stats().json["connections"]?["closed"]?["finished"]?.intValue == 1)
    }
}
