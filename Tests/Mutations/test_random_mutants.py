"""The random draw of `make mutate RANDOM=N SEED=S` (scripts/random_mutants.py): which tokens are
mutants, that comments and string literals hold none, that a seed draws the same mutants every
time, and that each entry of equivalent.tsv still names a mutant of the code. Run by
MutationListTests (`make check`): `python3 Tests/Mutations/test_random_mutants.py`."""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import random_mutants  # noqa: E402


def changes(source):
    return [(c["token"], c["replacement"], c["kind"]) for c in random_mutants.candidates_in("Sources/StopSheetCore/X.swift", source)]


class CodeOnlyTests(unittest.TestCase):
    def test_comments_and_strings_are_blanked_at_the_same_offsets(self):
        source = 'let a = b < c // d < e\n/* f /* g */ && h */ let s = "x \\(y["k"] == z) ||", t = #"u"\\"#\n'
        code = random_mutants.code_only(source)
        self.assertEqual(len(code), len(source))
        self.assertEqual(code.count("\n"), source.count("\n"))
        self.assertIn("let a = b < c", code)
        for hidden in ("d < e", "&&", "==", "||", "u"):
            self.assertNotIn(hidden, code)
        self.assertTrue(code.rstrip().endswith("t ="))

    def test_a_multiline_string_is_blanked_whole(self):
        code = random_mutants.code_only('let s = """\n  a < b\n  "quoted" && c\n  """\nlet d = e > f\n')
        self.assertNotIn("<", code)
        self.assertNotIn("&&", code)
        self.assertIn("let d = e > f", code)


class CandidateTests(unittest.TestCase):
    def test_each_kind_of_token(self):
        self.assertEqual(changes("if a < b && c >= d { x = true }\n"),
                         [("<", "<=", "comparison"), ("&&", "||", "logical"), (">=", ">", "comparison"), ("true", "false", "boolean")])
        self.assertEqual(changes("n += 1; m = k &- 1; p = q + 10\n"), [("+=", "-=", "plus-minus-one"), ("&-", "&+", "plus-minus-one")])
        self.assertEqual(changes("let r = 0..<n, s = a...b, t = bytes[i...]\n"), [("..<", "...", "range"), ("...", "..<", "range")])
        self.assertEqual(changes("guard !done, x!.y, f(!ok) else { return min(a, b) }\n"),
                         [("!", "", "negation"), ("!", "", "negation"), ("min", "max", "min-max")])

    def test_tokens_that_are_not_the_operators_are_no_mutants(self):
        # A generic's angle brackets, an arrow, a force unwrap, a shift, Int.max (no call), a
        # directive, a generic where clause.
        source = ("func f<T>(x: Array<T>) -> Int? { x.first! << 1 }\nlet m = Int.max\n#if os(Linux) && true\n#endif\n"
                  "extension Array: P where Element == UInt8 {}\n")
        self.assertEqual(changes(source), [])

    def test_nothing_in_a_comment_or_a_string(self):
        self.assertEqual(changes('// a < b && true\nlet s = "a < b && true", t = 1 /* c != d */\n'), [])


class DrawTests(unittest.TestCase):
    def test_a_seed_draws_the_same_mutants_and_another_seed_others(self):
        first = [m["id"] for m in random_mutants.draw(ROOT, 40, 7)]
        self.assertEqual(len(first), 40)
        self.assertEqual(first, [m["id"] for m in random_mutants.draw(ROOT, 40, 7)])
        self.assertNotEqual(first, [m["id"] for m in random_mutants.draw(ROOT, 40, 8)])

    def test_every_drawn_token_is_code_in_its_room(self):
        for mutant in random_mutants.draw(ROOT, 200, 11):
            with open(os.path.join(ROOT, mutant["file"]), encoding="utf-8") as f:
                code = random_mutants.code_only(f.read())
            self.assertEqual(code[mutant["offset"]:mutant["offset"] + len(mutant["token"])], mutant["token"], mutant["id"])
            self.assertIn(mutant["room"], ("Core", "Daemon", "Protocol"))

    def test_every_equivalent_entry_names_a_mutant_of_the_code(self):
        # An entry the code moved away from would skip nothing, silently.
        wanted = set(random_mutants.load_equivalent(ROOT))
        found = set()
        texts = {}
        for candidate in random_mutants.all_candidates(ROOT):
            if candidate["file"] not in {key[0] for key in wanted}:
                continue
            if candidate["file"] not in texts:
                with open(os.path.join(ROOT, candidate["file"]), encoding="utf-8") as f:
                    texts[candidate["file"]] = f.read()
            found.add((candidate["file"],) + random_mutants.mutated_line(candidate, texts[candidate["file"]]))
        self.assertEqual(wanted - found, set())


if __name__ == "__main__":
    unittest.main()
