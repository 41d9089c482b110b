import Foundation
import Testing

/// `make mutate` plants each bug of Tests/Mutations/mutations.tsv by replacing a text that must
/// occur exactly once in its file. A refactor that moves or rewrites that line leaves the
/// mutation with nothing to plant, and the rule it guarded untested until someone runs the
/// 25-minute `make mutate`: this check, in `make check`, names it at once. The list's format is
/// scripts/mutate.py's (`unescape` there).
@Suite struct MutationListTests {
    @Test func everyMutationFindsItsTextExactlyOnce() throws {
        let root = Fixtures.packageRoot
        let list = try String(contentsOfFile: root + "/Tests/Mutations/mutations.tsv", encoding: .utf8)
        var checked = 0
        var ids = Set<String>()
        for (number, line) in list.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else {
                Issue.record("mutations.tsv:\(number + 1): want four tab-separated fields, got \(fields.count)")
                continue
            }
            let (id, file, text) = (fields[0], fields[1], Self.unescape(fields[2]))
            #expect(ids.insert(id).inserted, "mutations.tsv:\(number + 1): \(id) is listed twice")
            #expect(Self.unescape(fields[3]) != text, "mutations.tsv:\(number + 1): \(id) changes nothing")
            guard let source = try? String(contentsOfFile: root + "/" + file, encoding: .utf8) else {
                Issue.record("mutations.tsv:\(number + 1): \(id): no file \(file)")
                continue
            }
            let found = source.components(separatedBy: text).count - 1
            #expect(found == 1, "mutations.tsv:\(number + 1): \(id): its text occurs \(found) times in \(file), not once: \(text.debugDescription)")
            checked += 1
        }
        #expect(checked > 50, "only \(checked) mutations read: is the list where it was?")
    }

    /// `\n` a newline, `\t` a tab, `\\` a backslash; any other backslash stays as it is.
    static func unescape(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\\": result.append("\\")
                default: result.append("\\"); result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }
}
