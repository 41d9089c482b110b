import Foundation
import StopSheetClient
import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// A real `Server` on a real socket, driven the way clients drive it. Waits have upper bounds
/// only; nothing passes or fails on timing.
@Suite struct ServerTests {
    @Test func answersWithTheIdAsSent() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        #expect(try client.request(#"{"jsonrpc":"2.0","id":"a","method":"echo","params":[1,"two"]}"#)
            == ["jsonrpc": "2.0", "id": "a", "result": [1, "two"]])
        #expect(try client.request(#"{"jsonrpc":"2.0","id":1.50,"method":"boom"}"#)
            == ["jsonrpc": "2.0", "id": .number("1.50"), "error": ["code": -32001, "message": "Unknown stop", "data": "boom"]])
        #expect(try client.request(#"{"jsonrpc":"2.0","id":2,"method":"nope"}"#).errorCode == -32601)
    }

    @Test func hostileLinesGetErrorsAndTheConnectionStaysUsable() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let client = try harness.client()

        let invalidJSON = try client.request(#"{"jsonrpc":"2.0","id":1,"method":"echo""#)
        #expect(invalidJSON.errorCode == -32700)
        #expect(invalidJSON["id"] == .null)

        let invalidRequest = try client.request(#"{"jsonrpc":"1.0","id":2,"method":"echo"}"#)
        #expect(invalidRequest.errorCode == -32600)
        #expect(invalidRequest["id"] == 2)

        #expect(try client.request(#"{"jsonrpc":"2.0","id":3,"method":"nope"}"#).errorCode == -32601)

        #expect(client.send(Array(#"{"jsonrpc":"2.0","id":4,"method":"echo","params":[""#.utf8) + [0xC3, 0x28, 0xFF] + Array("\"]}\n".utf8)))
        let invalidUTF8 = try #require(client.readLine()).parsed
        #expect(invalidUTF8.errorCode == -32700)
        #expect(invalidUTF8["id"] == .null)

        let deep = try client.request(String(repeating: "[", count: 100_000))
        #expect(deep.errorCode == -32700)

        #expect(client.send(line: String(repeating: "x", count: 2 << 20)))
        let tooLarge = try #require(client.readLine()).parsed
        #expect(tooLarge.errorCode == -32003)
        #expect(tooLarge["id"] == .null)

        #expect(try client.request(#"{"jsonrpc":"2.0","id":5,"method":"echo","params":["still here"]}"#)["result"] == ["still here"])

        let errors = Dictionary(uniqueKeysWithValues: harness.server.requestCounters.errors.map { ($0.code, $0.count) })
        #expect(errors[-32700] == 3 && errors[-32600] == 1 && errors[-32003] == 1, "\(errors)")
    }

    @Test func randomAndMutatedLinesOnlyEverGetValidJSONBack() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        var random = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"{}[]":,0123456789.-eE+truefalsn \/u"#.utf8) + [0x00, 0x0D, 0x7F, 0x80, 0xC3, 0xED, 0xA0, 0xFF]
        let valid = Array(#"[{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[1,"\u00e9",null]}},{"jsonrpc":"2.0","id":"x","method":"slow"}]"#.utf8)
        var text: [UInt8] = []
        for index in 0..<2000 {
            if index.isMultiple(of: 2) {
                for _ in 0..<random.below(200) { text.append(alphabet[random.below(alphabet.count)]) }
            } else {
                var line = valid
                for _ in 0..<(1 + random.below(4)) { line[random.below(line.count)] = alphabet[random.below(alphabet.count)] }
                text += line
            }
            text.append(0x0A)
        }
        #expect(client.send(text))
        #expect(client.send(line: #"{"jsonrpc":"2.0","id":"end","method":"echo"}"#))
        var sawEnd = false
        while !sawEnd, let line = client.readLine() {
            let answer = try JSONParser.parse(line)
            let elements = answer.arrayValue ?? [answer]
            #expect(!elements.isEmpty && elements.allSatisfy { $0["jsonrpc"] == "2.0" && ($0["result"] != nil) != ($0["error"] != nil) }, "\(line)")
            sawEnd = answer["id"] == "end"
        }
        #expect(sawEnd)
    }

    @Test func oversizedLineIsReportedWhileItIsStillArriving() throws {
        var limits = ServerLimits()
        limits.maxLineBytes = 1024
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        // No newline yet: the error must come anyway, without the server buffering the rest.
        #expect(client.send(Array(repeating: UInt8(ascii: "y"), count: 8 << 10)))
        #expect(try #require(client.readLine()).parsed.errorCode == -32003)
        #expect(client.send(Array(repeating: UInt8(ascii: "y"), count: 8 << 10) + [0x0A]))
        #expect(try client.request(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)["id"] == 1)
    }

    @Test func notificationsGetNoAnswerAtAll() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        for method in ["echo", "nope", "boom", "slow", "inline"] {
            #expect(client.send(line: #"{"jsonrpc":"2.0","method":"\#(method)","params":[0]}"#))
        }
        #expect(client.send(line: #"[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"nope"}]"#))
        #expect(client.send(line: ""))
        // The first line back is the answer to the first request with an id.
        #expect(try client.request(#"{"jsonrpc":"2.0","id":"after","method":"echo"}"#)["id"] == "after")
    }

    @Test func batchesAnswerAsOneArrayInOrder() throws {
        var limits = ServerLimits()
        limits.maxBatch = 4
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let client = try harness.client()

        let answer = try client.request(
            #"[{"jsonrpc":"2.0","id":1,"method":"slow","params":["s"]},{"jsonrpc":"2.0","method":"echo"},"#
                + #"{"jsonrpc":"2.0","id":2,"method":"inline","params":["i"]},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#)
        let elements = try #require(answer.arrayValue)
        #expect(elements.map { $0["id"] } == [1, 2, 3])
        #expect(elements[0]["result"] == ["s"])
        #expect(elements[1]["result"] == ["i"])
        #expect(elements[2].errorCode == -32601)

        let tooMany = try client.request("[" + Array(repeating: #"{"jsonrpc":"2.0","id":1,"method":"echo"}"#, count: 5).joined(separator: ",") + "]")
        #expect(tooMany.errorCode == -32600)
        #expect(tooMany["id"] == .null)

        let empty = try client.request("[]")
        #expect(empty.errorCode == -32600)

        // All notifications, one deferred: no line at all; the next answer is the next request's.
        #expect(client.send(line: #"[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"slow"}]"#))
        #expect(try client.request(#"{"jsonrpc":"2.0","id":"next","method":"echo"}"#)["id"] == "next")
    }

    @Test func pipelinedRequestsAreAnsweredInOrderAcrossDeferredReplies() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        let methods = ["echo", "slow", "echo", "inline", "slow", "slow", "echo", "inline", "echo"]
        let lines = methods.enumerated().map { #"{"jsonrpc":"2.0","id":\#($0),"method":"\#($1)","params":[\#($0)]}"# + "\n" }
        #expect(client.send(Array(lines.joined().utf8)))
        for index in methods.indices {
            let answer = try #require(client.readLine()).parsed
            #expect(answer["id"] == .int(index))
            #expect(answer["result"] == [.int(index)])
        }
    }

    @Test func aDeferredReplyHoldsBackOnlyItsOwnConnection() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let held = try harness.client()
        #expect(held.send(line: #"{"jsonrpc":"2.0","id":1,"method":"hold"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"echo"}"#))
        #expect(harness.gate.waitForArrival())

        let other = try harness.client()
        #expect(try other.request(#"{"jsonrpc":"2.0","id":"o","method":"echo"}"#)["id"] == "o")
        // Request 2 is answered already if ordering is broken; a correct server sends nothing.
        #expect(held.readLine(timeout: 0.2) == nil)

        harness.gate.releaseAll(.result(.string("released")))
        #expect(try #require(held.readLine()).parsed["result"] == "released")
        #expect(try #require(held.readLine()).parsed["id"] == 2)
    }

    /// 60 clients at once, each pipelining 5 rounds of 40 requests (one deferred per round). Every
    /// answer must come back, in order, to the client that asked. A failure names the client, the
    /// request and what came back instead (the bytes, or nothing after how long, or how the
    /// connection ended), beside the server's counters, so a lost, late or misrouted answer is told
    /// apart from a client that could not connect or send.
    @Test func sixtyConcurrentClientsAreAllAnsweredCorrectly() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for clientIndex in 0..<60 {
            group.enter()
            let path = harness.path
            Thread {
                defer { group.leave() }
                if let failure = Self.pipelineFiveRounds(path: path, client: clientIndex) {
                    failures.withLock { $0.append(failure) }
                }
            }.start()
        }
        let finished = group.wait(timeout: .now() + 300) == .success
        let seen = failures.withLock { $0 }
        let counters = harness.server.counters
        #expect(finished, "the 60 clients had not finished after 300 s; failures so far: \(seen)")
        #expect(seen.isEmpty, "\(seen.count) of 60 clients saw a wrong answer: \(seen.prefix(5)); server counters: \(counters)")
        #expect(counters[.accepted] == 60, "server counters: \(counters)")
    }

    /// One client's share of the test above; nil when every answer was right, else what it saw.
    private static func pipelineFiveRounds(path: String, client clientIndex: Int) -> String? {
        let connection: LineConnection
        do { connection = try LineConnection(socketPath: path, sendTimeout: .seconds(60)) } catch {
            return "client \(clientIndex): connect failed: \(error)"
        }
        for round in 0..<5 {
            // 40 pipelined in one write, one of them deferred, then read them all.
            let ids = (0..<40).map { "\(clientIndex)-\(round)-\($0)" }
            let text = ids.enumerated().map { index, id in
                #"{"jsonrpc":"2.0","id":"\#(id)","method":"\#(index == 17 ? "inline" : "echo")","params":["\#(id)"]}"# + "\n"
            }.joined()
            do { try connection.send(Array(text.utf8)) } catch {
                return "client \(clientIndex) round \(round): send of 40 requests failed: \(error)"
            }
            for id in ids {
                let started = ContinuousClock.now
                let line: [UInt8]
                do { line = try connection.readLine(timeout: .seconds(60)) } catch {
                    return "client \(clientIndex), request \(id): \(error) after \(ContinuousClock.now - started)"
                }
                let answer = try? JSONParser.parse(line)
                guard answer?["id"] == .string(id), answer?["result"] == [.string(id)] else {
                    return "client \(clientIndex), request \(id): got \(String(decoding: line.prefix(300), as: UTF8.self).debugDescription)"
                }
            }
        }
        return nil
    }

    @Test func halfClosedClientGetsEveryAnswerThenEOF() throws {
        let harness = try TestServer()
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        // The last request has no newline: the end of input terminates it.
        #expect(client.send(Array((#"{"jsonrpc":"2.0","id":1,"method":"echo"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"slow"}"# + "\n"
            + #"{"jsonrpc":"2.0","id":3,"method":"echo"}"#).utf8)))
        client.shutdownWrite()
        for id in 1...3 {
            #expect(try #require(client.readLine()).parsed["id"] == .int(id))
        }
        #expect(client.waitForClose())
    }

    @Test func clientThatLeavesWithoutReadingIsCountedAndTheServerCarriesOn() throws {
        var limits = ServerLimits()
        limits.tickInterval = .milliseconds(20)  // only for `waitForTwoTicks`: nothing here times out
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        // Gone while its answer is deferred: the server learns of it from the hang-up.
        let leaver = try harness.client()
        #expect(leaver.send(line: #"{"jsonrpc":"2.0","id":1,"method":"hold"}"#))
        #expect(harness.gate.waitForArrival())
        leaver.close()
        #expect(harness.waitForTwoTicks())
        #expect(harness.server.counters[.closedVanished] == 1)
        harness.gate.releaseAll(.result(.string("too late")))

        // Gone with megabytes of answers unsent: EPIPE or ECONNRESET on write, or the hang-up.
        let flooder = try harness.client()
        let request = #"{"jsonrpc":"2.0","id":1,"method":"big","params":[100000]}"# + "\n"
        #expect(flooder.send(Array(String(repeating: request, count: 100).utf8)))
        flooder.close()

        let next = try harness.client()
        #expect(try next.request(#"{"jsonrpc":"2.0","id":"ok","method":"echo"}"#)["id"] == "ok")
        #expect(harness.waitForTwoTicks())
        #expect(harness.server.connectionCount == 1)
    }

    @Test func connectionOverTheLimitGetsOneBusyLineAndEOF() throws {
        var limits = ServerLimits()
        limits.maxConnections = 3
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let clients = try (0..<3).map { _ in try harness.client() }
        for client in clients {
            #expect(try client.request(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)["id"] == 1)
        }
        let fourth = try harness.client()
        let busy = try #require(fourth.readLine()).parsed
        #expect(busy == ["jsonrpc": "2.0", "id": nil, "error": ["code": -32004, "message": "Server busy", "data": "too many connections"]])
        #expect(fourth.waitForClose())
        #expect(harness.server.counters[.refusedBusy] == 1)

        // Ended and closed by the server, which counts a close before it closes.
        clients[0].shutdownWrite()
        #expect(clients[0].waitForClose())
        #expect(harness.server.connectionCount == 2)
        let fifth = try harness.client()
        #expect(try fifth.request(#"{"jsonrpc":"2.0","id":5,"method":"echo"}"#)["id"] == 5)
    }

    @Test func clientThatNeverReadsIsPausedThenClosedWhileOthersAreServed() throws {
        var limits = ServerLimits()
        limits.maxOutputBytes = 64 << 10
        limits.stuckTimeout = .milliseconds(300)
        limits.tickInterval = .milliseconds(20)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }

        let stuck = try harness.client()
        let request = #"{"jsonrpc":"2.0","id":1,"method":"big","params":[100000]}"# + "\n"
        // 200 answers of 100 kB would be 20 MB; the server must stop well short of that.
        #expect(stuck.send(Array(String(repeating: request, count: 200).utf8)))

        let other = try harness.client()
        #expect(try other.request(#"{"jsonrpc":"2.0","id":"o","method":"echo"}"#)["id"] == "o")

        // The close itself, unread answers and all; the server counts it before it closes.
        #expect(stuck.waitForPeerClose(timeout: patience))
        #expect(harness.server.counters[.closedStuck] == 1)
        #expect(stuck.waitForClose())
        #expect(try other.request(#"{"jsonrpc":"2.0","id":"p","method":"echo"}"#)["id"] == "p")
    }

    /// Over the memory budget a connection holding part of a line is neither read from nor
    /// answered; once the total falls back under, it is read again, though no event of its own
    /// brings it back (the rest of its line waits unread in the kernel).
    @Test func aConnectionHeldBackOverBudgetIsServedOnceTheTotalFallsUnder() throws {
        var limits = ServerLimits()
        limits.maxBufferedBytes = 64 << 10
        limits.tickInterval = .milliseconds(20)  // only for `waitForTwoTicks`: nothing here times out
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        // A megabyte answer whose client does not read yet: most of it stays in the server, over budget.
        let reader = try harness.client()
        let bigRequest = #"{"jsonrpc":"2.0","id":"big","method":"big","params":[1000000]}"# + "\n"
        #expect(reader.send(Array(bigRequest.utf8)))
        #expect(harness.waitForTwoTicks())
        // A request longer than one read over budget: the server takes part of it, then holds it back.
        let held = try harness.client()
        let text = String(repeating: "y", count: 20_000)
        let heldRequest = #"{"jsonrpc":"2.0","id":"held","method":"echo","params":["\#(text)"]}"# + "\n"
        #expect(held.send(Array(heldRequest.utf8)))
        // Accepted in the round of the first tick, read in the round of the third.
        #expect(harness.waitForTwoTicks() && harness.waitForTwoTicks())
        #expect(harness.server.counters[.bytesIn] < bigRequest.utf8.count + heldRequest.utf8.count, "held back: part of its line unread")

        // The reader takes its answer: the total falls under budget, and the held request is read and answered.
        let big = try #require(reader.readLine(), "\(reader.lastReadFailure ?? "")")
        #expect(big.parsed["id"] == "big" && big.utf8.count > 1_000_000)
        let answer = try #require(held.readLine(), "\(held.lastReadFailure ?? "")")
        #expect(answer.parsed["id"] == "held" && answer.parsed["result"] == [.string(text)])
    }

    /// A line longer than the whole budget (but within `maxLineBytes`) from a client alone:
    /// pausing it cannot bring the total down, since what it holds is part of a line that only
    /// more reading completes. It is read on and answered, not left paused until the idle timeout.
    @Test func aLineLongerThanTheBudgetIsReadAndAnswered() throws {
        var limits = ServerLimits()
        limits.maxBufferedBytes = 64 << 10
        limits.tickInterval = .milliseconds(20)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        let text = String(repeating: "z", count: 200_000)
        #expect(client.send(line: #"{"jsonrpc":"2.0","id":"long","method":"echo","params":["\#(text)"]}"#))
        let answer = try #require(client.readLine(), "\(client.lastReadFailure ?? "")")
        #expect(answer.parsed["id"] == "long" && answer.parsed["result"] == [.string(text)])
        #expect(try client.request(#"{"jsonrpc":"2.0","id":"next","method":"echo"}"#)["id"] == "next")
    }

    /// A line over `maxLineBytes` that is also over the budget gets its -32003 error, and the
    /// connection goes on with the next line, as under the budget.
    @Test func aLineOverTheLimitAndTheBudgetGetsItsError() throws {
        var limits = ServerLimits()
        limits.maxBufferedBytes = 64 << 10
        limits.maxLineBytes = 100_000
        limits.tickInterval = .milliseconds(20)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        let text = String(repeating: "z", count: 150_000)
        #expect(client.send(line: #"{"jsonrpc":"2.0","id":"long","method":"echo","params":["\#(text)"]}"#))
        let error = try #require(client.readLine(), "\(client.lastReadFailure ?? "")").parsed
        #expect(error["id"] == .null && error["error"]?["code"] == -32003, "\(error)")
        #expect(try client.request(#"{"jsonrpc":"2.0","id":"next","method":"echo"}"#)["id"] == "next")
    }

    /// Clients each holding part of a line, together over the budget: each is held back, and
    /// none can give bytes back without reading more. One at a time is let through (memory stays
    /// within the budget plus one line), so every one is answered.
    @Test func clientsHoldingPartsOfLinesOverTheBudgetAreEachAnswered() throws {
        var limits = ServerLimits()
        limits.maxBufferedBytes = 64 << 10
        limits.tickInterval = .milliseconds(20)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let texts = (0..<4).map { String(repeating: String($0), count: 40_000) }
        let lines = texts.enumerated().map { Array((#"{"jsonrpc":"2.0","id":"c\#($0.offset)","method":"echo","params":["\#($0.element)"]}"# + "\n").utf8) }
        let clients = try lines.map { _ in try harness.client() }
        // The first halves of all four lines (80 kB together): all read, the last read over budget.
        let halves = lines.map { $0.count / 2 }
        for (client, (line, half)) in zip(clients, zip(lines, halves)) { #expect(client.sendAvailable(Array(line[..<half])) == half) }
        #expect(harness.waitForTwoTicks() && harness.waitForTwoTicks())
        #expect(harness.server.counters[.bytesIn] == halves.reduce(0, +))
        // The rest of each: each client's next read holds it back too, with part of its line.
        for (client, (line, half)) in zip(clients, zip(lines, halves)) { #expect(client.sendAvailable(Array(line[half...])) == line.count - half) }
        for (index, client) in clients.enumerated() {
            let answer = try #require(client.readLine(), "\(index): \(client.lastReadFailure ?? "")").parsed
            #expect(answer["id"] == .string("c\(index)") && answer["result"] == [.string(texts[index])])
        }
    }

    @Test func idleConnectionsAreClosedButNotWhileADeferredReplyIsPending() throws {
        var limits = ServerLimits()
        limits.idleTimeout = .milliseconds(200)
        limits.tickInterval = .milliseconds(20)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }

        let waiting = try harness.client()
        #expect(waiting.send(line: #"{"jsonrpc":"2.0","id":"w","method":"hold"}"#))
        #expect(harness.gate.waitForArrival())

        let idle = try harness.client()
        #expect(try idle.request(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)["id"] == 1)
        #expect(idle.waitForClose())
        #expect(harness.server.counters[.closedIdle] == 1)

        // Quiet for longer than the idle client, but waiting on us: still open.
        harness.gate.releaseAll(.result(.string("done")))
        #expect(try #require(waiting.readLine()).parsed["result"] == "done")
    }

    @Test func stopFinishesInFlightRequestsThenReturns() throws {
        let harness = try TestServer()
        let busy = try harness.client()
        #expect(busy.send(line: #"{"jsonrpc":"2.0","id":"last","method":"hold"}"#))
        #expect(harness.gate.waitForArrival())
        let quiet = try harness.client()
        #expect(try quiet.request(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)["id"] == 1)

        harness.server.stop()
        #expect(quiet.waitForClose())
        #expect(throws: TestClient.Failure.self) { try harness.client() }

        harness.gate.releaseAll(.result(.string("answered")))
        #expect(try #require(busy.readLine()).parsed["result"] == "answered")
        #expect(busy.waitForClose())
        #expect(harness.waitUntilStopped())
        #expect(harness.finish())
    }

    /// The race of a restart: a client the loop accepted a moment before the stop writes its
    /// first request after the stop began. It is answered. Ordered by signals alone: the
    /// listener hands out connections in the order they were made, so once the second is
    /// answered the first was accepted; `onDrain` says the loop took the stop.
    @Test func aRequestSentAfterTheStopBeganIsAnswered() throws {
        var limits = ServerLimits()
        // A grace no run outlasts, so the request below comes within it however loaded the machine.
        limits.drainGrace = .seconds(3600)
        limits.drainTimeout = .seconds(3600)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let drained = DispatchSemaphore(value: 0)
        let openAtDrain = Locked<Int?>(nil)
        harness.server.onDrain = { open in
            openAtDrain.withLock { $0 = open }
            drained.signal()
        }

        let early = try harness.client()
        let witness = try harness.client()
        #expect(try witness.request(#"{"jsonrpc":"2.0","id":"w","method":"echo"}"#)["id"] == "w")

        harness.server.stop()
        #expect(drained.wait(timeout: .now() + patience) == .success)
        #expect(openAtDrain.withLock { $0 } == 2)
        #expect(throws: TestClient.Failure.self) { try harness.client() }

        #expect(try early.request(#"{"jsonrpc":"2.0","id":"after","method":"echo","params":[1]}"#) == ["jsonrpc": "2.0", "id": "after", "result": [1]])
        #expect(try witness.request(#"{"jsonrpc":"2.0","id":"again","method":"echo"}"#)["id"] == "again")
        // Each client that ends its side is closed once answered; the last one ends the stop.
        early.shutdownWrite()
        #expect(early.waitForClose())
        witness.shutdownWrite()
        #expect(witness.waitForClose())
        #expect(harness.waitUntilStopped())
    }

    /// A client that sends nothing holds the stop for the grace only: with a drain bound of an
    /// hour, it is closed (within the test's patience) and the loop returns.
    @Test func aSilentConnectionIsClosedWhenTheGraceEnds() throws {
        var limits = ServerLimits()
        limits.drainGrace = .milliseconds(100)
        limits.drainTimeout = .seconds(3600)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }
        let silent = try harness.client()
        let witness = try harness.client()
        #expect(try witness.request(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)["id"] == 1)

        harness.server.stop()
        #expect(silent.waitForClose())
        #expect(witness.waitForClose())
        #expect(harness.waitUntilStopped())
        #expect(harness.server.counters[.closedFinished] == 2)
    }

    @Test func stopGivesUpOnStuckRequestsAfterTheDrainTimeout() throws {
        var limits = ServerLimits()
        limits.drainTimeout = .milliseconds(200)
        let harness = try TestServer(limits: limits)
        let client = try harness.client()
        #expect(client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"hold"}"#))
        #expect(harness.gate.waitForArrival())
        harness.server.stop()
        #expect(harness.waitUntilStopped())
        #expect(client.waitForClose())
        #expect(harness.server.connectionCount == 0)
        #expect(harness.finish())
    }

    /// A notification queued by the loop's own work (push, after a store change) reaches its
    /// connection with no request of the client's to carry it: the queue wakes the loop for
    /// that connection, which writes the line at the end of the round.
    @Test func aNotificationQueuedByTheLoopsWorkIsSentWithoutARequest() throws {
        let queues = Locked<[StopSheetDaemon.NotificationQueue]>([])
        let harness = try TestServer(extra: { dispatcher in
            dispatcher.register("listen") { _, context in
                if let queue = context.notifications { queues.withLock { $0.append(queue) } }
                return .result(.null)
            }
        })
        defer { #expect(harness.finish()) }
        let client = try harness.client()
        #expect(try client.request(#"{"jsonrpc":"2.0","id":1,"method":"listen"}"#)["id"] == 1)
        harness.server.post {
            let notification = StopSheetDaemon.NotificationQueue.Notification(method: "changed", params: Array(#"{"v":1}"#.utf8))
            queues.withLock { $0.first }?.post(notification, key: .init(group: "g", item: "i"))
        }
        #expect(client.readLine() == #"{"jsonrpc":"2.0","method":"changed","params":{"v":1}}"#, "\(client.lastReadFailure ?? "")")
    }

    @Test func ticksPostedWorkAndPeerCredentials() throws {
        var limits = ServerLimits()
        limits.tickInterval = .milliseconds(10)
        let harness = try TestServer(limits: limits)
        defer { #expect(harness.finish()) }

        let ticked = DispatchSemaphore(value: 0)
        harness.server.onTick = { ticked.signal() }
        for _ in 0..<3 { #expect(ticked.wait(timeout: .now() + patience) == .success) }

        let posted = DispatchSemaphore(value: 0)
        harness.server.post { posted.signal() }
        #expect(posted.wait(timeout: .now() + patience) == .success)

        let client = try harness.client()
        let peer = try client.request(#"{"jsonrpc":"2.0","id":1,"method":"peer"}"#)
        #expect(peer["result"]?["uid"] == .int(Int(getuid())))
        #expect(peer["result"]?["pid"] == .int(Int(getpid())))

        #expect(throws: ServerError.alreadyStarted) { try harness.server.run() }
    }

    @Test func servesAnInheritedListeningSocket() throws {
        // As socket activation hands it over: blocking, bound and listening by someone else.
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/inherited.sock"
        let fd = try boundUnixSocket(at: path)
        #expect(listen(fd, 16) == 0)

        let server = Server(listeners: [fd], dispatcher: .testMethods(gate: Gate()), limits: ServerLimits())
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? server.run()
            done.signal()
        }.start()
        let client = try TestClient(path: path)
        #expect(try client.request(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)["id"] == 1)
        server.stop()
        #expect(done.wait(timeout: .now() + patience) == .success)
    }
}

/// A tiny seeded generator, so a failing garbage test fails the same way every run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension String {
    /// The line as JSON, or null when it is not JSON (the assertion then fails on its content).
    var parsed: JSON { (try? JSONParser.parse(self)) ?? .string("unparsable: \(prefix(200))") }
}
