import Glibc
import Testing
@testable import StopSheetDaemon

/// The connection's output over a real socket pair whose send buffer is small, so the socket
/// takes a round's answers in many partial sends that end anywhere: inside written bytes, inside
/// a shared piece, at their boundaries. What arrives must be exactly what was written, in order.
@Suite struct OutputBufferTests {
    private static func socketPair(sendBuffer: Int32) throws -> (writer: Int32, reader: Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else {
            throw Errno(errno)
        }
        var size = sendBuffer
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return (fds[0], fds[1])
    }

    /// Reads whatever the reader's end holds now.
    private static func drain(_ fd: Int32, into received: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return }
            received += chunk[..<count]
        }
    }

    /// Where two byte strings first differ, nil when they are equal: what a failure reports
    /// instead of two arrays of tens of kilobytes.
    private static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        guard a != b else { return nil }
        return zip(a.indices, zip(a, b)).first { $0.1.0 != $0.1.1 }?.0 ?? min(a.count, b.count)
    }

    @Test func partialSendsDeliverWrittenBytesAndSharedPiecesInOrder() throws {
        let (writer, reader) = try Self.socketPair(sendBuffer: 4096)
        defer { close(writer); close(reader) }
        var output = OutputBuffer()
        var expected: [UInt8] = []
        // Pieces of several sizes, shared (≥ shareFrom) and copied, between written bytes.
        let pieces = (0..<40).map { index in [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: [10, 1500, 7677, 1024, 300][index % 5]) }
        for (index, piece) in pieces.enumerated() {
            let head = Array("{\"id\":\(index),\"result\":".utf8)
            output.write(head)
            output.append(shared: piece)
            output.write(UInt8(ascii: "}"))
            expected += head + piece + [UInt8(ascii: "}")]
        }
        #expect(output.count == expected.count)

        var received: [UInt8] = []
        var partial = 0
        while output.unsent > 0 {
            guard case .sent = output.send(to: writer) else {
                Issue.record("send failed after \(received.count) of \(expected.count) bytes")
                return
            }
            if output.unsent > 0 { partial += 1 }
            Self.drain(reader, into: &received)
        }
        Self.drain(reader, into: &received)
        let difference = Self.firstDifference(received, expected)
        #expect(difference == nil, "received \(received.count) of \(expected.count) bytes, the first wrong one at \(difference ?? -1)")
        #expect(partial > 0, "the socket took everything at once: no partial send was tested")
        #expect(output.count == 0, "everything sent: nothing kept")
    }

    @Test func writesAfterAPartialSendFollowWhatWasLeft() throws {
        let (writer, reader) = try Self.socketPair(sendBuffer: 4096)
        defer { close(writer); close(reader) }
        var output = OutputBuffer()
        var expected: [UInt8] = []
        var received: [UInt8] = []
        // Write, send part, write more, send part...: the send position must survive each
        // compaction of what was already sent.
        for round in 0..<30 {
            let piece = [UInt8](repeating: UInt8(ascii: "A") + UInt8(round % 26), count: 2000 + 97 * round)
            output.write(Array("[\(round)]".utf8))
            output.append(shared: piece)
            expected += Array("[\(round)]".utf8) + piece
            guard case .sent = output.send(to: writer) else {
                Issue.record("send failed in round \(round)")
                return
            }
            Self.drain(reader, into: &received)
        }
        while output.unsent > 0, case .sent = output.send(to: writer) { Self.drain(reader, into: &received) }
        Self.drain(reader, into: &received)
        let difference = Self.firstDifference(received, expected)
        #expect(difference == nil, "received \(received.count) of \(expected.count) bytes, the first wrong one at \(difference ?? -1)")
    }

    /// What a connection keeps once its answers are sent: a busy one keeps the allocation for the
    /// next round up to `keptCapacity`, and a burst's bigger one goes at once; a quiet one gives
    /// back anything over `idleCapacity` (`releaseIdle`, on the loop's tick), never bytes unsent.
    @Test func sentBuffersKeepTheirAllocationWithinBoundsAndAQuietOneGivesABigOneBack() throws {
        let (writer, reader) = try Self.socketPair(sendBuffer: 4096)
        defer { close(writer); close(reader) }
        var received: [UInt8] = []
        func sendAll(_ output: inout OutputBuffer) -> Bool {
            while output.unsent > 0 {
                guard case .sent = output.send(to: writer) else { return false }
                Self.drain(reader, into: &received)
            }
            return true
        }
        func written(_ size: Int) -> OutputBuffer {
            var output = OutputBuffer()
            output.write([UInt8](repeating: UInt8(ascii: "x"), count: size))
            return output
        }

        var small = written(16 << 10)
        #expect(sendAll(&small) && small.capacity >= 16 << 10, "kept for the next answers")
        small.releaseIdle()
        #expect(small.capacity >= 16 << 10, "within the idle allocation: kept while quiet too")

        var big = written(256 << 10)
        #expect(sendAll(&big) && big.capacity >= 256 << 10, "kept while the connection is busy")
        big.write(Array("unsent".utf8))
        big.releaseIdle()
        #expect(big.unsent == 6 && big.capacity >= 256 << 10, "bytes unsent keep their buffer")
        #expect(sendAll(&big))
        big.releaseIdle()
        #expect(big.capacity == 0, "quiet: a big allocation given back")

        var burst = written(OutputBuffer.keptCapacity + 1)
        #expect(sendAll(&burst) && burst.capacity == 0, "a burst's allocation is not kept even while busy")
        #expect(received.count == (16 << 10) + (256 << 10) + 6 + OutputBuffer.keptCapacity + 1, "every byte arrived")

        // The bounds themselves are kept: an allocation of exactly keptCapacity while busy, of
        // exactly idleCapacity while quiet.
        var atKept = written(OutputBuffer.keptCapacity)
        #expect(sendAll(&atKept) && atKept.capacity == OutputBuffer.keptCapacity, "keptCapacity itself is kept")
        var atIdle = written(OutputBuffer.idleCapacity)
        #expect(sendAll(&atIdle) && atIdle.capacity == OutputBuffer.idleCapacity)
        atIdle.releaseIdle()
        #expect(atIdle.capacity == OutputBuffer.idleCapacity, "idleCapacity itself is kept while quiet")
    }

    @Test func aClosedPeerIsAFailureNotALoop() throws {
        let (writer, reader) = try Self.socketPair(sendBuffer: 4096)
        defer { close(writer) }
        close(reader)
        var output = OutputBuffer()
        output.append(shared: [UInt8](repeating: 1, count: 5000))
        guard case .failed(let code) = output.send(to: writer) else {
            Issue.record("a send to a closed peer did not fail")
            return
        }
        #expect(code == EPIPE || code == ECONNRESET, "errno \(code)")
    }
}
