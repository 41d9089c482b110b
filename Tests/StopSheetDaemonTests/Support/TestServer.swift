import Foundation
import StopSheetCore
@testable import StopSheetDaemon

/// A real `Server` on a real socket in a fresh temporary directory, run on a thread of its own,
/// with the test methods below. `finish()` stops it and waits for `run()` to return.
///
/// Methods: `echo` (params back, or null), `boom` (a -32001 error), `slow` (`.later`, done from
/// another thread shortly after), `inline` (`.later` completed before `start` returns), `hold`
/// (`.later` parked in `gate` until the test releases it), `peer` (the caller's credentials),
/// `big` (a string of `params[0]` bytes).
final class TestServer: Sendable {
    let directory: String
    let path: String
    let server: Server
    let gate = Gate()
    private let running = DispatchGroup()
    private let runError = Locked<ServerError?>(nil)

    /// `serve` runs the server on its thread: `run()`, or a loop test's own handler.
    init(limits: ServerLimits = ServerLimits(), extra: (inout Dispatcher) -> Void = { _ in },
         serve: @escaping @Sendable (Server) throws(ServerError) -> Void = { server throws(ServerError) in try server.run() }) throws {
        ignoreSIGPIPE()
        directory = try makeTemporaryDirectory()
        path = directory + "/s.sock"
        let listener = try bindUnixListener(path: path)
        var dispatcher = Dispatcher.testMethods(gate: gate)
        extra(&dispatcher)
        let server = Server(listeners: [listener], dispatcher: dispatcher, limits: limits)
        self.server = server
        running.enter()
        let thread = Thread { [self] in
            do throws(ServerError) { try serve(server) } catch { runError.withLock { $0 = error } }
            running.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func client() throws -> TestClient { try TestClient(path: path) }

    /// Returns once the loop has begun two ticks after this call (false after `timeout`): a
    /// wait for the loop to have seen what a client did before the call, such as hanging up.
    /// A tick runs at the top of a round, before its `epoll_wait`; so the round of the first
    /// tick begun after the call reads every event made before it (a hang-up closes the
    /// connection right there, counted), and the second tick begins after that round.
    func waitForTwoTicks(timeout: Double = patience) -> Bool {
        let ticked = DispatchSemaphore(value: 0)
        server.onTick = { ticked.signal() }
        defer { server.onTick = nil }
        return ticked.wait(timeout: .now() + timeout) == .success && ticked.wait(timeout: .now() + timeout) == .success
    }

    /// Waits for `run()` to return after a `stop()`; false if it has not within `timeout`.
    func waitUntilStopped(timeout: Double = patience) -> Bool {
        running.wait(timeout: .now() + timeout) == .success
    }

    /// Stops the server, waits for it, removes the directory.
    @discardableResult
    func finish() -> Bool {
        gate.releaseAll(.result(.string("released")))
        server.stop()
        let stopped = waitUntilStopped()
        try? FileManager.default.removeItem(atPath: directory)
        return stopped && runError.withLock { $0 } == nil
    }
}

/// Parked `.later` completions; `arrived` is signalled once per parked request.
final class Gate: Sendable {
    private let parked = Locked<[@Sendable (RPCReply) -> Void]>([])
    let arrived = DispatchSemaphore(value: 0)

    func park(_ complete: @escaping @Sendable (RPCReply) -> Void) {
        parked.withLock { $0.append(complete) }
        arrived.signal()
    }

    /// Waits for one more request to reach `hold`.
    func waitForArrival(timeout: Double = patience) -> Bool { arrived.wait(timeout: .now() + timeout) == .success }

    func releaseAll(_ reply: RPCReply) {
        let all = parked.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for complete in all { complete(reply) }
    }
}

extension Dispatcher {
    static func testMethods(gate: Gate) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.register("echo") { params, _ in .result(params ?? .null) }
        dispatcher.register("boom") { _, _ in .error(.unknownStop("boom")) }
        dispatcher.register("slow") { params, _ in
            .later { complete in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { complete(.result(params ?? .null)) }
            }
        }
        dispatcher.register("inline") { params, _ in .later { complete in complete(.result(params ?? .null)) } }
        dispatcher.register("hold") { _, _ in .later { complete in gate.park(complete) } }
        dispatcher.register("peer") { _, context in
            .result(["uid": .int(Int(context.peer.uid)), "pid": .int(Int(context.peer.pid))])
        }
        dispatcher.register("big") { params, _ in
            let size = params?.arrayValue?.first?.intValue ?? 0
            return .result(.string(String(repeating: "x", count: size)))
        }
        return dispatcher
    }
}

/// A blocking Unix stream socket bound at `path` and not listening: close it to leave what a
/// crashed server leaves, or `listen` on it to play a socket handed over by systemd.
func boundUnixSocket(at path: String) throws -> Int32 {
    let fd = try UnixSocket.open(.stream)
    var bound = false
    defer { if !bound { close(fd) } }
    try UnixSocket.bind(fd, to: UnixSocketAddress(path: path))
    bound = true
    return fd
}

func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/ssd-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    return String(cString: made)
}

/// How long a test waits for what should happen: generous, since the whole suite on two cores,
/// or a sanitized daemon, is slow, and a wait that ends on the event costs nothing when the event
/// comes at once. An upper bound, never a pass condition; a wait that must see nothing is short
/// and says so where it is written.
let patience: Double = 60

extension JSON {
    /// `error.code` of an answer, for terse assertions.
    var errorCode: Int? { self["error"]?["code"]?.intValue }
}
