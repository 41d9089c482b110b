import Foundation
import Testing
import StopSheetTestSupport

/// Docs that cannot drift: every example in protocol.md and README.md is run against a fresh
/// demo daemon (`stopsheetd --demo`) and must print what the page shows.
///
/// What an example is: inside a fenced code block, a line starting with `$ ` is a command, and
/// the lines after it up to the next `$ ` line or the end of the block are its output (stdout
/// and stderr, as a terminal shows them). A line in a code block that names the demo socket
/// (`UNIX-CONNECT:run/stopsheetd.sock`, `--socket run/stopsheetd.sock`) must be such a command:
/// an exchange written without its prompt would otherwise go unchecked.
///
/// How it runs: each command by `/bin/sh -c` against its own daemon, started for it (so no
/// example's counts or bytes depend on another's), with `run/stopsheetd.sock` replaced by that
/// daemon's socket, `.build/debug/stopsheetctl` by the stopsheetctl built beside the daemon, an
/// argument ` Tests/Fixtures/…` by that fixture's path (the command runs elsewhere), and
/// `socat -` given `-t 30` (socat's default waits only 0.5 s for the answer after the end of its
/// input, too short on a loaded machine; the daemon closes as soon as it has answered). The
/// daemon refreshes alerts hourly instead of every minute, so a periodic refresh cannot land in an
/// example (`refreshes` in `stats`); no output shown depends on the interval but times.
///
/// The normalisation, the only one (both sides): the demo rebases its alerts to start-up, so
/// times differ per run. An ISO 8601 time (`2015-02-14T14:35:00-06:00`, fractions and `Z`
/// allowed) becomes `<time>`, and so does a time as stopsheetctl prints it (`Sat 14 Feb 2015 14:35`,
/// or `– 16:30` for an end on the same day: `StopSheetCtlIntegrationTests.normalisingTimes`); the number after a key named `ageSeconds` or `uptimeSeconds`
/// (`"ageSeconds":3` in JSON, `ageSeconds: 3` in stopsheetctl's outline) becomes `<seconds>`.
/// Everything else — every count, byte, string and the order of keys — must match exactly. An
/// example whose other numbers follow an age (say the `bytes` of a `stats` after a `health` on
/// the same daemon) would be flaky: keep such pairs out of one example.
///
/// A page may also hold files its examples run: a fenced block opened as ```` ```sh file=NAME ````
/// is no example but the text of NAME, written (with the page's other files) into a fresh
/// directory where that page's commands then run, with the built `stopsheetd` and
/// `stopsheetctl` first on `PATH` (docs/testing.md's test script is one), and `STOPSHEET_SOURCE`
/// naming the clone (protocol.md's London example reads TfL's map from its fixtures).
///
/// After a deliberate change of output: `STOPSHEET_UPDATE_DOC_EXAMPLES=1 swift test --filter
/// DocExampleIntegrationTests` writes the real outputs into the pages (check the diff before committing).
@Suite(.serialized) struct DocExampleIntegrationTests {
    static let pages = ["protocol.md", "README.md", "docs/testing.md"]

    @Test func everyExampleInTheDocsPrintsWhatThePageShows() throws {
        let update = ProcessInfo.processInfo.environment["STOPSHEET_UPDATE_DOC_EXAMPLES"] == "1"
        for page in Self.pages {
            let path = Fixtures.packageRoot + "/" + page
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            let examples = try DocExample.parse(lines, page: page)
            let files = DocExample.files(lines)
            #expect(!examples.isEmpty, "\(page) shows no example")
            // Bottom up, so that an update's new line counts do not move the examples still to run.
            for example in examples.reversed() {
                let actual = try example.run(files: files)
                guard DocExample.normalise(actual) != DocExample.normalise(Array(lines[example.output])) else { continue }
                if update {
                    // Only what differs: the times of a matching example stay as the page has them.
                    lines.replaceSubrange(example.output, with: actual)
                } else {
                    Issue.record("\(page):\(example.line): `\(example.command)` printed:\n\(actual.joined(separator: "\n"))")
                }
            }
            if update { try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8) }
        }
    }

    @Test func examplesAreCommandsWithTheOutputLinesBelowThem() throws {
        let page = """
            text
            ```sh
            $ echo one
            1
            $ echo two

            2
            ```
            ```sh
            make run   # not an example: no prompt, no demo socket
            ```
            """
        let examples = try DocExample.parse(page.components(separatedBy: "\n"), page: "test")
        #expect(examples.map(\.command) == ["echo one", "echo two"])
        #expect(examples.map(\.output) == [3..<4, 5..<7])
        #expect(examples.map(\.line) == [3, 5])
    }

    @Test func aFileBlockIsNoExampleButAFileTheExamplesRun() throws {
        let page = ["```sh file=hello.sh", "cat <<'EOF'", "$ printed, not run", "EOF", "```", "```sh", "$ sh hello.sh", "```"]
        #expect(try DocExample.parse(page, page: "test").map(\.command) == ["sh hello.sh"])
        let files = DocExample.files(page)
        #expect(files.map(\.name) == ["hello.sh"])
        #expect(files.map(\.text) == ["cat <<'EOF'\n$ printed, not run\nEOF\n"])
        let example = try #require(try DocExample.parse(page, page: "test").first)
        #expect(try example.run(files: files) == ["$ printed, not run"])
    }

    @Test func aDemoSocketLineWithoutItsPromptIsAMistake() {
        let page = ["```sh", "echo '{}' | socat - UNIX-CONNECT:run/stopsheetd.sock", "```"]
        #expect(throws: DocExample.Unchecked.self) { try DocExample.parse(page, page: "test") }
    }

    @Test func onlyTimesAndAgesAreNormalised() {
        let doc = [#"{"loadedAt":"2026-12-01T05:13:42-06:00","count":17,"ageSeconds":2,"uptimeSeconds":1}"#, "  ageSeconds: 12"]
        let run = [#"{"loadedAt":"2015-02-14T14:35:00.250Z","count":17,"ageSeconds":35,"uptimeSeconds":0}"#, "  ageSeconds: 0"]
        #expect(DocExample.normalise(doc) == DocExample.normalise(run))
        // A count, a byte total, a word or a key's order that changes is drift.
        for changed in [#""count":18"#, #""count":17,"x":1"#, #""count": 17"#] {
            let drifted = [run[0].replacingOccurrences(of: #""count":17"#, with: changed), run[1]]
            #expect(DocExample.normalise(doc) != DocExample.normalise(drifted), "\(changed)")
        }
        #expect(DocExample.normalise(["ageSeconds: 1"]) != DocExample.normalise(["ageSeconds: 1", ""]))
        #expect(DocExample.normalise(["bytes in 86"]) != DocExample.normalise(["bytes in 87"]))
    }
}

/// One `$ command` of a page and where its output lines are.
struct DocExample {
    struct Unchecked: Error, CustomStringConvertible {
        var description: String
    }

    let page: String
    /// 1-based line of the command, for messages.
    let line: Int
    let command: String
    /// The output's line indexes (0-based, end exclusive) in the page.
    let output: Range<Int>

    static let demoSocket = "run/stopsheetd.sock"

    static func parse(_ lines: [String], page: String) throws -> [DocExample] {
        var examples: [DocExample] = []
        var inBlock = false
        var command: (index: Int, text: String)?
        func finish(at end: Int) {
            if let command {
                examples.append(DocExample(page: page, line: command.index + 1, command: command.text, output: command.index + 1..<end))
            }
            command = nil
        }
        var inFile = false
        for (index, text) in lines.enumerated() {
            if text.hasPrefix("```") {
                if inBlock { finish(at: index) }
                inBlock.toggle()
                inFile = inBlock && fileName(text) != nil
                continue
            }
            guard inBlock, !inFile else { continue }
            if text.hasPrefix("$ ") {
                finish(at: index)
                command = (index, String(text.dropFirst(2)))
            } else if command == nil, text.contains("UNIX-CONNECT:\(demoSocket)") || text.contains("--socket \(demoSocket)") {
                throw Unchecked(description: "\(page):\(index + 1): a command on the demo socket without `$ `, so never checked: \(text)")
            }
        }
        return examples
    }

    /// The page's file blocks (```` ```sh file=NAME ````), in page order.
    static func files(_ lines: [String]) -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        var current: (name: String, text: String)?
        for text in lines {
            if text.hasPrefix("```") {
                if let finished = current {
                    files.append(finished)
                    current = nil
                } else if let name = fileName(text) {
                    current = (name, "")
                }
                continue
            }
            current?.text += text + "\n"
        }
        return files
    }

    /// `hello.sh` of a fence opened as ```` ```sh file=hello.sh ````.
    private static func fileName(_ fence: String) -> String? {
        fence.split(separator: " ").first { $0.hasPrefix("file=") }.map { String($0.dropFirst(5)) }
    }

    /// Runs the command against a daemon of its own (and, with `files`, in a directory holding
    /// them); its output lines, without the last newline.
    func run(files: [(name: String, text: String)] = []) throws -> [String] {
        let daemon = try DaemonProcess(["--demo", "--alerts-interval", "3600", "--log-level", "warning"])
        defer { daemon.stop() }
        let directory = files.isEmpty ? nil : try makeTemporaryDirectory()
        defer { if let directory { try? FileManager.default.removeItem(atPath: directory) } }
        var setup = ""
        if let directory {
            for file in files { try file.text.write(toFile: directory + "/" + file.name, atomically: true, encoding: .utf8) }
            let binaries = URL(fileURLWithPath: DaemonProcess.binary).deletingLastPathComponent().path
            // STOPSHEET_SOURCE: the clone, whose fixtures an example may read (TfL's real map).
            setup = "cd '\(directory)' && PATH='\(binaries)':\"$PATH\" && STOPSHEET_SOURCE='\(Fixtures.packageRoot)' && export PATH STOPSHEET_SOURCE && "
        }
        let script = setup + command
            .replacingOccurrences(of: Self.demoSocket, with: daemon.socketPath)
            .replacingOccurrences(of: ".build/debug/stopsheetctl", with: DaemonProcess.ctlBinary)
            .replacingOccurrences(of: " Tests/Fixtures/", with: " " + Fixtures.directory + "/")
            .replacingOccurrences(of: "socat -", with: "socat -t 30 -")
        let result = try runProcess("/bin/sh", ["-c", script + " 2>&1"])
        var lines = result.stdout.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    private static let time = try! NSRegularExpression(pattern: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"#)
    private static let age = try! NSRegularExpression(pattern: #"(\b(ageSeconds|uptimeSeconds)"?: ?)\d+"#)

    /// Times and ages made equal; nothing else touched (see `DocExampleIntegrationTests`).
    static func normalise(_ lines: [String]) -> [String] {
        lines.map { line in
            let whole = NSRange(line.startIndex..., in: line)
            let timeless = StopSheetCtlIntegrationTests.normalisingTimes(time.stringByReplacingMatches(in: line, range: whole, withTemplate: "<time>"))
            return age.stringByReplacingMatches(in: timeless, range: NSRange(timeless.startIndex..., in: timeless), withTemplate: "$1<seconds>")
        }
    }
}
