import Testing

/// `make mutate` plants each bug of Tests/Mutations/mutations.tsv by replacing a text that must
/// occur exactly once in its file. A refactor that moves or rewrites that line leaves the
/// mutation with nothing to plant, and the rule it guarded untested until someone runs the
/// 25-minute `make mutate`: this check, in `make check`, names it at once. The list is read by
/// scripts/mutate.py alone (`--check`), so its format is written in one place.
@Suite struct MutationListTests {
    @Test func everyMutationFindsItsTextExactlyOnce() throws {
        let checked = try runProcess("/usr/bin/env", ["python3", Fixtures.packageRoot + "/scripts/mutate.py", "--check"])
        #expect(checked.status == 0, "scripts/mutate.py --check:\n\(checked.stdout)\(checked.stderr)")
    }

    /// The random draw of `make mutate RANDOM=N SEED=S`: no mutant in a comment or a string, the
    /// same draw for a seed, each entry of Tests/Mutations/equivalent.tsv still a mutant of the
    /// code (Tests/Mutations/test_random_mutants.py).
    @Test func theRandomDrawKeepsToCodeAndToItsSeed() throws {
        let tested = try runProcess("/usr/bin/env", ["python3", Fixtures.packageRoot + "/Tests/Mutations/test_random_mutants.py"])
        #expect(tested.status == 0, "Tests/Mutations/test_random_mutants.py:\n\(tested.stdout)\(tested.stderr)")
    }
}
