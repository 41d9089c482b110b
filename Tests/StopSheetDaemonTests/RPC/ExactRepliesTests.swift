import Testing
@testable import StopSheetDaemon

/// The exact route's replies of one round, on their own: what is kept is found again by the same
/// bytes only, at most `capacity` replies and keys of at most `maxKeyBytes`, and a new round or
/// stamp starts empty.
@Suite struct ExactRepliesTests {
    private func reply(_ replies: inout ExactReplies, _ rest: String, round: Int64 = 1, stamp: UInt64 = 1) -> String? {
        Array(rest.utf8).withUnsafeBytes { replies.reply(for: $0, round: round, stamp: stamp) }.map { String(decoding: $0, as: UTF8.self) }
    }

    private func remember(_ replies: inout ExactReplies, _ rest: String, _ answer: String) {
        Array(rest.utf8).withUnsafeBytes { replies.remember(Array(answer.utf8), for: $0) }
    }

    @Test func atMostCapacityRepliesOfKeysUpToTheLimitAreKeptForTheRound() {
        var replies = ExactReplies()
        #expect(reply(&replies, "a") == nil, "the round's first question: nothing kept")
        for index in 0...ExactReplies.capacity { remember(&replies, "line \(index)", "reply \(index)") }
        for index in 0..<ExactReplies.capacity { #expect(reply(&replies, "line \(index)") == "reply \(index)") }
        #expect(reply(&replies, "line \(ExactReplies.capacity)") == nil, "one more than the capacity is not kept")
        #expect(reply(&replies, "line 1 ") == nil && reply(&replies, "line ") == nil, "the same bytes only, not a prefix or a longer line")

        replies = ExactReplies()
        _ = reply(&replies, "")
        let longest = String(repeating: "k", count: ExactReplies.maxKeyBytes)
        remember(&replies, longest, "kept")
        remember(&replies, longest + "k", "not kept")
        #expect(reply(&replies, longest) == "kept" && reply(&replies, longest + "k") == nil)
        #expect(reply(&replies, longest, round: 2) == nil && reply(&replies, longest, round: 2) == nil, "a new round forgets")
        remember(&replies, longest, "kept again")
        #expect(reply(&replies, longest, round: 2, stamp: 2) == nil, "a new stamp forgets")
    }
}
