@testable import StopSheetDaemon
import Testing

/// `checkSourceURL`, `redactedURL` and `urlPathEndsInZip`: a URL's shape as RFC 3986 gives it.
@Suite struct SourceURLTests {
    func refusal(_ url: String) -> String? {
        do {
            try checkSourceURL(url)
            return nil
        } catch {
            return error.description
        }
    }

    /// A scheme is a letter of either case, then letters, digits, `+`, `-` and `.`: such a scheme
    /// is only not supported; anything else is no URL at all.
    @Test func aSchemeIsALetterThenLettersDigitsPlusMinusAndDot() {
        for scheme in ["svn+ssh", "x-y", "a.b", "z9", "Gopher", "s"] {
            #expect(refusal("\(scheme)://host/x") == "unsupported URL scheme '\(scheme)' (use http, https or file)")
        }
        for scheme in ["9p", "+a", ".a", "-a", "a b", "a_b", "é"] {
            #expect(refusal("\(scheme)://host/x")?.hasPrefix("invalid URL '") == true, "\(scheme)")
        }
        #expect(refusal("HTTP://example.org/a") == nil && refusal("File:///tmp/a") == nil)
    }

    /// An http(s) URL needs a host: something other than `/`, `?` or `#` right after `//`.
    @Test func anHTTPURLNeedsAHost() {
        for url in ["http:///a", "https://?key=1", "http://#top", "http://", "https:/example.org"] {
            let scheme = url.hasPrefix("https") ? "https" : "http"
            #expect(refusal(url) == "invalid URL '\(redactedURL(url))' (no host; expected \(scheme)://host/path)", "\(url)")
        }
        for url in ["http://a", "https://example.org?x=1", "http://h#f", "https://[::1]:8080/a"] {
            #expect(refusal(url) == nil, "\(url)")
        }
    }

    /// The userinfo ends where the authority does (at `/`, `?` or `#`): an `@` after that is
    /// path, query or fragment, and stays.
    @Test func onlyTheAuthoritysUserinfoIsRedacted() {
        #expect(redactedURL("http://u:p@example.org/a") == "http://REDACTED@example.org/a")
        #expect(redactedURL("http://example.org?to=a@b") == "http://example.org?to=a@b")
        #expect(redactedURL("http://example.org#a@b") == "http://example.org#a@b")
        #expect(redactedURL("http://example.org/a@b") == "http://example.org/a@b")
        #expect(redactedURL("http://u@example.org?key=1#k=2") == "http://REDACTED@example.org?key=REDACTED#k=2")
        // Each of the six words, in any case, within a longer name; other names keep their values.
        #expect(redactedURL("https://h/a?MyKey=1&xtokenx=2&Secret=3&passwd=4&AUTH=5&sig=6&route=Red&k=7")
                == "https://h/a?MyKey=REDACTED&xtokenx=REDACTED&Secret=REDACTED&passwd=REDACTED&AUTH=REDACTED&sig=REDACTED&route=Red&k=7")
        #expect(redactedURL("https://h/a?&key&=1&key=") == "https://h/a?&key&=1&key=REDACTED")
    }

    @Test func aZipIsTheEndOfThePathAlone() {
        #expect(urlPathEndsInZip("https://h/feed.zip") && urlPathEndsInZip("file:///a/F.ZiP"))
        #expect(urlPathEndsInZip("https://h/feed.zip?key=1") && urlPathEndsInZip("https://h/feed.zip#x"))
        #expect(!urlPathEndsInZip("https://h/feed?f=a.zip") && !urlPathEndsInZip("https://h/feed#a.zip"))
        #expect(!urlPathEndsInZip("https://h/feed.zip/stops.txt") && !urlPathEndsInZip("https://h/feedzip"))
    }
}
