import Foundation
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// One source of truth for the options: what `stopsheetd --help` and `stopsheetctl --help` print
/// (generated from the code) must be what the man pages and the sample configuration document.
/// A new option that is not documented, or a documented one that is gone, fails here.
@Suite struct OptionsDocumentationIntegrationTests {
    static let repository = Fixtures.packageRoot

    func file(_ path: String) throws -> String {
        try String(contentsOfFile: Self.repository + "/" + path, encoding: .utf8)
    }

    func matches(_ pattern: String, in text: String) throws -> Set<String> {
        let regex = try Regex(pattern).anchorsMatchLineEndings()
        return Set(text.matches(of: regex).compactMap { $0.output[1].substring.map(String.init) })
    }

    func help(_ binary: String) throws -> String {
        let result = try runProcess(binary, ["--help"])
        #expect(result.status == 0)
        return result.stdout
    }

    @Test func daemonOptions() throws {
        let help = try help(DaemonProcess.binary)
        let manual = try file("man/stopsheetd.8")
        // `  --alerts-url URL   …` in --help; `.It Fl -alerts-url Ar URL` in the man page.
        let helpFlags = try matches(#"^  (--[a-z-]+)"#, in: help)
        let manualFlags = try matches(#"^\.It Fl -([a-z-]+)"#, in: manual).map { "--" + $0 }
        #expect(helpFlags.count > 10)
        #expect(helpFlags == Set(manualFlags), "only in --help: \(helpFlags.subtracting(manualFlags).sorted()), only in stopsheetd(8): \(Set(manualFlags).subtracting(helpFlags).sorted())")

        let helpVariables = try matches(#"\[(STOPSHEETD_[A-Z0-9_]+)\]"#, in: help)
        let manualVariables = try matches(#"^\.Ev (STOPSHEETD_[A-Z0-9_]+) \.$"#, in: manual)
        #expect(helpVariables.count > 10)
        #expect(helpVariables == manualVariables, "only in --help: \(helpVariables.subtracting(manualVariables).sorted()), only in stopsheetd(8): \(manualVariables.subtracting(helpVariables).sorted())")

        // The config file cannot set STOPSHEETD_CONFIG (it names the file itself).
        let settable = helpVariables.subtracting(["STOPSHEETD_CONFIG"])
        let sample = try matches(#"^#?(STOPSHEETD_[A-Z0-9_]+)="#, in: file("systemd/stopsheetd.conf"))
        #expect(settable == sample, "only in --help: \(settable.subtracting(sample).sorted()), only in the sample config: \(sample.subtracting(settable).sorted())")
        // stopsheetd.conf(5) lists them in `.It Ev A , B` items.
        let items = try matches(#"^\.It Ev (STOPSHEETD_.*)$"#, in: file("man/stopsheetd.conf.5").replacingOccurrences(of: "\\\n", with: ""))
        let documented = Set(items.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        #expect(settable == documented, "only in --help: \(settable.subtracting(documented).sorted()), only in stopsheetd.conf(5): \(documented.subtracting(settable).sorted())")
    }

    /// Each default is the options table's (`Config`'s initial values): `--help` shows it, and the
    /// man page's item for the flag and the sample config's commented line must say the same.
    @Test func everyDefaultIsTheOptionsTables() throws {
        let manual = try file("man/stopsheetd.8").components(separatedBy: "\n")
        let sample = try file("systemd/stopsheetd.conf")
        let help = try help(DaemonProcess.binary)
        var checked = 0
        for (flag, variable, value) in Config.documentedDefaults {
            guard let value else { continue }
            // The flag's item, up to the next, as words: roff macro names dropped, lines joined.
            // `Fl` writes the first dash itself: `.It Fl -max-batch Ar N`.
            let item = ".It Fl \(flag.dropFirst())"
            guard let start = manual.firstIndex(where: { $0.hasPrefix(item + " ") || $0 == item }) else {
                Issue.record("no item for \(flag) in stopsheetd(8)")
                continue
            }
            let end = manual[(start + 1)...].firstIndex { $0.hasPrefix(".It ") || $0.hasPrefix(".El") } ?? manual.count
            let words = manual[(start + 1)..<end].map { $0.hasPrefix(".") ? String($0.drop { $0 != " " }) : $0 }.joined(separator: " ")
            #expect(words.contains("Takes effect at restart") == Config.takesEffectAtRestart(flag),
                    "stopsheetd(8) on \(flag) should\(Config.takesEffectAtRestart(flag) ? "" : " not") say it takes effect at restart")
            let said = words.firstMatch(of: /default\s+([^\s),;:]+)/).map { String($0.1) }
            #expect(said == value, "stopsheetd(8) on \(flag): default \(said ?? "not said"), the table's: \(value)")
            let line = sample.firstMatch(of: try Regex("(?m)^#?\(variable)=(.*)$"))
            #expect(line.flatMap { $0.output[1].substring.map(String.init) } == value, "systemd/stopsheetd.conf's \(variable): the table's default is \(value)")
            #expect(help.contains("(default \(value))") || help.contains("(default\n"), "--help shows \(flag)'s default \(value)")
            checked += 1
        }
        #expect(checked > 15, "only \(checked) defaults checked")
        // The pages that name a flag's default in passing: "`--flag …` (default X)".
        let table = Dictionary(uniqueKeysWithValues: Config.documentedDefaults.compactMap { entry in entry.value.map { (entry.flag, $0) } })
        for page in ["README.md", "protocol.md"] {
            for match in try file(page).matches(of: /`(--[a-z-]+)[^`]*`[^(`]{0,20}\(default `?([^),;:`]+)/) {
                guard let value = table[String(match.1)] else { continue }
                #expect(String(match.2) == value, "\(page) says \(match.1) defaults to \(match.2), the table: \(value)")
            }
        }
        #expect(ServerLimits() == ServerLimits(Config()) && SubscriptionLimits() == SubscriptionLimits(Config()))
    }

    @Test func daemonHelpFitsEightyColumns() throws {
        let wide = try help(DaemonProcess.binary).split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "\(wide)")
    }

    @Test func clientOptions() throws {
        let help = try help(DaemonProcess.ctlBinary)
        let manual = try file("man/stopsheetctl.1")
        let helpFlags = try matches(#"(?:^|[\s\[])(--[a-z-]+)"#, in: help)
        let manualFlags = try matches(#"\bFl -([a-z-]+)"#, in: manual).map { "--" + $0 }
        #expect(helpFlags.count >= 5)
        #expect(helpFlags.subtracting(["--help"]) == Set(manualFlags).subtracting(["--help"]),
                "only in --help: \(helpFlags.subtracting(manualFlags).sorted()), only in stopsheetctl(1): \(Set(manualFlags).subtracting(helpFlags).sorted())")
        // The commands: the first word of each indented line of --help.
        let helpCommands = try matches(#"^  ([a-z]+) "#, in: help)
        let manualCommands = try matches(#"^\.It Cm ([a-z]+)"#, in: manual)
        #expect(!helpCommands.isEmpty && helpCommands == manualCommands, "--help: \(helpCommands.sorted()), stopsheetctl(1): \(manualCommands.sorted())")
    }

    /// stopsheetctl(1)'s `.It Cm` line of each command reads as `help COMMAND`'s synopsis: the
    /// man page once nested `--name` inside `--bus` (`[--bus [--name NAME]]`).
    @Test func eachCommandsManPageSynopsisIsItsHelpSynopsis() throws {
        let manual = try file("man/stopsheetctl.1")
        let items = manual.split(separator: "\n").filter { $0.hasPrefix(".It Cm ") }
        #expect(items.count >= 10)
        for item in items {
            let rendered = Self.mdoc(String(item.dropFirst(4)))
            let name = String(rendered.prefix { $0 != " " })
            let help = try runProcess(DaemonProcess.ctlBinary, ["help", name]).stdout.split(separator: "\n")
            let usage = ([help.first ?? ""] + help.dropFirst().prefix { $0.hasPrefix("       ") })
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            let synopsis = usage.replacingOccurrences(of: "Usage: stopsheetctl [OPTIONS] ", with: "")
            #expect(Self.normalised(synopsis) == Self.normalised(rendered), "help \(name): \(synopsis); stopsheetctl(1): \(rendered)")
        }
    }

    /// The few mdoc macros the command items use, as man renders them: `Op` brackets the rest of
    /// the line, `Oo`/`Oc` what is between them, `Fl` prefixes a dash, `Cm`/`Ar` print as they are.
    static func mdoc(_ line: String) -> String {
        var words: [String] = []
        var open = 0
        var dash = false
        for token in line.split(separator: " ").map(String.init) {
            switch token {
            case "Cm", "Ar": continue
            case "Fl": dash = true; continue
            case "Op", "Oo": open += token == "Op" ? 1 : 0; words.append("["); continue
            case "Oc": words.append("]"); continue
            default: break
            }
            words.append((dash ? "-" : "") + token)
            dash = false
        }
        words += Array(repeating: "]", count: open)
        return words.joined(separator: " ").replacingOccurrences(of: "[ ", with: "[").replacingOccurrences(of: " ]", with: "]")
    }

    static func normalised(_ synopsis: String) -> String {
        synopsis.replacingOccurrences(of: "…", with: "...").replacingOccurrences(of: " | ", with: "|")
    }

    /// README's install section as a new user follows it: every systemctl that changes something
    /// under sudo, "log in again" after usermod, and every source the sample config sets (so the
    /// installed service contacts at once) named with its URL.
    @Test func theInstallSectionSaysWhatTheServiceContacts() throws {
        let readme = try file("README.md")
        let section = try #require(readme.range(of: "## As a systemd service").map { readme[$0.upperBound...] })
        let block = String(section).components(separatedBy: "```")[1]
        for line in block.split(separator: "\n") where line.contains("systemctl ") && !line.contains("systemctl edit") {
            #expect(line.hasPrefix("sudo "), "\(line)")
        }
        let usermod = try #require(block.split(separator: "\n").first { $0.contains("usermod") })
        #expect(usermod.contains("log in again"), "\(usermod)")
        let sample = try file("systemd/stopsheetd.conf")
        let live = try matches(#"^STOPSHEETD_[A-Z_]+_URL=(.+)$"#, in: sample)
        #expect(!live.isEmpty)
        for url in live { #expect(section.contains("`\(url)`"), "README's install section does not name \(url)") }
    }
}
