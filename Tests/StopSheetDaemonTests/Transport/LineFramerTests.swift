import Testing
@testable import StopSheetDaemon

@Suite struct LineFramerTests {
    /// Drains the framer: lines as strings, overflows as "<too large>".
    private func events(_ framer: inout LineFramer, finishing: Bool = false) -> [String] {
        var out: [String] = []
        while let event = framer.next() { out.append(describe(event, framer)) }
        if finishing, let event = framer.finish() { out.append(describe(event, framer)) }
        return out
    }

    private func describe(_ event: LineFramer.Event, _ framer: LineFramer) -> String {
        switch event {
        case .line(let range): return String(decoding: framer.buffer[range], as: UTF8.self)
        case .tooLarge: return "<too large>"
        }
    }

    @Test func splitsLinesAndToleratesCRLF() {
        var framer = LineFramer()
        framer.append(Array("a\nbb\r\n\nccc\r\n".utf8))
        #expect(events(&framer) == ["a", "bb", "", "ccc"])
        #expect(!framer.hasBufferedBytes)
    }

    @Test func reassemblesLinesSplitAcrossReads() {
        var framer = LineFramer()
        var seen: [String] = []
        for byte in Array("{\"x\":1}\r\n{\"y\":2}\n".utf8) {
            framer.append([byte])
            seen += events(&framer)
        }
        #expect(seen == [#"{"x":1}"#, #"{"y":2}"#])
    }

    @Test func lineOfExactlyTheLimitPassesAndOneMoreByteDoesNot() {
        var framer = LineFramer(maxLineBytes: 4)
        framer.append(Array("abcd\nabcd\r\nabcde\nok\n".utf8))
        #expect(events(&framer) == ["abcd", "abcd", "<too large>", "ok"])
    }

    /// A CRLF line exactly at the limit whose `\n` arrives in a later read than its `\r`: after the
    /// first read the framer holds limit + 1 bytes and no newline, and must not call that too large
    /// yet (the `\r` may be the terminator's). Byte by byte, every split point is covered.
    @Test func aCRLFLineAtTheLimitSplitBetweenItsCRAndLFPasses() {
        for split in 1...6 {
            var framer = LineFramer(maxLineBytes: 4)
            let bytes = Array("abcd\r\nok\n".utf8)
            framer.append(bytes[..<split])
            var seen = events(&framer)
            framer.append(bytes[split...])
            seen += events(&framer)
            #expect(seen == ["abcd", "ok"], "split after \(split) bytes")
        }
        // One byte more is too large, wherever the read ends.
        for split in 1...7 {
            var framer = LineFramer(maxLineBytes: 4)
            let bytes = Array("abcde\r\nok\n".utf8)
            framer.append(bytes[..<split])
            var seen = events(&framer)
            framer.append(bytes[split...])
            seen += events(&framer)
            #expect(seen == ["<too large>", "ok"], "split after \(split) bytes")
        }
    }

    @Test func oversizedLineStreamedInChunksYieldsOneErrorThenFramingResumes() {
        var framer = LineFramer(maxLineBytes: 16)
        var seen: [String] = []
        framer.append(Array("first\n".utf8))
        seen += events(&framer)
        for _ in 0..<100 {
            framer.append([UInt8](repeating: UInt8(ascii: "x"), count: 10))
            seen += events(&framer)
            // Dropped while it arrives: the framer never holds more than a line and a chunk.
            #expect(framer.buffer.count <= 16 + 1 + 10)
        }
        framer.append(Array("xxx\nnext\n".utf8))
        seen += events(&framer)
        #expect(seen == ["first", "<too large>", "next"])
    }

    /// The newline that ends an oversized line ends the dropping: a line that comes in a read of
    /// its own afterwards is framed whole.
    @Test func aLineInTheReadAfterAnOverflowEndsIsFramed() {
        var framer = LineFramer(maxLineBytes: 16)
        var seen: [String] = []
        framer.append([UInt8](repeating: UInt8(ascii: "x"), count: 40))
        seen += events(&framer)
        framer.append(Array("xxx\n".utf8))
        seen += events(&framer)
        framer.append(Array("next\n".utf8))
        seen += events(&framer)
        #expect(seen == ["<too large>", "next"])
    }

    @Test func finishReturnsTheUnterminatedLastLine() {
        var framer = LineFramer()
        framer.append(Array("one\ntwo\r".utf8))
        #expect(events(&framer, finishing: true) == ["one", "two"])
        #expect(framer.finish() == nil)
    }

    @Test func finishInsideAnOversizedLineReturnsNothing() {
        var framer = LineFramer(maxLineBytes: 3)
        framer.append(Array("abcdefgh".utf8))
        #expect(events(&framer, finishing: true) == ["<too large>"])
    }

    @Test func rangesStayValidAcrossPipelinedLines() {
        var framer = LineFramer()
        framer.append(Array("a\nb\nc".utf8))
        #expect(events(&framer) == ["a", "b"])
        framer.append(Array("d\n".utf8))
        #expect(events(&framer) == ["cd"])
    }
}
