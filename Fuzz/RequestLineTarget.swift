import Glibc
@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): bytes a client sends, through the very `LineFramer` and `Session` the
/// serving loop gives a connection (framing, the exact-bytes fast path, the general parser, batches,
/// deferred answers) minus the socket, dispatching to the real methods over a store holding the real CTA fixtures.
///
/// Beyond "does not crash": every answer line is one JSON value, a JSON-RPC 2.0 response (or a
/// batch of them) with exactly one of `result` and `error`, or a push notification; and no
/// subscription outlives the input's connection.
///
/// Input layout: byte 0 picks the peer (bit 0: root or nobody, for `refresh`) and the read size
/// (bits 1–7); the rest is the byte stream.
public func requestLineFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let control = data[0]
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let peer = control & 1 == 0 ? PeerCredentials(pid: 1, uid: 0, gid: 0) : PeerCredentials(pid: 2, uid: 65534, gid: 65534)
    let readSize = Int(control >> 1) + 1

    // The loop's inbox hand-over, on one thread: a deferred answer is kept and resumed at once.
    let inbox = FuzzInbox()
    let (host, subscriptions) = FuzzService.makeHost()
    let session = Session(peer: peer, host: host) { inbox.pending.append($0) }
    var input = LineFramer(maxLineBytes: host.limits.maxLineBytes)
    let output = FuzzOutput()
    // Each read is a round of the loop: the lines of one read may share exact-route replies.
    func answerLines(atEnd: Bool, round: Int) {
        while true {
            _ = session.answer(&input, into: &output.buffer, outputLimit: .max, inputEnded: atEnd, now: Int64(round))
            output.deliver()
            guard !inbox.pending.isEmpty else { return }
            precondition(session.resume(inbox.pending.removeFirst(), into: &output.buffer), "a fresh resumption was refused")
            output.deliver()
        }
    }
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + readSize)
        input.append(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
        offset = end
        answerLines(atEnd: false, round: offset)
    }
    answerLines(atEnd: true, round: offset + 1)
    precondition(!session.isWaiting && !input.hasBufferedBytes, "input left unanswered")
    // Push: the data changes and changes back, as a refresh would; every subscription the input
    // made is told, through the same queue and lines, and then ends with the connection.
    subscriptions.update(to: FuzzService.changed)
    subscriptions.update(to: FuzzService.store.current)
    answerLines(atEnd: true, round: offset + 2)
    session.end()
    let out = output.received
    precondition(subscriptions.counters.subscriptions.load(ordering: .relaxed) == 0, "a subscription outlived its connection")

    for line in out.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
        let json: JSON
        do { json = try JSONParser.parse(line, maxDepth: 10_000) } catch {
            fatalError("answer is not JSON (\(error)): \(String(decoding: line.prefix(300), as: UTF8.self))")
        }
        if json["id"] == nil, json["method"] != nil {
            precondition(json["jsonrpc"] == "2.0" && json["params"]?["subscription"] != nil && json["params"]?["seq"]?.intValue ?? 0 >= 1,
                         "not a notification: \(json.encodedString.prefix(300))")
            continue
        }
        let responses = json.arrayValue ?? [json]
        precondition(!responses.isEmpty, "an empty batch answer")
        for response in responses {
            precondition(response["jsonrpc"] == "2.0", "no jsonrpc member: \(response.encodedString.prefix(300))")
            precondition((response["result"] == nil) != (response["error"] == nil), "not one of result/error: \(response.encodedString.prefix(300))")
        }
    }
    precondition(out.isEmpty || out.last == UInt8(ascii: "\n"), "an answer without its newline")
    return 0
}

/// The connection's output, its bytes read back through a socket pair as a client would get them.
final class FuzzOutput {
    var buffer = OutputBuffer()
    private(set) var received: [UInt8] = []
    private let writer: Int32, reader: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0, "socketpair: errno \(errno)")
        (writer, reader) = (fds[0], fds[1])
    }

    deinit {
        close(writer)
        close(reader)
    }

    /// Sends what was written and reads it back, in turns, until all of it arrived.
    func deliver() {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            guard case .sent = buffer.send(to: writer) else { preconditionFailure("send to the socket pair failed") }
            while true {
                let count = read(reader, &chunk, chunk.count)
                guard count > 0 else { break }
                received += chunk[..<count]
            }
            if buffer.unsent == 0 { return }
        }
    }
}

/// Resumptions handed back by the session, on the fuzzing thread only.
final class FuzzInbox: @unchecked Sendable {
    var pending: [Session.Resumption] = []
}

/// The real methods over the fixtures. The refreshers are never started: `refresh` is answered
/// by the real handler, and its `.later` is completed at once with the store's status instead of
/// by a refresher thread.
enum FuzzService {
    struct NoSource: Source {
        var url: String { "fuzz:none" }
        func fetch(validators: CacheValidators?, stop: StopFlag) -> Result<Fetched, FetchFailure> { .failure(FetchFailure("fuzzing")) }
    }

    /// Stopped at the capture: every input sees the same sheets.
    static let clock = DaemonClock { FuzzFixtures.capturedAt }

    static let store: Store = {
        let store = Store(alertsSource: "fuzz:alerts", stationsSource: "fuzz:stations", clock: clock, zones: FuzzFixtures.zones)
        store.install(stations: FuzzFixtures.stations, at: FuzzFixtures.capturedAt)
        store.install(alerts: FuzzFixtures.alerts, at: FuzzFixtures.capturedAt)
        return store
    }()

    static let dispatcher: Dispatcher = {
        let refreshers = CacheName.allCases.map { Refresher(cache: $0, source: NoSource(), interval: 60, store: store) }
        var dispatcher = Dispatcher()
        StopSheetService(store: store, refreshers: refreshers, connections: { 1 }, clock: clock).register(in: &dispatcher)
        let real = dispatcher
        dispatcher.register("refresh") { params, context in
            let reply = real.reply(to: RPCRequest(id: nil, method: "refresh", params: params), context: context)
            guard case .later = reply else { return reply }
            return .later { complete in complete(.result(CacheStatus.encodedRefreshed([.alerts: store.status(.alerts)], at: FuzzFixtures.capturedAt, in: store.zone).bytes)) }
        }
        return dispatcher
    }()

    /// Each input is one connection to a daemon of its own as far as push goes, so its
    /// subscription ids start at "s1" (a seed can unsubscribe) and small limits are reachable.
    static func makeHost() -> (SessionHost, SubscriptionRegistry) {
        var pushLimits = SubscriptionLimits()
        (pushLimits.maxSubscriptions, pushLimits.maxSubscriptionStops, pushLimits.maxSubscribedStops) = (4, 8, 12)
        let subscriptions = SubscriptionRegistry(service: StopSheetService(store: store, refreshers: [], connections: { 1 }, clock: clock),
                                                 limits: pushLimits, counters: SubscriptionCounters())
        var withPush = dispatcher
        subscriptions.register(in: &withPush)
        // A small line limit, so the fuzzer reaches the overflow path with inputs it can mutate.
        var limits = ServerLimits()
        (limits.maxLineBytes, limits.maxBatch, limits.maxDepth) = (2048, 8, 16)
        let host = SessionHost(dispatcher: withPush, limits: limits, counters: ServerCounterTable())
        return (host, subscriptions)
    }

    /// The fixtures without their alerts: every train sheet differs from the store's.
    static let changed: Generation = {
        let current = store.current
        let encoded = EncodedSnapshot(.build(stations: FuzzFixtures.stations, alerts: [], now: FuzzFixtures.capturedAt), zone: FuzzFixtures.zones.chicago)
        return Generation(encoded, alerts: current.alerts, stations: current.stations, facilities: current.facilities, zones: current.zones)
    }()
}
