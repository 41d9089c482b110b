import Testing
@testable import StopSheetDaemon

/// How `Config.check` finds its config file and reads the flags around it: `--help` and
/// `--version` first, the last `--config` naming the file, a file's keys judged and its problems
/// in line order, and a spelling hint for the nearest name.
@Suite struct ConfigLoaderTests {
    func checked(_ arguments: [String], _ environment: [String: String] = [:], files: [String: String] = [:]) -> Config.Checked {
        Config.check(arguments: arguments, environment: environment, readFile: { files[$0] })
    }

    func language(_ checked: Config.Checked) -> String? {
        guard case .run(let config)? = checked.action else { return nil }
        return config.reading.language
    }

    @Test func helpOrVersionAnywhereIsTheAnswerAndTheFirstWins() {
        for arguments in [["--help"], ["-h"], ["--demo", "--bogus", "-h"], ["--help", "--version"], ["--alerts-interval", "--help"]] {
            let checked = checked(arguments)
            #expect(checked.action == .help && checked.problems.isEmpty, "\(arguments)")
        }
        for arguments in [["--version"], ["--bogus", "--version"], ["--version", "-h"]] {
            let checked = checked(arguments)
            #expect(checked.action == .version && checked.problems.isEmpty, "\(arguments)")
        }
        #expect(checked(["--demo", "-help", "--help=1"]).action == nil)
    }

    /// `--config` as the last argument has no path: the flag needs one, and nothing is read.
    @Test func aConfigFlagWithoutItsPathIsAProblemNotACrash() {
        let checked = checked(["--demo", "--config"], files: ["--config": "STOPSHEETD_LANGUAGE=es"])
        #expect(checked.action == nil)
        #expect(checked.problems.map(\.description) == ["--config needs a value (PATH)"])
    }

    /// The last `--config`, either form, names the file, over `STOPSHEETD_CONFIG`.
    @Test func theLastConfigFlagNamesTheFile() {
        let files = ["/a.conf": "STOPSHEETD_LANGUAGE=es", "/b.conf": "STOPSHEETD_LANGUAGE=fr"]
        #expect(language(checked(["--demo", "--config", "/a.conf", "--config=/b.conf"], files: files)) == "fr")
        #expect(language(checked(["--demo", "--config=/b.conf", "--config", "/a.conf"], files: files)) == "es")
        #expect(language(checked(["--demo", "--config=/b.conf"], ["STOPSHEETD_CONFIG": "/a.conf"], files: files)) == "fr")
        #expect(language(checked(["--demo"], ["STOPSHEETD_CONFIG": "/a.conf"], files: files)) == "es")
    }

    /// A missing file is an error unless its path is given with a leading `-`; `-` alone names none.
    @Test func aMissingFileIsAnErrorUnlessOptional() {
        #expect(checked(["--demo", "--config", "/none.conf"]).problems.map(\.description)
                == ["/none.conf: cannot read this config file (to make it optional, give it as --config -/none.conf)"])
        #expect(checked(["--demo", "--config", "-/none.conf"]).problems.isEmpty)
        #expect(checked(["--demo", "--config", "-/a.conf"], files: ["/a.conf": "STOPSHEETD_LANGUAGE=es"]).problems.isEmpty)
        #expect(language(checked(["--demo", "--config", "-/a.conf"], files: ["/a.conf": "STOPSHEETD_LANGUAGE=es"])) == "es")
        #expect(checked(["--demo"], ["STOPSHEETD_CONFIG": "-"], files: ["-": "x"]).problems.isEmpty)
    }

    /// A key in lower case, an unknown `STOPSHEETD_` key and `STOPSHEETD_CONFIG` are warnings at
    /// their lines, listed in line order with the lines the file's own parse refused; other
    /// variables are the environment's business.
    @Test func aFilesKeysAreJudgedAndItsProblemsListedInLineOrder() {
        let text = "stopsheetd_language=es\nnot a setting\nSTOPSHEETD_LANGAUGE=fr\nhttp_proxy=http://proxy\nSTOPSHEETD_CONFIG=/other.conf\n9X=1\nSTOPSHEETD_ZZZZZZZZZZ=1\n"
        let checked = checked(["--demo", "--config", "/s.conf"], files: ["/s.conf": text])
        #expect(checked.action != nil)
        #expect(checked.problems.map(\.description) == [
            "/s.conf:1: warning: stopsheetd_language is ignored: keys are upper case (did you mean STOPSHEETD_LANGUAGE?)",
            "/s.conf:2: warning: not a KEY=value line, ignored: 'not a setting'",
            "/s.conf:3: warning: unknown key STOPSHEETD_LANGAUGE, ignored (did you mean STOPSHEETD_LANGUAGE?)",
            "/s.conf:5: warning: STOPSHEETD_CONFIG has no effect inside a config file",
            "/s.conf:6: warning: '9X' is not a variable name, line ignored",
            "/s.conf:7: warning: unknown key STOPSHEETD_ZZZZZZZZZZ, ignored",
        ])
        #expect(language(checked) == Config().reading.language)
    }

    /// The hint is the candidate fewest edits away (the first of equals), at most three edits.
    @Test func theSpellingHintIsTheNearestWithinThreeEdits() {
        #expect(Config.closest(to: "ab", among: ["aa", "bb"]) == "aa")
        #expect(Config.closest(to: "ab", among: ["bb", "aa"]) == "bb")
        #expect(Config.closest(to: "ab", among: ["abcd", "xb"]) == "xb")
        #expect(Config.closest(to: "kitten", among: ["sitting"]) == "sitting")
        #expect(Config.closest(to: "kitten", among: ["sittingg"]) == nil)
        #expect(Config.closest(to: "flaw", among: ["lawn"]) == "lawn")
        #expect(Config.closest(to: "", among: ["abc", "abcd"]) == "abc")
        #expect(Config.closest(to: "abcd", among: []) == nil)
        #expect(checked(["--alerts-urll=file:///a"]).problems.map(\.description) == ["unknown option '--alerts-urll=file:///a' (did you mean --alerts-url?)"])
        #expect(checked(["--check-confg"]).problems.map(\.description) == ["unknown option '--check-confg' (did you mean --check-config?)"])
        #expect(checked(["alerts-url"]).problems.map(\.description) == ["unknown option 'alerts-url' (see --help)"])
    }
}
